// The built worker (dist/source/parallel/worker-entry.js) starts and serves a read in a plain node
// process, as wsync runs: the in-process tests run the TypeScript sources through tsx instead.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../../support/paths.js';
import { useScratch } from '../../support/tree.js';
import { monitorYaml, notifierYaml } from '../../support/yaml.js';

const scratch = useScratch('wsync-dist-worker-');

const SCRIPT = `
const { readDesired } = await import(process.argv[1]);
const fromWorker = [];
const read = (parallel) => readDesired(process.argv[2], { env: {}, parallel });
const shared = await read({ minFiles: 1, minBytes: 0, assign: () => 'worker', fromWorker: (path) => fromWorker.push(path) });
const one = await read(false);
const same = JSON.stringify(shared) === JSON.stringify(one);
console.log(JSON.stringify({ fromWorker: fromWorker.sort(), same, resources: one.resources.length }));
`;

describe('the built worker', () => {
  it('runs from dist/ and gives what one thread gives', () => {
    assertBuilt();
    const dir = scratch.tree({ 'a.yaml': notifierYaml('team-email'), 'b.yaml': monitorYaml('m', 1), 'c.yaml': monitorYaml('n', 2) });
    const entry = pathToFileURL(join(ROOT, 'dist', 'source', 'index.js')).href;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT, entry, dir], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ fromWorker: ['a.yaml', 'b.yaml', 'c.yaml'], same: true, resources: 3 });
  });
});
