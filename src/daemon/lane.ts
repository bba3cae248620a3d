// What the daemon's background lanes share (#28): the write-back's git and GitHub work and the
// revision marks run after the reconcile, off its path, and a stop waits for them only so long.
import type { Clock, TimerHandle } from './clock.js';

/** How long a stop waits for a lane's work in flight (and what is queued behind it). */
export const CLOSE_WAIT_MS = 10_000;

/** Waits for `work`, at most `CLOSE_WAIT_MS` on `clock`: false when it gave up (the work goes on, unawaited). */
export async function finishedBeforeStop(work: Promise<unknown>, clock: Clock): Promise<boolean> {
  let timer: TimerHandle | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = clock.setTimeout(() => resolve(false), CLOSE_WAIT_MS)));
  const finished = await Promise.race([work.then(() => true), timedOut]);
  if (timer !== undefined) clock.clearTimeout(timer);
  return finished;
}
