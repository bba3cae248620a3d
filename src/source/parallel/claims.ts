// How the two threads of a parallel read (share.ts, worker-entry.ts) split the files: one flag per
// file in shared memory, claimed with compare-and-swap, the main thread from the first file on,
// the worker from the last one back, so neither waits for a share decided in advance.
import type { ListedFile } from '../read/files.js';
import type { WireResult } from './wire.js';

export const UNCLAIMED = 0;
export const CLAIMED_BY_MAIN = 1;
export const CLAIMED_BY_WORKER = 2;

/** What the main thread sends the worker, once. */
export interface ShareMessage {
  /** An Int32Array's buffer: a flag per file. */
  flags: SharedArrayBuffer;
  files: ListedFile[];
  /** The flags are claimed as the threads go (false: set in advance, by a test). */
  dynamic: boolean;
}

/**
 * What the worker sends for each file it claimed: the result and a hash of the text it read (the
 * main thread takes the result only for the text it read itself), or nothing when the file is the
 * main thread's to process (it holds `${`, or could not be read).
 */
export interface WorkerMessage {
  index: number;
  done?: { hash: string; wire: WireResult };
}
