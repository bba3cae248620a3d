// Renames and owned objects no longer declared (#27 item 5), end to end: the real CLI in process
// against the emulator.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';
import { idOf, readInventory } from '../support/workspace.js';
import { MONITOR_DATASETS, monitorYaml, notifierYaml } from '../support/yaml.js';

const scratch = useScratch('wsync-renames-');

async function setUp(files: Record<string, string>) {
  const emulator = await startTestEmulator();
  onTestFinished(() => emulator.close());
  await emulator.seed(MONITOR_DATASETS);
  const dir = join(await scratch.dir(), 'tree');
  await writeTree(dir, files);
  const first = await runCli(['apply', dir], { env: emulator.env });
  expect(first.code, first.stdout + first.stderr).toBe(0);
  return { dir, env: emulator.env, emulator };
}

/** The notifier file under another name, annotated with what it was called. */
function renamedNotifier(name: string, from?: string): string {
  const text = notifierYaml(name);
  return from === undefined ? text : text.replace(`  name: ${name}\n`, `  name: ${name}\n  annotations:\n    wsync/renamed-from: ${from}\n`);
}

describe('an owned object no longer declared', () => {
  it('is in every plan format, kept without --prune', async () => {
    const { dir, env } = await setUp({ 'a.yaml': notifierYaml('team-email'), 'b.yaml': notifierYaml('old-email') });
    await rm(join(dir, 'b.yaml'));
    const text = await runCli(['plan', dir, '--detailed-exitcode'], { env });
    // Nothing to write: the plan is settled all the same (--detailed-exitcode 0), and says what it keeps.
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\? skipped +Notifier\/old-email \(id \S+\)\n +# no longer declared: kept, --prune deletes it\n/);
    const json = JSON.parse((await runCli(['plan', dir, '--format', 'json'], { env })).stdout) as { changes: { key: string; action: string; reason: string; owned: boolean }[] };
    expect(json.changes.filter((c) => c.action !== 'noop')).toEqual([expect.objectContaining({ key: 'old-email', action: 'skipped', owned: true, reason: 'no longer declared: kept, --prune deletes it' })]);
    const markdown = (await runCli(['plan', dir, '--format', 'markdown'], { env })).stdout;
    expect(markdown).toContain('#### No longer declared (1)');
    expect(markdown).toContain('**skipped** `Notifier/old-email`');
    expect(markdown).not.toContain('Deletes');
  });
});

describe('a rename', () => {
  it('plans "renamed?", and with wsync/renamed-from renames in place: one PUT, the same id, the inventory moved', async () => {
    const { dir, env, emulator } = await setUp({ 'notifiers.yaml': notifierYaml('old-email'), 'monitors.yaml': monitorYaml('errors', 10, 'old-email') });
    const id = idOf(await emulator.state(), 'notifiers', 'old-email');
    await writeFile(join(dir, 'notifiers.yaml'), renamedNotifier('team-email'));
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('errors', 10, 'team-email'));

    const suggested = await runCli(['plan', dir], { env });
    expect(suggested.stdout).toContain(`renamed? Notifier/old-email (id ${id}), owned and no longer declared, has the same fields`);
    expect(suggested.stdout).toContain('annotate this declaration "wsync/renamed-from: old-email"');
    expect(suggested.stdout).toContain('renamed? Notifier/team-email is declared with the same fields');

    await writeFile(join(dir, 'notifiers.yaml'), renamedNotifier('team-email', 'old-email'));
    const planned = await runCli(['plan', dir], { env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(`~ update  Notifier/team-email (id ${id})`);
    expect(planned.stdout).toContain('renamed from "old-email" in place (wsync/renamed-from)');
    expect(planned.stdout).toContain('metadata.name: "old-email" -> "team-email"');
    // The monitor's reference reads the new name (the same id is sent).
    expect(planned.stdout).toContain('Plan: 0 to create, 2 to update, 0 to delete, 0 to adopt.');

    await emulator.clearRequests();
    const applied = await runCli(['apply', dir, '--prune'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const writes = await emulator.writes();
    expect(writes.map((w) => `${w.method} ${w.path}`)).toContain(`PUT /v2/notifiers/${id}`);
    expect(writes.filter((w) => w.method !== 'PUT')).toEqual([]);
    const state = await emulator.state();
    expect(idOf(state, 'notifiers', 'team-email')).toBe(id);
    expect((state.notifiers ?? []).map((n) => n.name)).toEqual(['team-email']);
    expect(state.monitors?.find((m) => m.name === 'errors')?.notifierIds).toEqual([id]);
    const inventory = await readInventory(join(dir, '.wsync'));
    expect(inventory.entries.filter((e) => e.kind === 'Notifier')).toEqual([expect.objectContaining({ key: 'team-email', id })]);

    // Done: the annotation may stay, and the plan settles.
    const again = await runCli(['plan', dir, '--prune', '--detailed-exitcode'], { env });
    expect(again.code, again.stdout).toBe(0);
  });

  it('a wsync/renamed-from naming nothing owned is an error at its line, nothing written', async () => {
    const { dir, env, emulator } = await setUp({ 'notifiers.yaml': notifierYaml('team-email') });
    await writeFile(join(dir, 'more.yaml'), renamedNotifier('pager', 'nothing-here'));
    await emulator.clearRequests();
    const applied = await runCli(['apply', dir], { env });
    expect(applied.code).toBe(1);
    const text = applied.stdout + applied.stderr;
    expect(text).toContain('more.yaml:6:5: Notifier/pager: wsync/renamed-from');
    expect(text).toContain('wsync/renamed-from: "nothing-here" names no live Notifier: nothing to rename');
    expect(await emulator.writes()).toEqual([]);
    expect(await readFile(join(dir, 'more.yaml'), 'utf8')).toContain('wsync/renamed-from: nothing-here');
  });
});
