// Issue #27 item 4: a plan that holds changes prints their fingerprint, and `apply --approve` lets
// exactly those through: the real CLI (in process) against the emulator.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { useScratch, writeTree } from '../support/tree.js';
import { monitorYaml as appMonitorYaml, notifierYaml } from '../support/yaml.js';

const scratch = useScratch('wsync-approve-');

function monitorYaml(name: string, threshold: number): string {
  return appMonitorYaml(name, threshold).replace("['app']", "['checkout']");
}

async function setUp(files: Record<string, string>): Promise<{ dir: string; env: Record<string, string>; emulator: TestEmulator }> {
  const emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
  onTestFinished(() => emulator.close());
  const dir = join(await scratch.dir(), 'tree');
  await writeTree(dir, files);
  return { dir, env: emulator.env, emulator };
}

const FINGERPRINT = /held-[0-9a-f]{12}-[0-9a-f]{12}/;

function fingerprintIn(text: string): string {
  const found = /fingerprint of the held changes: (held-[0-9a-f]{12}-[0-9a-f]{12})/.exec(text)?.[1];
  if (found === undefined) throw new Error(`no fingerprint in:\n${text}`);
  return found;
}

async function notifierNames(emulator: TestEmulator): Promise<string[]> {
  return ((await emulator.state()).notifiers ?? []).map((n) => String(n.name)).sort();
}

