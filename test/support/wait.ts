// Waiting for something another process or the event loop does. A timeout here only bounds a
// test that would otherwise hang; no test asserts how long anything took.

export interface WaitOptions {
  /** Default 10 s. */
  timeoutMs?: number;
  /** Named in the error on timeout. */
  what?: string;
  /** Default 20 ms. */
  intervalMs?: number;
}

/** Polls `condition` until it holds; throws after the timeout. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}

/**
 * Gives a process time to do what it must not do (a second reconcile, a write), before a test
 * checks that it did not. Such a check can only pass wrongly on a slow machine, never fail wrongly.
 */
export function quietPeriod(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
