// `wsync apply` as a process: the lock between two of them, and SIGTERM between writes.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli } from '../../support/cli.js';
import { waitUntil } from '../../support/wait.js';
import { examplesWorkspace, type Workspace } from '../../support/workspace.js';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

describe('wsync apply, a process', () => {
  it('lets only one apply run on a state directory; the second names the holder pid', async () => {
    workspace = await examplesWorkspace();
    await workspace.emulator.faults({ latencyMs: [300, 300] });
    const first = spawnCli(['apply', workspace.tree], { env: workspace.env });
    const pid = String(first.child.pid);
    const lockFile = join(workspace.stateDir, 'lock');
    await waitUntil(async () => (await readFile(lockFile, 'utf8').catch(() => '')).includes(pid), { intervalMs: 10, what: 'the lock of the first apply' });
    const second = await workspace.apply();
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`state directory .*\\.wsync is locked by pid ${pid} \\(started [^)]+\\); another apply is running`));
    await workspace.emulator.faults({ latencyMs: null });
    const firstResult = await first.done;
    expect(firstResult.code, firstResult.stderr).toBe(0);
  });

  it('stops between writes on SIGTERM: what ran is recorded, nothing new starts, the lock is released', async () => {
    workspace = await examplesWorkspace();
    await workspace.emulator.faults({ latencyMs: [60, 60] });
    const apply = spawnCli(['apply', workspace.tree, '--concurrency', '1'], { env: workspace.env });
    await waitUntil(async () => (await workspace!.emulator.writes()).length > 0, { intervalMs: 10, what: 'the first write' });
    apply.child.kill('SIGTERM');
    const result = await apply.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SIGTERM: finishing the writes in flight');
    expect(result.stdout).toMatch(/Apply stopped: \d+ created/);
    expect(result.stdout).toContain('not started: apply was stopped');
    await expect(stat(join(workspace.stateDir, 'lock'))).rejects.toThrow(/ENOENT/);
    await workspace.emulator.faults({ latencyMs: null });
    // Everything that was written is owned: the next run creates the rest and adopts nothing.
    const next = await workspace.apply();
    expect(next.code).toBe(0);
    expect(next.stdout).toMatch(/Apply complete: \d+ created, \d+ updated, 0 deleted, \d+ adopted, 0 failed/);
    // Only the datasets, which exist before any apply (made by ingest), may be adopted.
    expect(next.stdout.split('\n').filter((line) => line.includes(': adopted') && !line.startsWith('Dataset/'))).toEqual([]);
  });
});
