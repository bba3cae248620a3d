// What each file yielded (parsed, interpolated and schema-checked documents), by path and content
// hash: a reader that reads the same tree again (the daemon, at every edit) processes only the
// files whose text changed. A file with `${` is always processed again: what it yields depends on
// the environment and the secret files, not on its text alone.
import { createHash } from 'node:crypto';
import type { FileResult } from './process-file.js';

interface Entry {
  hash: string;
  result: FileResult;
}

export class FileCache {
  private entries = new Map<string, Entry>();
  /** Files served from the cache and files processed in this pass. */
  hits = 0;
  misses = 0;
  private seen = new Set<string>();

  /** A new read of the tree starts. */
  beginPass(): void {
    this.hits = 0;
    this.misses = 0;
    this.seen = new Set();
  }

  /** The cached result for this text of `path`, or the one `process` makes (then kept). */
  resultFor(path: string, text: string, process: () => FileResult): FileResult {
    this.seen.add(path);
    if (text.includes('${')) {
      this.entries.delete(path);
      this.misses++;
      return process();
    }
    const hash = createHash('sha256').update(text, 'utf8').digest('base64');
    const cached = this.entries.get(path);
    if (cached?.hash === hash) {
      this.hits++;
      return cached.result;
    }
    this.misses++;
    const result = process();
    this.entries.set(path, { hash, result });
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
