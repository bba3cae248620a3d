// V8 lets the old generation grow well past what is live before it collects it. A reconcile at
// 10,000 resources leaves some 25 MB of garbage that outlived the young generation (the tree read
// again, the lists read again after a write, the plan it replaced), so a daemon answering edits
// climbed from 180 MB to 360+ MB of RSS between V8's own full collections (bench/daemon.mjs). So
// the daemon collects itself, after a reconcile: at once when the heap has grown by a good part
// since the last collection, else once it has been quiet a while. A collection at that size costs
// 50-120 ms, after the reconcile's writes are confirmed; none happens while nothing does.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { systemClock, type Clock, type TimerHandle } from './clock.js';

/** How long after the last reconcile the daemon counts as quiet. */
export const HEAP_TRIM_QUIET_MS = 2_000;
/**
 * Growth over what the last collection left that is collected at once, in a burst of reconciles:
 * double, and at least 64 MiB. Not less: a full collection makes V8 drop optimized code whose
 * objects died, and the reconcile after it ran about 100 ms slower at 10,000 resources.
 */
export const HEAP_GROWTH_FACTOR = 2;
export const HEAP_GROWTH_MIN_BYTES = 64 * 1024 * 1024;
/** Less growth than this is not worth a collection when quiet. */
export const HEAP_QUIET_MIN_BYTES = 4 * 1024 * 1024;

/** V8's full collection, exposed for this process (as `node --expose-gc` would), or undefined where it cannot be. */
export function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  try {
    setFlagsFromString('--expose-gc');
    // The flag exposes `gc` in contexts made from now on, not in this one.
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export interface HeapTrimOptions {
  /** Collects; absent: the trim does nothing. */
  collect: (() => void) | undefined;
  /** A reconcile in progress: the quiet-time collection waits for the next quiet period. */
  busy: () => boolean;
  /** Bytes of heap in use (V8's statistics; a test passes its own). */
  heapUsed?: () => number;
  clock?: Clock;
  quietMs?: number;
  onTrim?: (trim: { why: 'grown' | 'quiet'; ms: number; beforeBytes: number; afterBytes: number }) => void;
}

export class HeapTrim {
  private timer: TimerHandle | null = null;
  private readonly clock: Clock;
  private readonly heapUsed: () => number;
  /** What the last collection left in use; undefined before the first. */
  private baseline: number | undefined;

  constructor(private readonly opts: HeapTrimOptions) {
    this.clock = opts.clock ?? systemClock;
    this.heapUsed = opts.heapUsed ?? (() => getHeapStatistics().used_heap_size);
  }

  /** After each reconcile: collects now if the heap has grown enough, else arms the quiet-time collection. */
  reconciled(): void {
    if (!this.opts.collect) return;
    this.cancel();
    const used = this.heapUsed();
    if (this.baseline === undefined || used > Math.max(this.baseline * HEAP_GROWTH_FACTOR, this.baseline + HEAP_GROWTH_MIN_BYTES)) {
      this.trim('grown', used);
      return;
    }
    const timer = this.clock.setTimeout(() => {
      this.timer = null;
      const now = this.heapUsed();
      if (!this.opts.busy() && this.baseline !== undefined && now > this.baseline + HEAP_QUIET_MIN_BYTES) this.trim('quiet', now);
    }, this.opts.quietMs ?? HEAP_TRIM_QUIET_MS);
    // The collection is never a reason to keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    this.timer = timer;
  }

  cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private trim(why: 'grown' | 'quiet', beforeBytes: number): void {
    const started = performance.now();
    this.opts.collect?.();
    const ms = performance.now() - started;
    this.baseline = this.heapUsed();
    this.opts.onTrim?.({ why, ms, beforeBytes, afterBytes: this.baseline });
  }
}
