// What each file yielded (parsed, interpolated and schema-checked documents), by path and content
// hash: a reader that reads the same tree again (the daemon, at every edit) processes only the
// files whose text changed. A file with `${` is always processed again: what it yields depends on
// the environment and the secret files, not on its text alone.
//
// A file whose stamp (device, inode, size, modification and change times) is the one of its last
// read is not even read again. The change time cannot be set back by any tool, but it moves in
// ticks of a few milliseconds: a file written twice within one tick, to the same size, keeps its
// stamp. So a stamp is only kept when the file's last change is older than RACY_MS at the read
// (git's "racily clean" rule); until then the file is read and hashed at every pass.
import { createHash } from 'node:crypto';
import type { FileResult } from '../process-file.js';

/** How old a file's last change must be for its stamp to stand for its content. */
export const RACY_MS = 2000;

/** What names a file's content without reading it, and when it last changed. */
export interface FileStamp {
  stamp: string;
  changedMs: number;
}

interface Entry {
  hash: string;
  result: FileResult;
  stamp?: string;
}

export interface FileCacheOptions {
  /** The clock the change times are compared with (a test runs it ahead). */
  now?: () => number;
}

export class FileCache {
  private entries = new Map<string, Entry>();
  /** Files served from the cache and files processed in this pass. */
  hits = 0;
  misses = 0;
  /** Of the hits, files served by their stamp without being read. */
  unread = 0;
  private seen = new Set<string>();
  private readonly now: () => number;
  private context: string | undefined;

  constructor(options: FileCacheOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A new read of the tree starts. `context` names what else the results depend on (an
   * environment's overlays): when it is not the last pass's, nothing kept is used.
   */
  beginPass(context?: string): void {
    if (context !== this.context) this.entries.clear();
    this.context = context;
    this.hits = 0;
    this.misses = 0;
    this.unread = 0;
    this.seen = new Set();
  }

  /** The result kept for `path` when the file still has the stamp of its last read; then it need not be read. */
  resultByStamp(path: string, stamp: FileStamp): FileResult | undefined {
    const entry = this.entries.get(path);
    if (entry?.stamp === undefined || entry.stamp !== stamp.stamp) return undefined;
    this.seen.add(path);
    this.hits++;
    this.unread++;
    return entry.result;
  }

  /** The cached result for this text of `path`, or the one `process` makes (then kept). */
  resultFor(path: string, text: string, process: () => FileResult, stamp?: FileStamp): FileResult {
    this.seen.add(path);
    if (text.includes('${')) {
      this.entries.delete(path);
      this.misses++;
      return process();
    }
    const hash = createHash('sha256').update(text, 'utf8').digest('base64');
    const trusted = stamp !== undefined && stamp.changedMs < this.now() - RACY_MS ? stamp.stamp : undefined;
    const cached = this.entries.get(path);
    if (cached?.hash === hash) {
      this.hits++;
      cached.stamp = trusted;
      return cached.result;
    }
    this.misses++;
    const result = process();
    this.entries.set(path, { hash, result, stamp: trusted });
    return result;
  }

  /** The pass is over: forgets the files it did not read (deleted, renamed). */
  endPass(): void {
    for (const path of this.entries.keys()) if (!this.seen.has(path)) this.entries.delete(path);
  }

  get size(): number {
    return this.entries.size;
  }
}
