import { describe, expect, it } from 'vitest';
import { fullCollection, HeapTrim } from '../../src/daemon/heap-trim.js';

const MB = 1024 * 1024;

/** A HeapTrim over a heap whose size the test sets; a collection brings it down to `live`. */
function setup() {
  const heap = { used: 100 * MB, live: 60 * MB };
  const trims: { beforeBytes: number; afterBytes: number }[] = [];
  const trim = new HeapTrim({
    collect: () => {
      heap.used = heap.live;
    },
    heapUsed: () => heap.used,
    onTrim: ({ beforeBytes, afterBytes }) => trims.push({ beforeBytes, afterBytes }),
  });
  return { heap, trims, trim };
}

describe('HeapTrim', () => {
  it('collects after the first reconcile, which leaves the garbage of a whole read', () => {
    const { trims, trim } = setup();
    trim.reconciled();
    expect(trims).toEqual([{ beforeBytes: 100 * MB, afterBytes: 60 * MB }]);
  });

  it('then collects only when the heap has doubled since, and by at least 64 MiB', () => {
    const { trims, trim, heap } = setup();
    trim.reconciled();
    heap.used = 110 * MB;
    trim.reconciled();
    heap.used = 124 * MB; // doubled, but only 64 MiB more
    trim.reconciled();
    expect(trims).toHaveLength(1);
    heap.used = 125 * MB;
    trim.reconciled();
    expect(trims).toEqual([
      { beforeBytes: 100 * MB, afterBytes: 60 * MB },
      { beforeBytes: 125 * MB, afterBytes: 60 * MB },
    ]);
  });

  it('with a large live heap, doubling is what counts', () => {
    const { trims, trim, heap } = setup();
    heap.live = 200 * MB;
    heap.used = 250 * MB;
    trim.reconciled();
    heap.used = 399 * MB;
    trim.reconciled();
    expect(trims).toHaveLength(1);
    heap.used = 401 * MB;
    trim.reconciled();
    expect(trims).toHaveLength(2);
  });

  it('does nothing without a collector', () => {
    let asked = 0;
    const trim = new HeapTrim({ collect: undefined, heapUsed: () => ++asked });
    trim.reconciled();
    trim.reconciled();
    expect(asked).toBe(0);
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
