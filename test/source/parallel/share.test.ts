// A read shared with a worker thread (src/source/parallel/) gives exactly what the main thread
// alone gives: the same resources and values, diagnostics (file, line, column), order, limits and
// positions computed on demand, whichever thread processed which file; and the same when the
// worker cannot run. The tests set which thread takes which file (`assign`), and count the files
// whose result came from the worker, so the shared path is the one under test.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Desired } from '../../../src/core/types.js';
import { readDesired, readDesiredPaths, type ReadOptions } from '../../../src/source/index.js';
import type { ParallelOptions } from '../../../src/source/parallel/share.js';
import { FileCache } from '../../../src/source/read/file-cache.js';
import { useScratch, type Files } from '../../support/tree.js';
import { monitorYaml, notifierYaml } from '../../support/yaml.js';

const scratch = useScratch('wsync-parallel-');
const ENV = { SECRET: 'parallel-secret-value' };

function monitors(first: number, count: number): string {
  return Array.from({ length: count }, (_, i) => monitorYaml(`m-${first + i}`, first + i)).join('---\n');
}

/** Every kind of file the worker could get wrong. */
const MIXED: Files = {
  'a/notifiers.yaml': notifierYaml('team-email'),
  'a/good-1.yaml': monitors(0, 5),
  'a/good-2.yaml': monitors(5, 5),
  'b/broken.yaml': 'apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: broken\n spec:\n  type: [\n',
  'b/schema-error.yaml': monitorYaml('bad-threshold', 1).replace('threshold: 1', 'threshold: "high"'),
  'b/anchors.yaml':
    'apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: anchored\nspec: &base\n  type: Threshold\n  aplQuery: "[\'app\'] | count"\n' +
    '  operator: Above\n  threshold: 3\n  intervalMinutes: 5\n  rangeMinutes: 10\n  notifiers: [team-email]\n---\n' +
    'apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: merged\nspec:\n  <<: *base\n  threshold: 4\n',
  'b/unused-anchor.yaml': monitorYaml('unused-anchor', 2).replace('type: Threshold', 'type: &t Threshold'),
  'c/secret.yaml': notifierYaml('hooked').replace('[oncall@example.com]', '["${env:SECRET}@example.com"]'),
  'c/duplicate-1.yaml': monitorYaml('twice', 1),
  'c/duplicate-2.yaml': monitorYaml('twice', 2),
  'c/lookalike.yaml': monitorYaml('cafe\u0301', 1),
  'c/lookalike-nfc.yaml': monitorYaml('caf\u00e9', 1),
  'd/no-newline.yaml': monitorYaml('no-newline', 3).trimEnd(),
  'd/bom.yaml': `\ufeff${monitorYaml('bom', 3)}`,
  'd/crlf.yaml': monitorYaml('crlf', 3).replace(/\n/g, '\r\n'),
  'd/annotated.yaml': monitorYaml('annotated', 3).replace('  name: annotated\n', '  name: annotated\n  annotations:\n    team: core\n'),
  'd/foreign.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n---\n# only a comment\n---\n',
  'd/empty.yaml': '',
  'd/not-utf8.yaml': new Uint8Array([0x6b, 0x69, 0x6e, 0x64, 0x3a, 0x20, 0xff, 0x0a]),
};

/** Every position of every resource, computed: the worker's documents compute theirs on the main thread. */
function withPositions(desired: Desired): unknown {
  return { ...desired, resources: desired.resources.map((r) => ({ ...r, locations: { ...r.locations } })) };
}

/** The read with one thread, and with the files shared as `assign` says; what came from the worker. */
async function bothWays(dir: string, parallel: ParallelOptions, options: ReadOptions = {}): Promise<{ one: Desired; shared: Desired; fromWorker: string[] }> {
  const one = await readDesired(dir, { env: ENV, ...options, parallel: false });
  const fromWorker: string[] = [];
  const shared = await readDesired(dir, { env: ENV, ...options, parallel: { minFiles: 1, minBytes: 0, fromWorker: (path) => fromWorker.push(path), ...parallel } });
  return { one, shared, fromWorker };
}

function expectSame(shared: Desired, one: Desired): void {
  expect(withPositions(shared)).toEqual(withPositions(one));
  // Key order and all: what any output prints is the same too.
  expect(JSON.stringify(withPositions(shared))).toBe(JSON.stringify(withPositions(one)));
}

