import { describe, expect, it } from 'vitest';
import { fullCollection, HEAP_QUIET_MIN_BYTES, HEAP_TRIM_QUIET_MS, HeapTrim } from '../../src/daemon/heap-trim.js';
import { FakeClock } from '../support/fake-clock.js';

const MB = 1024 * 1024;

/** A HeapTrim over a heap whose size the test sets; a collection brings it down to `live`. */
function setup(opts: { live?: number; busy?: boolean } = {}) {
  const clock = new FakeClock();
  const heap = { used: 100 * MB, live: opts.live ?? 60 * MB, busy: opts.busy ?? false };
  const trims: { why: string; beforeBytes: number; afterBytes: number }[] = [];
  const trim = new HeapTrim({
    collect: () => {
      heap.used = heap.live;
    },
    busy: () => heap.busy,
    heapUsed: () => heap.used,
    clock,
    onTrim: ({ why, beforeBytes, afterBytes }) => trims.push({ why, beforeBytes, afterBytes }),
  });
  return { clock, heap, trims, trim };
}

describe('HeapTrim', () => {
  it('collects after the first reconcile, which leaves the garbage of a whole read', () => {
    const { trims, trim, clock } = setup();
    trim.reconciled();
    expect(trims).toEqual([{ why: 'grown', beforeBytes: 100 * MB, afterBytes: 60 * MB }]);
    expect(clock.pending()).toEqual([]);
  });

  it('collects at once when the heap has doubled since, and at least by 64 MiB', () => {
    const { trims, trim, heap } = setup();
    trim.reconciled();
    heap.used = 120 * MB; // doubled, but only 60 MiB more
    trim.reconciled();
    expect(trims).toHaveLength(1);
    heap.used = 125 * MB;
    trim.reconciled();
    expect(trims.map((t) => t.why)).toEqual(['grown', 'grown']);
  });

  it('otherwise collects once the daemon has been quiet, and a reconcile meanwhile starts the wait again', async () => {
    const { trims, trim, heap, clock } = setup();
    trim.reconciled();
    heap.used = 90 * MB;
    trim.reconciled();
    expect(clock.pending()).toEqual([HEAP_TRIM_QUIET_MS]);
    await clock.advance(HEAP_TRIM_QUIET_MS - 1);
    trim.reconciled();
    expect(clock.pending()).toEqual([HEAP_TRIM_QUIET_MS]);
    await clock.advance(HEAP_TRIM_QUIET_MS - 1);
    expect(trims).toHaveLength(1);
    await clock.advance(1);
    expect(trims.at(-1)).toEqual({ why: 'quiet', beforeBytes: 90 * MB, afterBytes: 60 * MB });
    expect(clock.pending()).toEqual([]);
  });

  it('does not collect when quiet if the heap has hardly grown, or while a reconcile runs', async () => {
    const { trims, trim, heap, clock } = setup();
    trim.reconciled();
    heap.used = 60 * MB + HEAP_QUIET_MIN_BYTES;
    trim.reconciled();
    await clock.advance(HEAP_TRIM_QUIET_MS);
    expect(trims).toHaveLength(1);
    heap.used = 80 * MB;
    heap.busy = true;
    trim.reconciled();
    await clock.advance(HEAP_TRIM_QUIET_MS);
    expect(trims).toHaveLength(1);
  });

  it('cancel drops the armed collection', async () => {
    const { trims, trim, heap, clock } = setup();
    trim.reconciled();
    heap.used = 80 * MB;
    trim.reconciled();
    trim.cancel();
    expect(clock.pending()).toEqual([]);
    await clock.advance(HEAP_TRIM_QUIET_MS * 2);
    expect(trims).toHaveLength(1);
  });

  it('does nothing, and arms nothing, without a collector', () => {
    const clock = new FakeClock();
    let asked = 0;
    const trim = new HeapTrim({ collect: undefined, busy: () => false, heapUsed: () => ++asked, clock });
    trim.reconciled();
    trim.reconciled();
    expect(asked).toBe(0);
    expect(clock.pending()).toEqual([]);
  });
});

describe('fullCollection', () => {
  it('is a real full collection: an object nothing holds is gone after it', async () => {
    const collect = fullCollection();
    expect(collect).toBeTypeOf('function');
    let target: object | undefined = { big: new Array(1000).fill('x') };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef keeps its target alive until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collect?.();
    expect(ref.deref()).toBeUndefined();
  });
});
