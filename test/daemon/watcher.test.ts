import { utimesSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Trigger } from '../../src/daemon/scheduler.js';
import { defaultStateDir, findLink, resolveSnapshot } from '../../src/daemon/snapshot.js';
import { DirWatcher } from '../../src/daemon/watcher.js';
import { useScratch } from '../support/tree.js';
import { quietPeriod, waitUntil } from '../support/wait.js';

const scratch = useScratch('wsync-watch-');
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const tempRoot = (): Promise<string> => scratch.dir();

/** git-sync's swap: a new link under a temporary name, renamed over the old one (atomic). */
async function swapLink(root: string, linkName: string, target: string): Promise<void> {
  const tmp = join(root, `.${linkName}.tmp`);
  await symlink(target, tmp);
  await rename(tmp, join(root, linkName));
}

const until = (condition: () => boolean): Promise<void> => waitUntil(condition, { timeoutMs: 3000 });

async function startWatcher(dir: string, ignore: string[] = []) {
  const triggers: Trigger[] = [];
  const errors: unknown[] = [];
  const watcher = new DirWatcher({ dir, ignore, onTrigger: (t) => triggers.push(t), onError: (e) => errors.push(e) });
  await watcher.start();
  cleanup.push(() => watcher.close());
  return { watcher, triggers, errors };
}

describe('snapshot', () => {
  it('reports the link target base name as the revision and reads the resolved path', async () => {
    const root = await tempRoot();
    await mkdir(join(root, 'rev-aaa', 'sub'), { recursive: true });
    await symlink('rev-aaa', join(root, 'current'));
    const snap = await resolveSnapshot(join(root, 'current'));
    expect(snap?.revision).toBe('rev-aaa');
    expect(snap?.target.endsWith('/rev-aaa')).toBe(true);
    expect(snap?.link).toBe(join(root, 'current'));
    // A sub-folder of the link: same revision, the sub-folder of the target.
    const sub = await resolveSnapshot(join(root, 'current', 'sub'));
    expect(sub?.revision).toBe('rev-aaa');
    expect(sub?.target.endsWith('/rev-aaa/sub')).toBe(true);
  });

  it('is null while DIR or the link target is missing, and a plain directory has no revision', async () => {
    const root = await tempRoot();
    expect(await resolveSnapshot(join(root, 'nope'))).toBeNull();
    await symlink('rev-missing', join(root, 'dangling'));
    expect(await resolveSnapshot(join(root, 'dangling'))).toBeNull();
    await writeFile(join(root, 'file.yaml'), '');
    expect(await resolveSnapshot(join(root, 'file.yaml'))).toBeNull();
    await mkdir(join(root, 'plain'));
    const plain = await resolveSnapshot(join(root, 'plain'));
    expect(plain).toMatchObject({ revision: null, link: null });
    expect(await findLink(join(root, 'plain'))).toBeNull();
  });

  it('keeps the default state directory outside a git-sync worktree', async () => {
    const root = await tempRoot();
    await mkdir(join(root, 'rev-1'));
    await symlink('rev-1', join(root, 'current'));
    await mkdir(join(root, 'plain'));
    expect(await defaultStateDir(join(root, 'current'))).toBe(join(root, '.wsync'));
    expect(await defaultStateDir(join(root, 'current', 'sub'))).toBe(join(root, '.wsync'));
    expect(await defaultStateDir(join(root, 'plain'))).toBe(join(root, 'plain', '.wsync'));
    expect(await defaultStateDir(join(root, 'later'))).toBe(join(root, '.wsync'));
  });
});

