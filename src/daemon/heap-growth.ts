// V8 collects its old generation once the heap has grown by a factor over what the last
// collection left live, a factor it picks between 1.1 and 4 by how cheap collecting was. Each edit
// of a large tree leaves garbage that outlived the young generation, and V8's own factor let a
// burst of edits pile it up to several times what stays live (bench/daemon.mjs). Held to a small
// factor, V8 marks concurrently every few edits, briefly each time, and RSS levels off. A full
// collection forced after a reconcile (once the heap had doubled, or after every one) was measured
// and left behind: it held the main thread longer, or made V8 drop optimized code. The figures are
// in docs/incremental.md, Memory.
import { setFlagsFromString } from 'node:v8';

/** How far V8 lets the heap grow over what was live after a collection before it collects again. */
export const HEAP_GROWING_PERCENT = 10;

/** Applies to the whole process, from the next collection on: for the daemon, which holds its workspace for days. */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growing percent must be a positive integer, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
