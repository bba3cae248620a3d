// Fail closed: anything doubtful stops apply before its first write.
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openState } from '../../src/state/index.js';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { removeDir, tempDir, writeTree } from '../support/tree.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { examplesWorkspace, liveObjects, type Workspace } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

let workspace: Workspace | undefined;
let emulator: TestEmulator | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await workspace?.dispose();
  await emulator?.close();
  if (scratch) await removeDir(scratch);
  workspace = undefined;
  emulator = undefined;
  scratch = undefined;
});

function notifier(name: string): string {
  return resource('Notifier', name, { properties: { email: { emails: [`${name}@example.com`] } } });
}

describe('apply safety', () => {
  it('writes nothing when one file is broken next to a valid tree', async () => {
    workspace = await examplesWorkspace({ extraFiles: { 'monitors/broken.yaml': 'apiVersion: wsync/v1\nkind: Monitor\nmetadata: {name: x}\nspec: {type: Threshold, threshold: [\n' } });
    const result = await workspace.apply();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('monitors/broken.yaml');
    expect(result.stderr).toContain('nothing was written');
    expect(await workspace.emulator.requests()).toEqual([]);
    expect(liveObjects(await workspace.emulator.state(), 'notifiers')).toEqual([]);
  });

  it('writes nothing when a reference cannot be resolved', async () => {
    workspace = await examplesWorkspace({
      extraFiles: {
        'monitors/dangling.yaml': resource('Monitor', 'dangling', {
          type: 'MatchEvent',
          aplQuery: "['checkout']",
          intervalMinutes: 1,
          rangeMinutes: 1,
          notifiers: ['no-such-notifier'],
        }),
      },
    });
    const result = await workspace.apply();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no-such-notifier');
    expect(await workspace.emulator.writes()).toEqual([]);
  });

  it('refuses to prune an emptied directory that has owned objects, unless --allow-empty', async () => {
    emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    scratch = await tempDir();
    const dir = join(scratch, 'tree');
    await writeTree(dir, { 'a.yaml': notifier('alpha'), 'b.yaml': notifier('beta') });
    const env = emulator.env;
    expect((await runCli(['apply', dir], { env: env })).code).toBe(0);
    await rm(join(dir, 'a.yaml'));
    await rm(join(dir, 'b.yaml'));
    expect(await readdir(dir)).toEqual(['.wsync']);
    await emulator.clearRequests();

    // Held, not failed: the rest of the plan (nothing here) is applied, exit 3 says "partially applied".
    const refused = await runCli(['apply', dir, '--prune'], { env: env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--allow-empty');
    expect(await emulator.writes()).toEqual([]);

    const allowed = await runCli(['apply', dir, '--prune', '--allow-empty', '--force-deletes'], { env: env });
    expect(allowed.code).toBe(0);
    expect((await emulator.writes()).map((w) => w.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('holds every delete of a plan over the delete budget, and lets it through with --force-deletes', async () => {
    emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    scratch = await tempDir();
    const dir = join(scratch, 'tree');
    const names = Array.from({ length: 14 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    await writeTree(dir, Object.fromEntries(names.map((n) => [`${n}.yaml`, notifier(n)])));
    const env = emulator.env;
    expect((await runCli(['apply', dir], { env: env })).code).toBe(0);
    for (const n of names.slice(0, 12)) await rm(join(dir, `${n}.yaml`));
    await emulator.clearRequests();

    // Held, not failed: the rest of the plan (nothing here) is applied, exit 3 says "partially applied".
    const refused = await runCli(['apply', dir, '--prune'], { env: env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--max-deletes 10');
    expect(refused.stderr).toContain('--force-deletes');
    expect(await emulator.writes()).toEqual([]);

    // The ratio alone refuses too: 2 of 14 is within --max-deletes but over a ratio of 0.1.
    await writeTree(dir, Object.fromEntries(names.slice(0, 10).map((n) => [`${n}.yaml`, notifier(n)])));
    const ratio = await runCli(['apply', dir, '--prune', '--max-delete-ratio', '0.1'], { env: env });
    expect(ratio.code).toBe(3);
    expect(ratio.stderr).toContain('--max-delete-ratio 0.1');
    expect(await emulator.writes()).toEqual([]);

    for (const n of names.slice(0, 10)) await rm(join(dir, `${n}.yaml`));
    const forced = await runCli(['apply', dir, '--prune', '--force-deletes'], { env: env });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('12 deleted');
    expect((await emulator.writes()).filter((w) => w.method === 'DELETE')).toHaveLength(12);
    // Made by concurrent creates: the order they were stored in is not the order of the names.
    expect(liveObjects(await emulator.state(), 'notifiers').map((n) => String(n.name)).sort()).toEqual(['n12', 'n13']);
  });

  it('refuses to run while another process holds the state directory, naming its pid', async () => {
    workspace = await examplesWorkspace();
    const held = await openState(workspace.stateDir, { lock: true });
    try {
      const result = await workspace.apply();
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`is locked by pid ${process.pid} \\(started [^)]+\\); another apply is running`));
      expect(await workspace.emulator.writes()).toEqual([]);
    } finally {
      await held.close();
    }
    const after = await workspace.apply();
    expect(after.code).toBe(0);
  });

  it('names a corrupt inventory file and writes nothing', async () => {
    workspace = await examplesWorkspace();
    await writeTree(workspace.stateDir, { 'inventory.json': '{"version": 1, "entries": [{"kind": "Notifier"' });
    const result = await workspace.apply();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(join(workspace.stateDir, 'inventory.json'));
    expect(await workspace.emulator.writes()).toEqual([]);
    await writeFile(join(workspace.stateDir, 'inventory.json'), '{"version": 1, "entries": []}');
    expect((await workspace.apply()).code).toBe(0);
  });
});
