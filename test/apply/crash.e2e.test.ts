// Crash: an apply process killed with SIGKILL in the middle of its writes. The next apply takes
// over the stale lock, adopts what the dead one created but could not record, and converges with
// no duplicates and an inventory that matches the workspace.
import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { removeDir, tempDir, writeTree } from '../support/tree.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { duplicates, liveObjects, readInventory } from '../support/workspace.js';
import { waitUntil } from '../support/wait.js';
import { resource } from '../support/yaml.js';

const NOTIFIERS = Array.from({ length: 8 }, (_, i) => `crash-notifier-${i}`);
const MONITORS = Array.from({ length: 8 }, (_, i) => `crash-monitor-${i}`);

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of NOTIFIERS) files[`notifiers/${name}.yaml`] = resource('Notifier', name, { properties: { email: { emails: [`${name}@example.com`] } } });
  MONITORS.forEach((name, i) => {
    files[`monitors/${name}.yaml`] = resource('Monitor', name, {
      type: 'MatchEvent',
      aplQuery: "['checkout'] | where status >= 500",
      intervalMinutes: 1,
      rangeMinutes: 1,
      notifiers: [NOTIFIERS[i % NOTIFIERS.length]],
    });
  });
  files['access/token.yaml'] = resource('ApiToken', 'crash-token', { orgCapabilities: { annotations: ['create'] } });
  return files;
}

/** The pid of a process that has exited. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve(child.pid ?? 0)));
}

let emulator: TestEmulator | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await emulator?.close();
  if (scratch) await removeDir(scratch);
  emulator = undefined;
  scratch = undefined;
});

/** Starts apply with latency on every request and kills it once `writes` writes reached the server. */
async function killMidway(emu: TestEmulator, args: string[], writes: number): Promise<void> {
  await emu.faults({ latencyMs: [40, 60] });
  await emu.clearRequests();
  const apply = spawnCli(args, { env: emu.env });
  await waitUntil(
    async () => {
      if (apply.child.exitCode !== null) throw new Error(`apply ended before ${writes} writes: ${JSON.stringify(await apply.done)}`);
      return (await emu.writes()).length >= writes;
    },
    { timeoutMs: 30_000, intervalMs: 10, what: `${writes} writes` },
  );
  apply.child.kill('SIGKILL');
  const result = await apply.done;
  expect(result.signal).toBe('SIGKILL');
  await emu.faults({ latencyMs: null });
}

describe('apply killed mid-way', () => {
  it('converges on the next run: stale lock taken over, no duplicates, inventory consistent', async () => {
    emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    scratch = await tempDir('wsync-crash-');
    const dir = join(scratch, 'tree');
    const stateDir = join(scratch, 'state');
    await writeTree(dir, tree());
    const args = ['apply', dir, '--state-dir', stateDir, '--concurrency', '2'];

    await killMidway(emulator, args, 1);
    // The dead process's lock is still there.
    const lock = JSON.parse(await readFile(join(stateDir, 'lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBeGreaterThan(0);

    // Once more, killed later, so the inventory holds some entries and the workspace more objects.
    await killMidway(emulator, args, 6);

    await emulator.clearRequests();
    const recovered = await runCli(args, { env: emulator.env });
    expect(recovered.code, recovered.stdout + recovered.stderr).toBe(0);
    expect(recovered.stderr).toContain('took over the lock of pid');
    await expect(stat(join(stateDir, 'lock'))).rejects.toThrow(/ENOENT/);

    const state = await emulator.state();
    expect(duplicates(state)).toEqual([]);
    expect(liveObjects(state, 'notifiers').map((n) => n.name).sort()).toEqual([...NOTIFIERS].sort());
    expect(liveObjects(state, 'monitors').map((m) => m.name).sort()).toEqual([...MONITORS].sort());

    // Every declared object is owned under its live id, and nothing else is in the inventory.
    const inventory = await readInventory(stateDir);
    const live = [...liveObjects(state, 'notifiers'), ...liveObjects(state, 'monitors'), ...liveObjects(state, 'tokens')];
    expect(inventory.entries.map((e) => `${e.key}=${e.id}`).sort()).toEqual(live.map((o) => `${String(o.name)}=${String(o.id)}`).sort());
    const token = liveObjects(state, 'tokens')[0];
    expect((await readFile(join(stateDir, 'tokens', 'crash-token'), 'utf8')).trim()).toBe(token?.token);

    await emulator.clearRequests();
    const again = await runCli(args, { env: emulator.env });
    expect(again.code).toBe(0);
    expect(await emulator.writes()).toEqual([]);
  });

  it('adopts what a dead apply created but had not recorded yet (the window between a write and its record)', async () => {
    emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    scratch = await tempDir('wsync-crash-');
    const dir = join(scratch, 'tree');
    const stateDir = join(scratch, 'state');
    await writeTree(dir, tree());
    // What a process killed right after the server answered its first POST leaves behind: the object
    // live, no inventory entry, and its lock.
    await emulator.seed({ notifiers: [{ name: NOTIFIERS[0], properties: { email: { emails: [`${NOTIFIERS[0]}@example.com`] } } }] });
    const orphan = liveObjects(await emulator.state(), 'notifiers')[0];
    await writeTree(stateDir, {
      lock: JSON.stringify({ pid: await deadPid(), hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }),
    });

    const result = await runCli(['apply', dir, '--state-dir', stateDir], { env: emulator.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Notifier/${NOTIFIERS[0]}: adopted ${String(orphan?.id)}`);
    expect(result.stdout).toContain(`Apply complete: ${NOTIFIERS.length - 1 + MONITORS.length + 1} created, 0 updated, 0 deleted, 1 adopted`);
    expect(result.stderr).toContain('took over the lock of pid');
    const state = await emulator.state();
    expect(duplicates(state)).toEqual([]);
    expect((await readInventory(stateDir)).entries).toContainEqual({ kind: 'Notifier', key: NOTIFIERS[0], id: orphan?.id });
  });
});
