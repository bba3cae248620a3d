// V8 collects its old generation once the heap has grown by a factor over what the last
// collection left live, a factor it picks between 1.1 and 4 by how cheap collecting was.
// - The daemon: each edit of a large tree leaves garbage that outlived the young generation, and
//   V8's own factor let a burst of edits pile it up to several times what stays live
//   (bench/daemon.mjs). Held to a small factor, V8 marks concurrently every few edits, briefly each
//   time, and RSS levels off. A full collection forced after a reconcile (once the heap had
//   doubled, or after every one) was measured and left behind: it held the main thread longer, or
//   made V8 drop optimized code.
// - A plan or an apply of a large tree: V8 last collects while the files are read, sets its next
//   limit at four times what was live then, and the live objects and the plan fill that room with
//   no collection at all; the peak was then all that was ever allocated. Held once the read is
//   known to be large, V8 collects during the live read and the plan too, at some CPU; a small tree
//   is not held, and its plan takes no longer.
// The figures are in docs/incremental.md, "Memory" and "Memory of a one-shot plan".
import { setFlagsFromString } from 'node:v8';

/** How far V8 lets the heap grow over what was live after a collection before it collects again. */
export const HEAP_GROWING_PERCENT = 10;

/** The same for a plan's or an apply's read of a large tree (the heap may double): looser, as the run is short. */
export const LARGE_READ_GROWING_PERCENT = 100;

/** A read of this many documents is large; a tree of 10,000 monitors (the bench's) is not. */
export const LARGE_READ_DOCUMENTS = 20_000;

/** The limit this process set last: a later, looser one never undoes it. */
let limited: number | undefined;

/**
 * Applies to the whole process, from the next collection on (for the daemon, which holds its
 * workspace for days); never loosens a limit set before.
 */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growing percent must be a positive integer, got ${percent}`);
  if (limited !== undefined && limited <= percent) return;
  limited = percent;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** A read's progress (documents read so far) that limits the heap's growth once the read is large (through `limit`). */
export function limitGrowthOfLargeRead(limit: (percent: number) => void = limitHeapGrowth): (documents: number) => void {
  let done = false;
  return (documents) => {
    if (done || documents < LARGE_READ_DOCUMENTS) return;
    done = true;
    limit(LARGE_READ_GROWING_PERCENT);
  };
}
