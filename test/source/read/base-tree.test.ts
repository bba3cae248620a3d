// The base of a change read from git (`plan --base REV`): what DIR declared at REV, with the JSON
// documents its dashboards name, read in process from a repository made in a temp dir.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGitBase } from '../../../src/source/read/base-tree.js';
import { EXAMPLES_DIR } from '../../support/paths.js';
import { useScratch, writeTree } from '../../support/tree.js';

const scratch = useScratch('wsync-base-tree-');

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'ignore' });
}

describe('readGitBase', () => {
  it("carries the base's dashboard document files: no 'no such file', the document as committed", async () => {
    const repo = await scratch.dir();
    const dir = join(repo, 'workspace');
    await mkdir(dir);
    const dashboard = readFileSync(join(EXAMPLES_DIR, 'dashboards', 'checkout.yaml'), 'utf8');
    const document = readFileSync(join(EXAMPLES_DIR, 'dashboards', 'checkout.json'), 'utf8');
    await writeTree(dir, { 'dashboards/checkout.yaml': dashboard, 'dashboards/checkout.json': document });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'base');
    // The change removes the dashboard, JSON and all: the base still has both.
    await rm(join(dir, 'dashboards'), { recursive: true });

    const base = await readGitBase(dir, 'main');
    expect(base.diagnostics).toEqual([]);
    expect(base.resources.map((r) => `${r.kind}/${r.name}`)).toEqual(['Dashboard/checkout-overview']);
    expect(JSON.stringify(base.resources[0]?.spec)).toContain((JSON.parse(document) as { name: string }).name);
  });
});