describe('apply --approve FINGERPRINT', () => {
  it('applies exactly the held changes it names; refuses, writing nothing, once a held object changed or other changes are held', async () => {
    const files = {
      'a.yaml': notifierYaml('n-a'),
      'b.yaml': notifierYaml('n-b'),
      'c.yaml': notifierYaml('n-c'),
      'd.yaml': notifierYaml('n-d'),
      'monitors.yaml': monitorYaml('errors', 10).replace('team-email', 'n-a'),
    };
    const { dir, env, emulator: emu } = await setUp(files);
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    const held = ['apply', dir, '--prune', '--max-deletes', '0'];

    // Two deletes held, the monitor's update applied; the fingerprint and the command are printed.
    await rm(join(dir, 'b.yaml'));
    await rm(join(dir, 'c.yaml'));
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('errors', 20).replace('team-email', 'n-a'));
    const partial = await runCli(held, { env });
    expect(partial.code).toBe(3);
    const first = fingerprintIn(partial.stderr);
    expect(partial.stderr).toContain(`wsync apply --approve ${first} (a daemon: wsync ctl approve ${first})`);
    expect(partial.stdout).toContain(`Fingerprint of the 2 held changes: ${first}. To apply exactly these: wsync apply --approve ${first}`);

    // Every plan format shows the same fingerprint, made again from the same files and workspace.
    const text = await runCli(['plan', dir, '--prune', '--max-deletes', '0'], { env });
    expect(text.stdout).toContain(`Fingerprint of the 2 held changes: ${first}.`);
    const json = JSON.parse((await runCli(['plan', dir, '--prune', '--max-deletes', '0', '--format', 'json'], { env })).stdout) as { held: unknown };
    expect(json.held).toEqual({ fingerprint: first, count: 2, changes: ['Notifier/n-b', 'Notifier/n-c'], objects: { 'Notifier/n-b': expect.stringMatching(/^[0-9a-f]{12}$/), 'Notifier/n-c': expect.stringMatching(/^[0-9a-f]{12}$/) } });
    const markdown = await runCli(['plan', dir, '--prune', '--max-deletes', '0', '--format', 'markdown'], { env });
    expect(markdown.stdout).toContain(`Fingerprint of the 2 held changes: \`${first}\`. To apply exactly these: \`wsync apply --approve ${first}\``);

    // A held object changed live since: the approval is void, nothing is written, the new fingerprint is offered.
    const b = (await emu.state()).notifiers?.find((n) => n.name === 'n-b');
    await emu.ok('PUT', `/v2/notifiers/${String(b?.id)}`, { name: 'n-b', properties: { email: { emails: ['someone@example.com'] } } });
    await emu.clearRequests();
    const changed = await runCli([...held, '--approve', first], { env });
    expect(changed.code).toBe(1);
    // The partial apply recorded what it held: the refusal names the object that moved.
    expect(changed.stderr).toContain(`apply: --approve ${first} does not approve this plan: a held object changed since the approved plan read it (changed live since: Notifier/n-b; the same 2 held`);
    expect(changed.stderr).toContain('nothing was written');
    expect(await emu.writes()).toEqual([]);
    const second = FINGERPRINT.exec(changed.stderr.split('to apply exactly what it holds now:')[1] ?? '')?.[0] ?? '';
    expect(second).not.toBe(first);
    expect(second.slice(0, 17)).toBe(first.slice(0, 17));

    // Another set held (n-d undeclared too): void again, and it says so.
    await rm(join(dir, 'd.yaml'));
    const other = await runCli([...held, '--approve', second], { env });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('the changes held now are not the ones approved (3 held: Notifier/n-b, Notifier/n-c, Notifier/n-d;');
    expect(await emu.writes()).toEqual([]);
    await writeTree(dir, { 'd.yaml': notifierYaml('n-d') });

    // A change applied meanwhile, or another one pending (the monitor again), does not void it: exactly the held deletes go.
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('errors', 30).replace('team-email', 'n-a'));
    const approved = await runCli([...held, '--approve', second], { env });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`Approved: ${second} lets the held changes through.`);
    expect(approved.stdout).toContain('Notifier/n-b: deleted');
    expect(approved.stdout).toContain('Notifier/n-c: deleted');
    expect(await notifierNames(emu)).toEqual(['n-a', 'n-d']);
    expect((await emu.state()).monitors?.find((m) => m.name === 'errors')?.threshold).toBe(30);

    // Nothing is held any more: an approval now approves nothing, and is refused.
    const again = await runCli([...held, '--approve', second], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('nothing is held now');
  });

  it('applies a reviewed saved plan (--plan) with its held changes approved (--approve), and refuses both once the workspace moved', async () => {
    const { dir, env, emulator: emu } = await setUp({ 'a.yaml': notifierYaml('n-a'), 'b.yaml': notifierYaml('n-b'), 'c.yaml': notifierYaml('n-c') });
    expect((await runCli(['apply', dir], { env })).code).toBe(0);
    const policy = ['--prune', '--max-deletes', '0'];
    await rm(join(dir, 'b.yaml'));
    const saved = join(dir, '..', 'plan.json');

    // The review: a saved plan that holds the delete of n-b, and the fingerprint it prints.
    const reviewed = await runCli(['plan', dir, ...policy, '--out', saved], { env });
    const fingerprint = FINGERPRINT.exec(reviewed.stdout)?.[0] ?? '';
    expect(reviewed.stdout).toContain(`Fingerprint of the 1 held change: ${fingerprint}.`);

    // The workspace moved after the review (n-c edited in the UI): the saved plan no longer matches, nothing is written.
    const c = (await emu.state()).notifiers?.find((n) => n.name === 'n-c');
    await emu.ok('PUT', `/v2/notifiers/${String(c?.id)}`, { name: 'n-c', properties: { email: { emails: ['someone@example.com'] } } });
    await emu.clearRequests();
    const stale = await runCli(['apply', dir, ...policy, '--plan', saved, '--approve', fingerprint], { env });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(`the saved plan ${saved} no longer matches; nothing was written`);
    expect(await emu.writes()).toEqual([]);

    // Reviewed again: the saved plan and its approval together apply exactly what was reviewed (n-c's drift put back, n-b deleted).
    const again = await runCli(['plan', dir, ...policy, '--out', saved], { env });
    const second = FINGERPRINT.exec(again.stdout)?.[0] ?? '';
    expect(again.stdout).toContain(`Fingerprint of the 1 held change: ${second}.`);
    expect(again.stdout).toContain('n-c');
    const applied = await runCli(['apply', dir, ...policy, '--plan', saved, '--approve', second], { env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`Approved: ${second} lets the held changes through.`);
    expect(applied.stdout).toContain('Notifier/n-b: deleted');
    expect(await notifierNames(emu)).toEqual(['n-a', 'n-c']);
    const restored = (await emu.state()).notifiers?.find((n) => n.name === 'n-c');
    expect(JSON.stringify(restored?.properties)).not.toContain('someone@example.com');
  });

  it('refuses a malformed fingerprint before reading anything', async () => {
    const result = await runCli(['apply', '.', '--approve', 'deadbeef']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('expected the fingerprint a plan printed for its held changes (held-XXXXXXXXXXXX-XXXXXXXXXXXX), got "deadbeef"');
  });
});
