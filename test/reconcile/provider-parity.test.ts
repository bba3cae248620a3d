// What Terraform provider users set, wsync users can set (#24.12), through the real CLI against
// the emulator: a dashboard's overwrite opt-in (shown in the plan, written over a UI save), a
// dashboard document's overrides and other top-level keys (sent and compared), a role's
// orgCapabilities.labels, a group whose omitted members are left alone ([] means none), and
// durations like 1h30m.
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';
import { named } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-provider-parity-');

const document = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  charts: [{ id: 'errors', name: 'Errors', type: 'TimeSeries', query: { apl: "['checkout'] | count" } }],
  layout: [{ i: 'errors', x: 0, y: 0, w: 12, h: 4 }],
  refreshTime: 60,
  schemaVersion: 2,
  timeWindowStart: 'qr-now-1h',
  timeWindowEnd: 'qr-now',
  ...extra,
});

async function run(dir: string, ...args: string[]): Promise<CliResult> {
  return runCli([...args, dir], { env: emulator.env });
}

async function applyClean(dir: string): Promise<void> {
  const applied = await run(dir, 'apply');
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  await emulator.clearRequests();
  const again = await run(dir, 'plan', '--detailed-exitcode');
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(await emulator.writes()).toEqual([]);
}

describe('dashboards', () => {
  it('overrides and keys the OpenAPI does not name are sent, kept and compared; an export of them plans clean', async () => {
    const dir = await scratch.dir();
    const extra = { overrides: { errors: { color: 'red' } }, customKey: 'kept' };
    await writeTree(dir, { 'dashboards/d.yaml': resource('Dashboard', 'parity-keys', { dashboard: document('Keys', extra) }) });
    await applyClean(dir);
    const live = named(await emulator.state(), 'dashboards', 'parity-keys') ?? (await emulator.state()).dashboards?.find((d) => d.uid === 'parity-keys');
    expect(live?.dashboard).toMatchObject(extra);

    // A change of overrides alone is a change.
    await writeTree(dir, { 'dashboards/d.yaml': resource('Dashboard', 'parity-keys', { dashboard: document('Keys', { ...extra, overrides: {} }) }) });
    const changed = await run(dir, 'plan', '--detailed-exitcode');
    expect(changed.code).toBe(2);
    expect(changed.stdout).toContain('overrides');

    const out = `${await scratch.dir()}/export`;
    const exported = await runCli(['export', '--out', out, '--kind', 'Dashboard'], { env: emulator.env });
    expect(exported.code, exported.stderr).toBe(0);
    await emulator.clearRequests();
    const planned = await run(out, 'plan', '--detailed-exitcode');
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(await emulator.writes()).toEqual([]);
  });

  it('overwrite: true is shown in the plan, never a diff, and writes over a save made in the UI', async () => {
    const dir = await scratch.dir();
    const file = (name: string) => ({ 'dashboards/d.yaml': resource('Dashboard', 'parity-overwrite', { overwrite: true, dashboard: document(name) }) });
    await writeTree(dir, file('Overwrite'));
    const created = await run(dir, 'plan');
    expect(created.stdout).toContain('overwrite: true: written with overwrite and no version');
    await applyClean(dir);

    await writeTree(dir, file('Overwrite, edited'));
    await emulator.ok('POST', '/_emulator/dashboards/ui-save', { uid: 'parity-overwrite', dashboard: { name: 'Saved in the UI' }, when: 'before-next-write' });
    const applied = await run(dir, 'apply');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('1 updated');
    const live = (await emulator.state()).dashboards?.find((d) => d.uid === 'parity-overwrite') as { dashboard: { name: string }; version: number };
    expect(live.dashboard.name).toBe('Overwrite, edited');
    expect(live.version).toBe(3);
  });
});

describe('roles and groups', () => {
  it("a role's orgCapabilities.labels is written and plans clean", async () => {
    const dir = await scratch.dir();
    await writeTree(dir, { 'roles/r.yaml': resource('Role', 'parity-labels', { orgCapabilities: { labels: ['read', 'update'], monitors: ['read'] } }) });
    await applyClean(dir);
    expect(named(await emulator.state(), 'roles', 'parity-labels')?.orgCapabilities).toEqual({ labels: ['read', 'update'], monitors: ['read'] });
  });

  it("a group's members left out are left alone; members: [] means none", async () => {
    await emulator.seed({ users: [
      { name: 'Ann', email: 'ann@parity.example', role: 'user' },
      { name: 'Bob', email: 'bob@parity.example', role: 'user' },
    ] });
    const dir = await scratch.dir();
    const group = (spec: Record<string, unknown>) => ({ 'groups/g.yaml': resource('Group', 'parity-group', spec) });
    await writeTree(dir, group({ description: 'on call', members: ['ann@parity.example'] }));
    await applyClean(dir);
    const ids = (state: Awaited<ReturnType<typeof emulator.state>>) => (named(state, 'groups', 'parity-group')?.members as string[]).length;

    // Members added outside wsync (a directory, the UI) survive a file that leaves them out, and a change of something else.
    const state = await emulator.state();
    const groupId = String(named(state, 'groups', 'parity-group')?.id);
    const everyone = (state.users ?? []).filter((u) => String(u.email).endsWith('@parity.example')).map((u) => String(u.id));
    await emulator.ok('PUT', `/v2/rbac/groups/${groupId}`, { name: 'parity-group', description: 'on call', members: everyone, roles: [] });
    await writeTree(dir, group({ description: 'on call, renamed' }));
    const planned = await run(dir, 'plan', '--detailed-exitcode');
    expect(planned.code).toBe(2);
    expect(planned.stdout).not.toContain('members');
    await applyClean(dir);
    expect(ids(await emulator.state())).toBe(2);

    await writeTree(dir, group({ description: 'on call, renamed', members: [] }));
    await applyClean(dir);
    expect(ids(await emulator.state())).toBe(0);
  });
});

describe('durations', () => {
  it('1h30m is taken by --token-rotation-grace and by wsync/rotation-grace', async () => {
    const dir = await scratch.dir();
    const token = (description: string, grace?: string) => ({
      'tokens/t.yaml': resource('ApiToken', 'parity-token', { description }, grace ? { 'wsync/rotation-grace': grace } : undefined),
    });
    await writeTree(dir, token('first'));
    const stateDir = `${dir}-state`;
    const applied = await runCli(['apply', dir, '--state-dir', stateDir], { env: emulator.env });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);

    await writeTree(dir, token('second'));
    const byFlag = await runCli(['plan', dir, '--state-dir', stateDir, '--token-rotation-grace', '1h30m', '--format', 'json'], { env: emulator.env });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    const graceOf = (text: string) => (JSON.parse(text) as { changes: { grace?: { ms: number } }[] }).changes[0]?.grace?.ms;
    expect(graceOf(byFlag.stdout)).toBe(90 * 60_000);

    await writeTree(dir, token('second', '2h15m'));
    const byAnnotation = await runCli(['plan', dir, '--state-dir', stateDir, '--format', 'json'], { env: emulator.env });
    expect(byAnnotation.code, byAnnotation.stderr).toBe(0);
    expect(graceOf(byAnnotation.stdout)).toBe(135 * 60_000);
  });
});
