// git-sync publishes a commit by swapping a link and removes the old worktree at once: a reconcile
// reading the old worktree then must never prune what the missing files declare (issue #30).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { useInProcessDaemons } from '../support/daemon.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-swap-');
const startDaemon = useInProcessDaemons(emulator);

const FOLDERS = 30;
const PADDING_PER_FOLDER = 50;
const ROUNDS = 16;

/**
 * Every commit declares the same notifiers, one per folder. Each folder also holds links to its
 * notifier file under names that are not read: each costs the listing a stat and a realpath, which
 * widens the window in which a folder can vanish while the tree is listed.
 */
function commitFiles(): { path: string; text?: string; linkTo?: string }[] {
  const files: { path: string; text?: string; linkTo?: string }[] = [];
  for (let f = 0; f < FOLDERS; f++) {
    const folder = `team-${String(f).padStart(2, '0')}`;
    files.push({ path: `${folder}/notifier.yaml`, text: notifierYaml(`swap-${folder}`) });
    for (let p = 0; p < PADDING_PER_FOLDER; p++) files.push({ path: `${folder}/pad-${p}.txt`, linkTo: 'notifier.yaml' });
  }
  return files;
}

/**
 * git-sync v4 in a thread of its own, so that it runs while the daemon reads: the `current` link
 * renamed over to the next worktree (fetched beforehand), then the old worktree removed at once.
 * The pause before the next swap varies, so that the removal meets a read at every point of it.
 */
const GIT_SYNC = `
const { symlinkSync, renameSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const { root, revisions, pausesMs } = workerData;
const pause = new Int32Array(new SharedArrayBuffer(4));
for (let i = 1; i < revisions.length; i++) {
  symlinkSync(join('.worktrees', revisions[i]), join(root, '.current.tmp'));
  renameSync(join(root, '.current.tmp'), join(root, 'current'));
  rmSync(join(root, '.worktrees', revisions[i - 1]), { recursive: true, force: true });
  Atomics.wait(pause, 0, 0, pausesMs[i % pausesMs.length]);
}
parentPort.postMessage('done');
`;

function revisionName(round: number): string {
  return `rev${String(round).padStart(4, '0')}`;
}

/** The worktrees of every round, as git-sync fetches them before each swap; the link on the first. */
function prepareWorktrees(root: string, rounds: number): string[] {
  const files = commitFiles();
  const revisions: string[] = [];
  for (let round = 0; round <= rounds; round++) {
    const revision = revisionName(round);
    for (const file of files) {
      const path = join(root, '.worktrees', revision, file.path);
      mkdirSync(dirname(path), { recursive: true });
      if (file.linkTo !== undefined) symlinkSync(file.linkTo, path);
      else writeFileSync(path, file.text ?? '');
    }
    revisions.push(revision);
  }
  symlinkSync(join('.worktrees', revisions[0] ?? ''), join(root, 'current'));
  return revisions;
}

describe('the daemon under git-sync swaps that remove the old worktree at once', () => {
  it(`never deletes: ${ROUNDS} swaps of ${FOLDERS * (PADDING_PER_FOLDER + 1)} files while reconciles run, prune on, every budget open`, async () => {
    const root = await scratch.dir();
    const revisions = prepareWorktrees(root, ROUNDS);
    const { lines, waitFor } = await startDaemon({
      dir: join(root, 'current'),
      stateDir: join(root, '.wsync'),
      // Prune on, and nothing that would refuse a large delete: only the read can stop one.
      policy: { ...DEFAULT_POLICY, prune: true, maxDeletes: 1_000_000, maxDeleteRatio: 1, allowOverBudget: true, allowEmpty: true },
    });
    await waitFor((l) => l.msg === 'reconcile' && l.result === 'applied');
    expect((await emulator.state()).notifiers?.filter((n) => String(n.name).startsWith('swap-'))).toHaveLength(FOLDERS);
    await emulator.clearRequests();

    const gitSync = new Worker(GIT_SYNC, { eval: true, workerData: { root, revisions, pausesMs: [0, 5, 10, 20, 30, 45, 60, 90] } });
    await new Promise<void>((resolve, reject) => {
      gitSync.once('message', () => resolve());
      gitSync.once('error', reject);
    });
    await gitSync.terminate();
    const last = revisionName(ROUNDS);
    await waitFor((l) => l.msg === 'reconcile' && l.revision === last && (l.result === 'applied' || l.result === 'planned'));

    const reconciles = lines.filter((l) => l.msg === 'reconcile');
    const story = reconciles.map((l) => `${l.revision}: ${l.result}`).join(', ');
    const writes = await emulator.writes();
    expect(writes.filter((w) => w.method === 'DELETE'), story).toEqual([]);
    expect(writes, story).toEqual([]);
    expect((await emulator.state()).notifiers?.filter((n) => String(n.name).startsWith('swap-'))).toHaveLength(FOLDERS);
    // The window was met: some reconciles read a worktree that was removed under them.
    expect(reconciles.filter((l) => l.result === 'superseded').length, story).toBeGreaterThan(0);
  }, 120_000);
});

