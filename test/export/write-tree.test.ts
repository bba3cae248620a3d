import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ExportTargetError, writeTree } from '../../src/export/write-tree.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-export-tree-');
let base: string;

beforeEach(async () => {
  base = await scratch.dir();
});

const files = [
  { path: 'monitors/a.yaml', content: 'a: 1\n' },
  { path: 'notifiers/b.yaml', content: 'b: 2\n' },
];

async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('writeTree', () => {
  it('creates a missing directory with the files and leaves nothing beside it', async () => {
    const out = join(base, 'nested', 'out');
    await writeTree(out, files, { force: false, folders: ['monitors', 'notifiers', 'roles'] });
    expect(await tree(out)).toEqual(['monitors/a.yaml', 'notifiers/b.yaml']);
    expect(await readFile(join(out, 'monitors/a.yaml'), 'utf8')).toBe('a: 1\n');
    // Folders of exported kinds exist even when empty; no staging directory is left behind.
    expect((await readdir(out)).sort()).toEqual(['monitors', 'notifiers', 'roles']);
    expect(await readdir(join(base, 'nested'))).toEqual(['out']);
  });

  it('writes into an existing empty directory', async () => {
    const out = join(base, 'out');
    await mkdir(out);
    await writeTree(out, files, { force: false, folders: ['monitors', 'notifiers'] });
    expect(await tree(out)).toEqual(['monitors/a.yaml', 'notifiers/b.yaml']);
  });

  it('refuses a non-empty directory without force, and changes nothing', async () => {
    const out = join(base, 'out');
    await mkdir(join(out, 'monitors'), { recursive: true });
    await writeFile(join(out, 'monitors/old.yaml'), 'old\n');
    await expect(writeTree(out, files, { force: false, folders: ['monitors', 'notifiers'] })).rejects.toThrow(ExportTargetError);
    await expect(writeTree(out, files, { force: false, folders: ['monitors', 'notifiers'] })).rejects.toThrow(/not empty; pass --force/);
    expect(await tree(out)).toEqual(['monitors/old.yaml']);
    expect(await readdir(base)).toEqual(['out']);
  });

  it('refuses a path that is a file', async () => {
    const out = join(base, 'file');
    await writeFile(out, 'x');
    await expect(writeTree(out, files, { force: true, folders: ['monitors'] })).rejects.toThrow(/not a directory/);
  });

  it('with force, replaces the exported folders whole and keeps everything else', async () => {
    const out = join(base, 'out');
    await mkdir(join(out, 'monitors'), { recursive: true });
    await mkdir(join(out, '.git'), { recursive: true });
    await mkdir(join(out, '.wsync'), { recursive: true });
    await mkdir(join(out, 'tokens'), { recursive: true });
    await writeFile(join(out, 'monitors/stale.yaml'), 'stale\n');
    await writeFile(join(out, '.git/HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(out, '.wsync/inventory.json'), '{}\n');
    await writeFile(join(out, 'tokens/keep.yaml'), 'keep\n');
    await writeFile(join(out, 'README.md'), '# mine\n');
    await writeTree(out, files, { force: true, folders: ['monitors', 'notifiers'] });
    expect(await tree(out)).toEqual(['.git/HEAD', '.wsync/inventory.json', 'README.md', 'monitors/a.yaml', 'notifiers/b.yaml', 'tokens/keep.yaml']);
    expect(await readdir(base)).toEqual(['out']);
  });

  it('refuses paths that leave the tree', async () => {
    const out = join(base, 'out');
    await expect(writeTree(out, [{ path: '../escape.yaml', content: 'x' }], { force: false, folders: [] })).rejects.toThrow(/outside/);
    expect(await readdir(base)).toEqual([]);
  });
});
