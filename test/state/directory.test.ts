// The state directory: private, ignored by git, warned about when git would commit it, and left
// behind only by a command that wrote something.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePrivateDir, stateDirGitExposure } from '../../src/state/directory.js';
import { openState } from '../../src/state/index.js';
import { removeDir, tempDir } from '../support/tree.js';

let root: string;

beforeEach(async () => {
  root = await tempDir('wsync-statedir-');
});
afterEach(async () => {
  await removeDir(root);
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
}

describe('makePrivateDir', () => {
  it('makes the directory 0700 whatever the umask, with a .gitignore of *', async () => {
    const dir = join(root, 'a', 'b', '.wsync');
    const old = process.umask(0o022);
    try {
      const made = await makePrivateDir(dir);
      expect(made.createdFrom).toBe(join(root, 'a'));
    } finally {
      process.umask(old);
    }
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const ignore = await readFile(join(dir, '.gitignore'), 'utf8');
    expect(ignore.split('\n')).toContain('*');
  });

  it('leaves an existing directory as it is', async () => {
    const dir = join(root, 'kept');
    await mkdir(dir, { mode: 0o755 });
    expect((await makePrivateDir(dir)).createdFrom).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('openState leaves nothing behind when nothing is written', () => {
  it('a state directory it made (and the parents it made) go again when nothing was recorded', async () => {
    const dir = join(root, 'deep', '.wsync');
    const state = await openState(dir, { lock: true });
    expect(existsSync(join(dir, 'lock'))).toBe(true);
    expect(existsSync(join(dir, 'hash.key'))).toBe(false);
    expect(existsSync(join(dir, 'writer-id'))).toBe(false);
    await state.close();
    expect(existsSync(join(root, 'deep'))).toBe(false);
    expect(await readdir(root)).toEqual([]);
  });

  it('keeps the directory once a record is written: hash key, writer id and inventory, all 0600', async () => {
    const dir = join(root, '.wsync');
    const state = await openState(dir, { lock: true });
    await state.record({ kind: 'Org', key: 'acme', id: 'org_1' });
    await state.close();
    expect((await readdir(dir)).sort()).toEqual(['.gitignore', 'hash.key', 'inventory.json', 'writer-id']);
    for (const file of ['hash.key', 'inventory.json', 'writer-id']) expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('prepareWrites puts the hash key and writer id on disk (before the writer lease names the id), once', async () => {
    const dir = join(root, '.wsync');
    const state = await openState(dir, { lock: true });
    await state.prepareWrites();
    expect((await readFile(join(dir, 'writer-id'), 'utf8')).trim()).toBe(state.writerId);
    expect((await readFile(join(dir, 'hash.key'), 'utf8')).trim()).toBe(state.inventory.hashKey);
    await state.prepareWrites();
    await state.close();
    // Reopened: the same ids, read back rather than made anew.
    const again = await openState(dir, { lock: true });
    expect(again.writerId).toBe(state.writerId);
    expect(again.inventory.hashKey).toBe(state.inventory.hashKey);
    await again.close();
    expect(existsSync(dir)).toBe(true);
  });

  it('gives an older state directory (made before wsync wrote a .gitignore) its .gitignore', async () => {
    const dir = join(root, '.wsync');
    await mkdir(dir);
    await writeFile(join(dir, 'inventory.json'), '{"version":1,"entries":[]}\n');
    const state = await openState(dir, { lock: true });
    await state.close();
    expect((await readFile(join(dir, '.gitignore'), 'utf8')).split('\n')).toContain('*');
    expect(existsSync(join(dir, 'inventory.json'))).toBe(true);
  });
});

describe('the state directory in a git work tree', () => {
  it('one it made is ignored by git: no warning, and git status shows nothing of it', async () => {
    git(root, 'init', '-q');
    const warnings: string[] = [];
    const state = await openState(join(root, '.wsync'), { lock: true, warn: (m) => warnings.push(m) });
    await state.record({ kind: 'Org', key: 'acme', id: 'org_1' });
    await state.close();
    expect(warnings).toEqual([]);
    expect(git(root, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('files git already tracks: a warning naming them and the fix, given once per directory', async () => {
    git(root, 'init', '-q');
    const dir = join(root, 'state-old');
    await mkdir(dir);
    await writeFile(join(dir, 'hash.key'), `${'a'.repeat(64)}\n`);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'oops');
    const warnings: string[] = [];
    for (let i = 0; i < 2; i++) {
      const state = await openState(dir, { lock: true, warn: (m) => warnings.push(m) });
      await state.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/state directory .*state-old is inside a git work tree and git already tracks 1 file of it \(hash\.key\)/);
    expect(warnings[0]).toContain('git rm -r --cached state-old');
    expect(warnings[0]).toContain('never commit it');
  });

  it('a directory git does not ignore is named with the rule to add; outside a work tree there is nothing to say', async () => {
    const outside = join(root, 'plain');
    await mkdir(outside);
    expect(await stateDirGitExposure(outside)).toBeUndefined();

    const repo = join(root, 'repo');
    await mkdir(join(repo, 'ops', 'state'), { recursive: true });
    git(repo, 'init', '-q');
    expect(await stateDirGitExposure(join(repo, 'ops', 'state'))).toMatch(/git does not ignore it: add ops\/state\/ to .*\.gitignore/);
    await writeFile(join(repo, '.gitignore'), 'ops/state/\n');
    expect(await stateDirGitExposure(join(repo, 'ops', 'state'))).toBeUndefined();
  });

  it('opened without the lock (a reader), an existing directory gets nothing added', async () => {
    const dir = join(root, 'existing');
    await mkdir(dir);
    const state = await openState(dir, { lock: false });
    await state.close();
    expect(await readdir(dir)).toEqual([]);
  });
});