describe('a read shared with a worker thread', () => {
  it('gives what one thread gives, for every kind of file, whichever thread takes it', async () => {
    const dir = scratch.tree(MIXED);
    const paths = Object.keys(MIXED).sort();
    for (const parity of [0, 1]) {
      const { one, shared, fromWorker } = await bothWays(dir, { assign: (path) => (paths.indexOf(path) % 2 === parity ? 'worker' : 'main') });
      expectSame(shared, one);
      expect(one.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['yaml-syntax', 'duplicate-key-declared']));
      // The worker made the results of the files given to it, but for the one holding `${` and the one not UTF-8.
      const given = paths.filter((path, i) => i % 2 === parity && !['c/secret.yaml', 'd/not-utf8.yaml'].includes(path));
      expect(fromWorker.sort()).toEqual(given);
    }
  });

  it('gives what one thread gives on random trees split at random between the threads', async () => {
    const names = ['a', 'b', 'c'];
    const snippets = [
      ...names.map((name, i) => monitorYaml(name, i)),
      MIXED['b/broken.yaml'] as string,
      MIXED['b/schema-error.yaml'] as string,
      MIXED['b/anchors.yaml'] as string,
      MIXED['d/foreign.yaml'] as string,
      monitorYaml('c', 9).trimEnd(),
      notifierYaml('team-email'),
    ];
    const file = fc.array(fc.constantFrom(...snippets), { minLength: 1, maxLength: 3 }).map((docs) => docs.join('\n---\n'));
    const tree = fc.array(fc.tuple(file, fc.boolean()), { minLength: 2, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(tree, async (files) => {
        const dir = scratch.tree(Object.fromEntries(files.map(([text], i) => [`f-${i}.yaml`, text])));
        const toWorker = new Set(files.flatMap(([, worker], i) => (worker ? [`f-${i}.yaml`] : [])));
        const { one, shared, fromWorker } = await bothWays(dir, { assign: (path) => (toWorker.has(path) ? 'worker' : 'main') });
        expectSame(shared, one);
        expect(fromWorker.sort()).toEqual([...toWorker].sort());
      }),
      { numRuns: 5 },
    );
  });

  it('leaves files with ${ to the main thread: the worker resolves no secret', async () => {
    const dir = scratch.tree(MIXED);
    const { one, shared, fromWorker } = await bothWays(dir, { assign: () => 'worker' });
    expectSame(shared, one);
    expect(fromWorker).not.toContain('c/secret.yaml');
    const hooked = shared.resources.find((r) => r.name === 'hooked');
    expect(JSON.stringify(hooked?.spec)).toContain('parallel-secret-value@example.com');
    expect(hooked?.interpolated.length).toBeGreaterThan(0);
  });

  it('stops at the same file with the same error when a limit is passed, whoever read past it', async () => {
    const files: Files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`m-${String(i).padStart(2, '0')}.yaml`, monitors(i * 5, 5)]));
    const dir = scratch.tree(files);
    for (const limits of [{ maxResources: 23 }, { maxBytes: 3000 }]) {
      const { one, shared, fromWorker } = await bothWays(dir, { assign: () => 'worker' }, { limits });
      expectSame(shared, one);
      expect(one.diagnostics.some((d) => d.code === 'limit')).toBe(true);
      expect(fromWorker.length).toBeGreaterThan(0);
    }
  });

  it('claims files as the threads go and still gives the files in order', async () => {
    const files: Files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`m-${String(i).padStart(2, '0')}.yaml`, monitors(i * 20, 20)]));
    const dir = scratch.tree(files);
    const { one, shared } = await bothWays(dir, {});
    expectSame(shared, one);
  });

  it('reads alone when the worker fails: the same result, nothing from the worker', async () => {
    const dir = scratch.tree(MIXED);
    // A heap of 1 MiB: the worker runs out of memory while it starts.
    const { one, shared, fromWorker } = await bothWays(dir, { assign: () => 'worker', heapMb: 1 });
    expectSame(shared, one);
    expect(fromWorker).toEqual([]);
  });

  it('takes the rest itself when the worker runs out of memory half-way', async () => {
    // The worker takes the small files (the last ones) first, then runs out of its heap on the large one (~0.9 MB: within
    // what it takes, 1 MiB).
    const files: Files = { 'a-large.yaml': monitors(0, 3_500), ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`z-${i}.yaml`, monitors(20_000 + i * 5, 5)])) };
    const dir = scratch.tree(files);
    const limits = { maxBytes: 64 * 1024 * 1024, maxResources: 100_000 };
    const { one, shared, fromWorker } = await bothWays(dir, { assign: () => 'worker', heapMb: 14 }, { limits });
    expectSame(shared, one);
    // Its results before it failed are taken; the file it failed on, and any after it, the main thread makes.
    expect(fromWorker).toContain('z-3.yaml');
    expect(fromWorker).not.toContain('a-large.yaml');
  });

  it('is the same for wsync validate PATH... (readDesiredPaths)', async () => {
    const dir = scratch.tree(MIXED);
    const paths = [{ path: join(dir, 'a') }, { path: join(dir, 'b') }, { path: join(dir, 'c', 'duplicate-1.yaml') }];
    const one = await readDesiredPaths(paths, { root: dir, env: ENV, parallel: false });
    const fromWorker: string[] = [];
    const shared = await readDesiredPaths(paths, { root: dir, env: ENV, parallel: { minFiles: 1, minBytes: 0, assign: () => 'worker', fromWorker: (p) => fromWorker.push(p) } });
    expectSame(shared, one);
    expect(fromWorker).toContain('c/duplicate-1.yaml');
  });

  it("starts no worker for a read the daemon's file cache serves (an edit of one file)", async () => {
    const files: Files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`m-${i}.yaml`, monitors(i * 5, 5)]));
    const dir = scratch.tree(files);
    const cache = new FileCache();
    const fromWorker: string[] = [];
    const parallel: ParallelOptions = { minFiles: 1, minBytes: 0, assign: () => 'worker', fromWorker: (path) => fromWorker.push(path) };
    await readDesired(dir, { env: ENV, cache, parallel });
    expect(fromWorker).toHaveLength(6);
    writeFileSync(join(dir, 'm-2.yaml'), monitors(100, 5));
    const edited = await readDesired(dir, { env: ENV, cache, parallel });
    expect(fromWorker).toHaveLength(6);
    expect(cache.misses).toBe(1);
    expectSame(edited, await readDesired(dir, { env: ENV, parallel: false }));
  });
});
