// Reading a tree's files in order within its limits (tree-budget.ts), each parsed, interpolated and
// schema-checked (process-file.ts), or served by the daemon's file cache; shared with a worker
// thread when there is much to parse (parallel/share.ts).
import type { Measure } from '../../core/phase-times.js';
import { loadDocumentFiles, namesDocumentFiles, type DocumentFileSource } from '../document-files.js';
import type { SecretSources } from '../interpolate/interpolate.js';
import { shareRead, type ParallelOptions, type SharedRead } from '../parallel/share.js';
import { documentCount } from '../parse/prescan.js';
import { processFile, type DocumentHook, type FileResult } from '../process-file.js';
import type { FileCache } from './file-cache.js';
import { readText, stampOf, type ListedFile } from './files.js';
import { tooManyBytes, tooManyDocuments, type TreeBudget } from './tree-budget.js';

export interface ReadFilesOptions {
  cache?: FileCache;
  measure?: Measure;
  parallel?: ParallelOptions | false;
  /** Applied to each parsed document before it is checked (an environment's overlays). */
  hook?: DocumentHook;
}

const untimed: Measure = (_phase, work) => work();

/**
 * Reads the files in order, within the tree's limits: past one, reading stops with an error at
 * the file where it stopped.
 */
export async function readFiles(
  files: readonly { file: ListedFile; sources: SecretSources }[],
  documents: DocumentFileSource,
  budget: TreeBudget,
  options: ReadFilesOptions = {},
): Promise<FileResult[]> {
  const { cache, measure = untimed, parallel } = options;
  const listed = files.map(({ file }) => file);
  // Much to parse: shared with a worker thread (parallel/share.ts); else read one file after another.
  const shared = measure('read', () => shareRead(listed, { cache, overlays: options.hook !== undefined, parallel }));
  try {
    return await readEach(files, documents, budget, options, shared);
  } finally {
    shared?.close();
  }
}

async function readEach(
  files: readonly { file: ListedFile; sources: SecretSources }[],
  documents: DocumentFileSource,
  budget: TreeBudget,
  options: ReadFilesOptions,
  shared: SharedRead | undefined,
): Promise<FileResult[]> {
  const { cache, measure = untimed, hook } = options;
  const results: FileResult[] = [];
  let lastYield = performance.now();
  // Synchronous reads: the thread pool's round trips cost more than the reads. A long read still
  // lets the event loop breathe now and then, for a daemon answering health checks meanwhile.
  for (const [index, { file, sources }] of files.entries()) {
    const stamp = cache ? measure('read', () => stampOf(file)) : undefined;
    const unread = stamp && stamp.bytes <= budget.bytesLeft ? cache?.resultByStamp(file.path, stamp) : undefined;
    let processed: FileResult;
    if (unread && stamp) {
      budget.bytesLeft -= stamp.bytes;
      processed = unread;
    } else {
      const content = measure('read', () => readText(file, budget.bytesLeft));
      if ('overLimit' in content) {
        results.push(tooManyBytes(file.path, budget));
        break;
      }
      if ('bytes' in content) budget.bytesLeft -= content.bytes;
      // Counted before the file is parsed: parsing holds all its documents at once.
      if ('text' in content && budget.resources + documentCount(content.text) > budget.limits.maxResources) {
        results.push(tooManyDocuments(file.path, budget));
        break;
      }
      const fromWorker = 'text' in content ? await shared?.result(index, content.text) : undefined;
      const process = (): FileResult => fromWorker ?? processFile(file, content, sources, measure, hook);
      processed = cache && 'text' in content ? cache.resultFor(file.path, content.text, process, stamp) : process();
    }
    // The cache holds what the YAML text yields; the document files it names (a dashboard's JSON)
    // are read at every pass, into a copy, so an edit of the JSON alone is seen.
    const result = cache && namesDocumentFiles(processed) ? { diagnostics: [...processed.diagnostics], documents: processed.documents.map((d) => ({ ...d })) } : processed;
    budget.bytesLeft -= loadDocumentFiles(result, file.path, documents, budget.bytesLeft);
    results.push(result);
    // What aliases expand to reaches plans and request bodies as if it were written out.
    budget.bytesLeft -= result.aliasBytes ?? 0;
    // Every document counts, skipped or not: each costs memory whatever its kind.
    budget.resources += result.documents.length;
    const past = budget.bytesLeft < 0 ? tooManyBytes(file.path, budget, true) : budget.resources > budget.limits.maxResources ? tooManyDocuments(file.path, budget) : undefined;
    if (past) {
      // The file is counted already, by its own result.
      results.push({ ...past, notAFile: true });
      break;
    }
    if (performance.now() - lastYield > 50) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
  }
  return results;
}

