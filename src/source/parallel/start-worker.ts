// Starts the worker thread of a parallel read. Built, the entry is worker-entry.js beside this
// file in dist/. Run from the TypeScript sources (vitest), the worker first registers tsx's loader
// (a development dependency), then imports worker-entry.ts: the tests run the sources they test in
// both threads. Either way a worker that cannot start is no worker: the main thread reads alone.
import { Worker } from 'node:worker_threads';
import type { ShareMessage, WorkerMessage } from './claims.js';

/** What the main thread holds of its worker. */
export interface ParseWorker {
  onMessage(listener: (message: WorkerMessage) => void): void;
  /** Called once when the worker stops: done, failed, or out of memory. */
  onStop(listener: () => void): void;
  post(message: ShareMessage): void;
  stop(): void;
}

function workerScript(): { script: string | URL; eval: boolean } | undefined {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: new URL('./worker-entry.js', here), eval: false };
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  const entry = new URL('./worker-entry.ts', here).href;
  return { script: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`, eval: true };
}

/**
 * A worker whose heap is bounded by `heapMb`; undefined when it cannot be started. It gets an empty
 * environment: it resolves no `${env:}` and needs none of wsync's credentials.
 */
export function startWorker(heapMb: number): ParseWorker | undefined {
  const found = workerScript();
  if (found === undefined) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(found.script, {
      eval: found.eval,
      execArgv: [],
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(4, heapMb) },
    });
  } catch {
    return undefined;
  }
  let stopListener: (() => void) | undefined;
  let stopped = false;
  const stopOnce = (): void => {
    if (stopped) return;
    stopped = true;
    stopListener?.();
  };
  worker.on('error', stopOnce);
  worker.on('exit', stopOnce);
  return {
    onMessage: (listener) => worker.on('message', listener),
    onStop: (listener) => (stopListener = listener),
    post: (message) => worker.postMessage(message),
    stop: () => {
      stopOnce();
      void worker.terminate();
    },
  };
}
