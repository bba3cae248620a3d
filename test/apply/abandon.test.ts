// `wsync/mode: abandon` (#27 item 8), end to end: the real CLI in process against the emulator.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';
import { readInventory } from '../support/workspace.js';
import { notifierYaml, resource } from '../support/yaml.js';

const scratch = useScratch('wsync-abandon-');
const EMAILS = { properties: { email: { emails: ['oncall@example.com'] } } };

describe('wsync/mode: abandon', () => {
  it('drops the object from the inventory, leaves it live, and a later --prune never deletes it', async () => {
    const emulator = await startTestEmulator();
    onTestFinished(() => emulator.close());
    const { env } = emulator;
    const dir = join(await scratch.dir(), 'tree');
    await writeTree(dir, { 'keep.yaml': notifierYaml('team-email'), 'legacy.yaml': notifierYaml('legacy-email') });
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    const stateDir = join(dir, '.wsync');
    expect((await readInventory(stateDir)).entries.map((e) => e.key).sort()).toEqual(['legacy-email', 'team-email']);

    // The file changes the object too: an abandoned object is never written, whatever the file says.
    await writeFile(join(dir, 'legacy.yaml'), resource('Notifier', 'legacy-email', { properties: { email: { emails: ['other@example.com'] } } }, { 'wsync/mode': 'abandon' }));
    const planned = await runCli(['plan', dir, '--verbose'], { env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(/< abandon +Notifier\/legacy-email \(id \S+\)/);
    expect(planned.stdout).toContain('stays live, no longer owned');
    expect(planned.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete, 0 to adopt, 1 to abandon.');
    const json = JSON.parse((await runCli(['plan', dir, '--format', 'json'], { env })).stdout) as { summary: Record<string, number> };
    expect(json.summary).toMatchObject({ abandon: 1, update: 0 });
    const markdown = await runCli(['plan', dir, '--format', 'markdown'], { env });
    expect(markdown.stdout).toContain('**abandon** `Notifier/legacy-email`');

    await emulator.clearRequests();
    const applied = await runCli(['apply', dir], { env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Notifier/legacy-email: abandoned');
    expect(applied.stdout).toContain('1 abandoned');
    expect(await emulator.writes()).toEqual([]);
    expect((await readInventory(stateDir)).entries.map((e) => e.key)).toEqual(['team-email']);

    // Declared and abandoned, it is nothing to do; removed from the files, --prune leaves it live.
    expect((await runCli(['plan', dir, '--detailed-exitcode'], { env })).code).toBe(0);
    await rm(join(dir, 'legacy.yaml'));
    const pruned = await runCli(['apply', dir, '--prune', '--force-deletes', '--allow-empty'], { env });
    expect(pruned.code).toBe(0);
    expect(await emulator.writes()).toEqual([]);
    const notifiers = (await emulator.state()).notifiers ?? [];
    expect(notifiers.map((n) => n.name).sort()).toEqual(['legacy-email', 'team-email']);
    expect(notifiers.find((n) => n.name === 'legacy-email')?.properties).toEqual(EMAILS.properties);
  });
});
