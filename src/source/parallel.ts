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
  /** [0]: index of the next unclaimed file, shared by both threads; [1]: files the worker claimed. */
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

interface Helper {
  output: Promise<WorkerOutput | undefined>;
  /** Stops the worker; whatever it claimed and did not return, the caller does itself. */
  stop(): void;
}

function startWorker(script: URL, input: WorkerInput): Helper {
  let worker: Worker | undefined;
  const output = new Promise<WorkerOutput | undefined>((resolve) => {
    let settled = false;
    const finish = (result: WorkerOutput | undefined): void => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    try {
      worker = new Worker(script, { workerData: input });
      worker.once('message', (result: WorkerOutput) => finish(result));
      // A worker that fails leaves its files unprocessed; the caller does them.
      worker.once('error', () => finish(undefined));
      worker.once('exit', () => finish(undefined));
    } catch {
      finish(undefined);
    }
  });
  return { output, stop: () => void worker?.terminate() };
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
  const next = new Int32Array(new SharedArrayBuffer(8));
  const script = files.length >= PARALLEL_MIN_FILES && availableParallelism() > 1 ? workerScript() : undefined;
  const helper = script
    ? startWorker(script, { files: [...files], env: { ...options.env }, secretsDir: options.secretsDir, next })
    : undefined;
  for (;;) {
    const index = Atomics.add(next, 0, 1);
    if (index >= files.length) break;
    results[index] = processFile(files[index]!, sources);
  }
  let output: WorkerOutput | undefined;
  if (helper && Atomics.load(next, 1) === 0) {
    // This thread was done before the worker had even started: waiting for it would only add time.
    helper.stop();
  } else if (helper) {
    output = await helper.output;
  }
  if (output) {
    for (const [index, result] of output.results) results[index] = result;
    for (const value of output.secretValues) sources.secretValues.add(value);
  }
  const complete = results.map((result, index) => result ?? processFile(files[index]!, sources));
  return { results: complete, secretValues: sources.secretValues };
}
