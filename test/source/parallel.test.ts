// The second reading thread (dist/source/worker.js; build first: npm test does) gives exactly what
// this thread gives for the same files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { listYamlFiles } from '../../src/source/files.js';
import { createSecretSources } from '../../src/source/interpolate.js';
import type { WorkerInput, WorkerOutput } from '../../src/source/parallel.js';
import { processFile } from '../../src/source/process-file.js';
import { packageRoot } from '../../src/util/package-root.js';
import { makeTree } from './helpers.js';

const { dir, cleanup } = makeTree({
  'a.yaml': 'apiVersion: wsync/v1\nkind: Org\nmetadata: {name: a}\n---\nnot: a resource\n',
  'b/monitor.yaml':
    'apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: m\nspec:\n  type: Threshold\n  aplQuery: x\n  notifiers: ["${env:N}"]\n  treshold: 1\n',
  'b/notifier.yml':
    'apiVersion: wsync/v1\nkind: Notifier\nmetadata: {name: n}\nspec:\n  properties:\n    slack: {slackUrl: "${env:URL}"}\n',
  'c/broken.yaml': 'apiVersion: wsync/v1\nkind: Org\nmetadata: {name: [x\n',
  'c/dup.yaml': 'apiVersion: wsync/v1\nkind: Org\nmetadata: {name: a}\n',
});
afterAll(cleanup);

const env = { N: 'notifier-from-env', URL: 'https://hooks.slack.com/services/x' };

describe('the reading worker', () => {
  it('returns, for every file it claims, what processFile returns on this thread', async () => {
    const script = join(packageRoot(), 'dist', 'source', 'worker.js');
    expect(existsSync(script)).toBe(true);
    const files = listYamlFiles(dir);
    const next = new Int32Array(new SharedArrayBuffer(8));
    const input: WorkerInput = { files, env, secretsDir: undefined, next };
    const output = await new Promise<WorkerOutput>((resolve, reject) => {
      const worker = new Worker(script, { workerData: input });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(output.results.map(([index]) => index)).toEqual(files.map((_, i) => i));
    expect(Atomics.load(next, 1)).toBe(files.length);
    const sources = createSecretSources(env, undefined);
    expect(output.results.map(([, result]) => result)).toEqual(files.map((file) => processFile(file, sources)));
    expect(output.secretValues.sort()).toEqual([...sources.secretValues].sort());
  });
});
