// The second thread of processFiles: claims files from the shared counter until none are left.
import { parentPort, workerData } from 'node:worker_threads';
import { createSecretSources } from './interpolate.js';
import type { WorkerInput, WorkerOutput } from './parallel.js';
import { processFile } from './process-file.js';

const input = workerData as WorkerInput;
const sources = createSecretSources(input.env, input.secretsDir);
const output: WorkerOutput = { results: [], secretValues: [] };
for (;;) {
  const index = Atomics.add(input.next, 0, 1);
  if (index >= input.files.length) break;
  Atomics.add(input.next, 1, 1);
  output.results.push([index, processFile(input.files[index]!, sources)]);
}
output.secretValues = [...sources.secretValues];
parentPort?.postMessage(output);
