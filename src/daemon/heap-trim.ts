// V8 lets the old generation grow well past what is live before it collects it. A reconcile at
// 10,000 resources leaves some 35 MB of garbage that outlived the young generation (the tree read
// again, the lists read again after a write, the plan it replaced) over 60 MB that stay live, so a
// daemon answering a burst of edits climbed from 170 MB to 400 MB of RSS before V8 collected
// (bench/daemon.mjs). So after a reconcile the daemon collects when the heap has doubled since the
// last collection: 50-120 ms, after the reconcile's writes are confirmed. Not more often: a full
// collection makes V8 drop optimized code whose objects died, and the reconcile after it ran about
// 100 ms slower. Once the daemon is quiet, V8's own memory reducer shrinks the heap (measured:
// RSS back to ~135 MB within a minute), so a collection of ours then would only add to its work.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth over what the last collection left that is collected: double, and at least 64 MiB. */
export const HEAP_GROWTH_FACTOR = 2;
export const HEAP_GROWTH_MIN_BYTES = 64 * 1024 * 1024;

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
  /** Bytes of heap in use (V8's statistics; a test passes its own). */
  heapUsed?: () => number;
  onTrim?: (trim: { ms: number; beforeBytes: number; afterBytes: number }) => void;
}

export class HeapTrim {
  private readonly heapUsed: () => number;
  /** What the last collection left in use; undefined before the first. */
  private baseline: number | undefined;

  constructor(private readonly opts: HeapTrimOptions) {
    this.heapUsed = opts.heapUsed ?? (() => getHeapStatistics().used_heap_size);
  }

  /** After each reconcile: collects if the heap has grown enough since the last collection (or after the first reconcile). */
  reconciled(): void {
    const { collect } = this.opts;
    if (!collect) return;
    const beforeBytes = this.heapUsed();
    if (this.baseline !== undefined && beforeBytes <= Math.max(this.baseline * HEAP_GROWTH_FACTOR, this.baseline + HEAP_GROWTH_MIN_BYTES)) return;
    const started = performance.now();
    collect();
    const ms = performance.now() - started;
    this.baseline = this.heapUsed();
    this.opts.onTrim?.({ ms, beforeBytes, afterBytes: this.baseline });
  }
}
