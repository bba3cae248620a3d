// V8 collects its old generation once the heap has grown by a factor over what the last
// collection left live, a factor it picks between 1.1 and 4 by how cheap collecting was. At 10,000
// resources each edit leaves some 7 MB of garbage that outlived the young generation over some
// 60 MB that stay live, and V8's factor let that pile up to 250-400 MB of RSS in a burst of edits
// (bench/daemon.mjs). The daemon holds V8 to 10 %: it then marks concurrently every few edits, with
// 10-35 ms on the main thread each time, and RSS stays under 200 MB (docs/incremental.md, Memory).
// Measured and left behind: a full collection forced after a reconcile once the heap had doubled
// (burst peak 250 MB; each forced collection 50-120 ms on the main thread), or after every one
// (V8 then dropped optimized code and each edit ran ~100 ms slower).
import { setFlagsFromString } from 'node:v8';

/** How far V8 lets the heap grow over what was live after a collection before it collects again. */
export const HEAP_GROWING_PERCENT = 10;

/** Applies to the whole process, from the next collection on: for the daemon, which holds its workspace for days. */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growing percent must be a positive integer, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