describe('DirWatcher', () => {
  it('reports an edit of a resource file under a plain directory, and ignores other files and ignored dirs', async () => {
    const root = await tempRoot();
    const dir = join(root, 'config');
    await mkdir(join(dir, '.wsync'), { recursive: true });
    await writeFile(join(dir, 'a.yaml'), 'x: 1\n');
    const { triggers } = await startWatcher(dir, [join(dir, '.wsync')]);
    await writeFile(join(dir, '.wsync', 'inventory.yaml'), 'x: 1\n');
    await writeFile(join(dir, 'notes.txt'), 'hello\n');
    await quietPeriod(300);
    expect(triggers).toEqual([]);
    await writeFile(join(dir, 'a.yaml'), 'x: 2\n');
    await until(() => triggers.length > 0);
    // Seen by chokidar and by the system's own event (see watcher.ts): one edit, one trigger.
    await quietPeriod(300);
    expect(triggers).toEqual(['change']);
    // The next edit is a trigger of its own.
    await writeFile(join(dir, 'a.yaml'), 'x: 3\n');
    await until(() => triggers.length > 1);
    await quietPeriod(300);
    expect(triggers).toEqual(['change', 'change']);
  });

  it('reports a rewrite that keeps the modification time (cp -p, tar, a restore)', async () => {
    const dir = await tempRoot();
    const file = join(dir, 'a.yaml');
    await writeFile(file, 'x: 1\n');
    // Written an hour ago, read since: the access time is after the modification time.
    const written = new Date(Date.now() - 3_600_000);
    const read = new Date(Date.now() - 60_000);
    utimesSync(file, read, written);
    const { triggers } = await startWatcher(dir);
    // What `cp -p` does, at once as far as the watcher can tell: new content, the old times back.
    writeFileSync(file, 'x: 2\n');
    utimesSync(file, read, written);
    await until(() => triggers.length > 0);
    await quietPeriod(300);
    expect(triggers).toEqual(['change']);
  });

  it('sees an atomic link swap once, watches the new target, and ignores the old one being deleted', async () => {
    const root = await tempRoot();
    await mkdir(join(root, 'rev-1'));
    await writeFile(join(root, 'rev-1', 'a.yaml'), 'x: 1\n');
    await symlink('rev-1', join(root, 'current'));
    const { watcher, triggers } = await startWatcher(join(root, 'current'));
    expect(watcher.snapshot?.revision).toBe('rev-1');

    // git-sync: check out the new worktree beside the old one (not watched: no trigger) ...
    await mkdir(join(root, 'rev-2'));
    await writeFile(join(root, 'rev-2', 'a.yaml'), 'x: 2\n');
    // ... swap the link, then delete the old worktree.
    await swapLink(root, 'current', 'rev-2');
    await until(() => triggers.length > 0);
    await rm(join(root, 'rev-1'), { recursive: true });
    await quietPeriod(400);
    expect(triggers).toEqual(['revision']);
    expect(watcher.snapshot?.revision).toBe('rev-2');

    // Edits now come from the new target. A new file may come as two events (added, then written:
    // seen on Node 22), each a 'change'; the scheduler's debounce makes them one reconcile.
    await writeFile(join(root, 'rev-2', 'b.yaml'), 'y: 1\n');
    await until(() => triggers.length > 1);
    await quietPeriod(400);
    expect(triggers[0]).toBe('revision');
    expect(new Set(triggers.slice(1))).toEqual(new Set(['change']));
  });

  it('notices DIR appearing after start', async () => {
    const root = await tempRoot();
    const { watcher, triggers } = await startWatcher(join(root, 'current'));
    expect(watcher.snapshot).toBeNull();
    await mkdir(join(root, 'rev-1'));
    await writeFile(join(root, 'rev-1', 'a.yaml'), 'x: 1\n');
    await swapLink(root, 'current', 'rev-1');
    await until(() => triggers.length > 0);
    expect(triggers).toEqual(['revision']);
    expect(watcher.snapshot?.target.endsWith('rev-1')).toBe(true);
  });

  it('does not trigger again for a swap a reconcile already adopted', async () => {
    const root = await tempRoot();
    await mkdir(join(root, 'rev-1'));
    await mkdir(join(root, 'rev-2'));
    await symlink('rev-1', join(root, 'current'));
    const { watcher, triggers } = await startWatcher(join(root, 'current'));
    await swapLink(root, 'current', 'rev-2');
    // A reconcile that happened to start right after the swap resolves and adopts it first.
    watcher.adopt(await resolveSnapshot(join(root, 'current')));
    await quietPeriod(400);
    expect(triggers).toEqual([]);
  });
});
