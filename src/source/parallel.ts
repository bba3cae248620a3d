import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ListedFile } from './files.js';
import { createSecretSources } from './interpolate.js';
import { processFile, type FileResult } from './process-file.js';

/** Below this many files a second thread costs more to start than it saves. */
const PARALLEL_MIN_FILES = 40;

export interface WorkerInput {
  files: ListedFile[];
  env: Record<string, string | undefined>;
  secretsDir: string | undefined;
  /** Index of the next unclaimed file, shared by both threads. */
  next: Int32Array;
}

export interface WorkerOutput {
  results: [number, FileResult][];
  secretValues: string[];
}

/** The compiled worker beside this module; absent when running from TypeScript sources (tests). */
function workerScript(): URL | undefined {
  const url = new URL('./worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

function runWorker(script: URL, input: WorkerInput): Promise<WorkerOutput | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (output: WorkerOutput | undefined): void => {
      if (!settled) {
        settled = true;
        resolve(output);
      }
    };
    try {
      const worker = new Worker(script, { workerData: input });
      worker.once('message', (output: WorkerOutput) => finish(output));
      // A worker that fails leaves its files unprocessed; the caller does them.
      worker.once('error', () => finish(undefined));
      worker.once('exit', () => finish(undefined));
    } catch {
      finish(undefined);
    }
  });
}

/**
 * Processes files on this thread and, for large trees, on a second one: both claim the next file
 * from a shared counter, so neither waits for the other. Parsing YAML is the bulk of the work.
 * Results come back in file order.
 */
export async function processFiles(
  files: readonly ListedFile[],
  options: { env: Record<string, string | undefined>; secretsDir: string | undefined },
): Promise<{ results: FileResult[]; secretValues: Set<string> }> {
  const sources = createSecretSources(options.env, options.secretsDir);
  const results = new Array<FileResult | undefined>(files.length);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const script = files.length >= PARALLEL_MIN_FILES && availableParallelism() > 1 ? workerScript() : undefined;
  const helper = script
    ? runWorker(script, { files: [...files], env: { ...options.env }, secretsDir: options.secretsDir, next })
    : Promise.resolve(undefined);
  for (;;) {
    const index = Atomics.add(next, 0, 1);
    if (index >= files.length) break;
    results[index] = processFile(files[index]!, sources);
  }
  const output = await helper;
  if (output) {
    for (const [index, result] of output.results) results[index] = result;
    for (const value of output.secretValues) sources.secretValues.add(value);
  }
  const complete = results.map((result, index) => result ?? processFile(files[index]!, sources));
  return { results: complete, secretValues: sources.secretValues };
}
