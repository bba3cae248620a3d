// A read with much to parse shares the work with one worker thread (the machine wsync runs on has
// two cores). Each thread claims the files it processes (claims.ts), the main thread from the
// first, the worker from the last back, and the main thread takes the worker's results in file
// order, within the read's limits exactly as if it had made them: it reads every file itself as
// before, and takes a result only if the worker read the same text. Files holding `${` stay on
// the main thread, so the worker resolves no secret. A worker that cannot start or fails leaves
// its files to the main thread: the result is the same, only later. A read the daemon's file
// cache serves (an edit) starts no worker.
import { statSync } from 'node:fs';
import type { FileCache } from '../read/file-cache.js';
import type { ListedFile } from '../read/files.js';
import type { FileResult } from '../process-file.js';
import { CLAIMED_BY_MAIN, CLAIMED_BY_WORKER, UNCLAIMED, type ShareMessage, type WorkerMessage } from './claims.js';
import { startWorker, type ParseWorker } from './start-worker.js';
import { textHash } from './text-hash.js';
import { fromWire } from './wire.js';

/** When a read shares its files with a worker thread. */
export interface ParallelOptions {
  /** At least this many files (default 50)... */
  minFiles?: number;
  /** ...holding at least this many bytes (default 16 MiB: below it a worker did not pay, docs/incremental.md). */
  minBytes?: number;
  /** For tests: which thread processes each file, instead of claiming as they go. */
  assign?: (path: string) => 'main' | 'worker';
  /** The worker's heap limit in MiB (default 64). */
  heapMb?: number;
  /** For tests: told each file whose result the worker made. */
  fromWorker?: (path: string) => void;
}

const DEFAULT_MIN_FILES = 50;
const DEFAULT_MIN_BYTES = 16 * 1024 * 1024;
const DEFAULT_HEAP_MB = 64;

type Sent = NonNullable<WorkerMessage['done']> | undefined;

/** The worker's side of one read. */
export class SharedRead {
  private readonly flags: Int32Array;
  private readonly sent = new Map<number, Sent>();
  private readonly waiting = new Map<number, (sent: Sent) => void>();
  /** The worker has stopped: what it has not sent will not come. */
  private stopped = false;

  constructor(
    private readonly worker: ParseWorker,
    private readonly files: readonly ListedFile[],
    private readonly options: ParallelOptions,
  ) {
    const { assign } = options;
    this.flags = new Int32Array(new SharedArrayBuffer(4 * files.length));
    if (assign) files.forEach((file, index) => (this.flags[index] = assign(file.path) === 'worker' ? CLAIMED_BY_WORKER : CLAIMED_BY_MAIN));
    worker.onMessage(({ index, done }) => {
      const waiting = this.waiting.get(index);
      this.waiting.delete(index);
      if (waiting) waiting(done);
      else this.sent.set(index, done);
    });
    worker.onStop(() => {
      this.stopped = true;
      for (const waiting of this.waiting.values()) waiting(undefined);
      this.waiting.clear();
    });
    const message: ShareMessage = { flags: this.flags.buffer as SharedArrayBuffer, files: [...files], dynamic: assign === undefined };
    worker.post(message);
  }

  /** The worker's result for the file whose text this thread read, or undefined when this thread is to process it. */
  result(index: number, text: string): Promise<FileResult | undefined> | undefined {
    if (Atomics.compareExchange(this.flags, index, UNCLAIMED, CLAIMED_BY_MAIN) !== CLAIMED_BY_WORKER) return undefined;
    const path = (this.files[index] as ListedFile).path;
    const take = (sent: Sent): FileResult | undefined => {
      if (sent === undefined || sent.hash !== textHash(text)) return undefined;
      this.options.fromWorker?.(path);
      return fromWire(sent.wire, text, path);
    };
    if (this.sent.has(index)) {
      const sent = this.sent.get(index);
      this.sent.delete(index);
      return Promise.resolve(take(sent));
    }
    if (this.stopped) return undefined;
    return new Promise((resolve) => this.waiting.set(index, (sent) => resolve(take(sent))));
  }

  /** Stops the worker, done or not. */
  close(): void {
    this.worker.stop();
  }
}

function enoughBytes(files: readonly ListedFile[], minBytes: number): boolean {
  let bytes = 0;
  for (const file of files) {
    try {
      bytes += statSync(file.absolute).size;
    } catch {
      // The read says why.
    }
    if (bytes >= minBytes) return true;
  }
  return false;
}

/**
 * A worker sharing the read of `files`, when it pays: not for a read of an environment with
 * overlays (merged on the main thread), nor for one the daemon's cache serves in part.
 */
export function shareRead(
  files: readonly ListedFile[],
  options: { cache?: FileCache; overlays?: boolean; parallel?: ParallelOptions | false },
): SharedRead | undefined {
  const parallel = options.parallel ?? {};
  if (parallel === false || options.overlays === true || (options.cache?.size ?? 0) > 0) return undefined;
  if (files.length < (parallel.minFiles ?? DEFAULT_MIN_FILES) || !enoughBytes(files, parallel.minBytes ?? DEFAULT_MIN_BYTES)) return undefined;
  const worker = startWorker(parallel.heapMb ?? DEFAULT_HEAP_MB);
  return worker && new SharedRead(worker, files, parallel);
}
