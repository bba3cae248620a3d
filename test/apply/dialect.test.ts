// The service's dialect through the real CLI (#13): every kind written with only its required fields
// converges, users with base and custom roles converge, objects made by hand are adopted without a
// diff, a workspace without RBAC is planned and applied, and --prune never takes an annotation the
// service made.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { DATASET, CONVERGENCE_SEED, MINIMAL, OWNER } from '../reconcile/minimal-resources.js';
import { runCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { removeDir, tempDir, writeTree } from '../support/tree.js';
import { liveObjects, named } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

let emulator: TestEmulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emulator?.close();
  if (dir) await removeDir(dir);
  emulator = undefined;
  dir = undefined;
});

/** Every kind's minimal resource, one file per kind. */
function minimalTree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const kind of KIND_NAMES) files[`${KINDS[kind].plural}.yaml`] = resource(kind, MINIMAL[kind].name, MINIMAL[kind].required);
  return files;
}

async function setUp(files: Record<string, string>, options: { rbac?: boolean } = {}): Promise<{ tree: string; run: (...args: string[]) => Promise<CliResult> }> {
  emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE, ...options });
  await emulator.seed(CONVERGENCE_SEED);
  dir = await tempDir('wsync-dialect-');
  const tree = join(dir, 'tree');
  await writeTree(tree, files);
  const env = emulator.env;
  return { tree, run: (...args: string[]) => runCli(args, { env }) };
}

function hook(method: string, path: string, body?: unknown): Promise<unknown> {
  if (!emulator) throw new Error('no emulator');
  return emulator.ok<unknown>(method, path, body);
}

const users = {
  'users-extra.yaml': [
    resource('User', 'owner@example.com', { name: 'Olive', role: 'Owner' }),
    resource('User', 'custom@example.com', { name: 'Cass', role: MINIMAL.Role.name }),
    resource('User', 'reader@example.com', { name: 'Rae', role: 'read-only' }),
  ].join('---\n'),
};

describe('the service dialect, end to end', () => {
  it('converges a tree of every kind with only its required fields, users with base and custom roles, and an MPL monitor', async () => {
    const mpl = resource('Monitor', 'conv-mpl', { type: 'MatchEvent', mplQuery: `${DATASET}:latency | avg` });
    const { tree, run } = await setUp({ ...minimalTree(), ...users, 'mpl.yaml': mpl });
    const applied = await run('apply', tree);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const again = await run('plan', tree, '--detailed-exitcode');
    expect(again.stdout).toContain('No changes. The workspace matches the files.');
    expect(again.code).toBe(0);

    const state = await hook('GET', '/_emulator/state') as Record<string, Record<string, unknown>[]>;
    const role = named(state, 'roles', MINIMAL.Role.name);
    expect(named(state, 'users', 'owner@example.com')?.role).toEqual({ id: 'owner', name: 'Owner' });
    expect(named(state, 'users', 'custom@example.com')?.role).toEqual({ id: role?.id, name: MINIMAL.Role.name });
    // The service answers the MPL text in aplQuery; the plan above still found nothing to do.
    expect(named(state, 'monitors', 'conv-mpl')).toMatchObject({ aplQuery: `${DATASET}:latency | avg` });
  });

  it('adopts objects made by hand with only their required fields, without a diff', async () => {
    const monitor = resource('Monitor', MINIMAL.Monitor.name, MINIMAL.Monitor.required);
    const user = resource('User', OWNER, MINIMAL.User.required);
    const { tree, run } = await setUp({ 'monitor.yaml': monitor, 'user.yaml': user });
    await hook('POST', '/v2/monitors', { name: MINIMAL.Monitor.name, ...MINIMAL.Monitor.required });
    await hook('POST', '/v2/users', { email: OWNER, ...MINIMAL.User.required, role: 'USER' });
    const plan = await run('plan', tree, '--format', 'json');
    expect(plan.code).toBe(0);
    const changes = (JSON.parse(plan.stdout) as { changes: { kind: string; action: string; diffs: unknown[] }[] }).changes;
    expect(changes.map((c) => [c.kind, c.action, c.diffs])).toEqual([
      ['User', 'adopt', []],
      ['Monitor', 'adopt', []],
    ]);
  });

  it.each([403, 404] as const)('plans and applies a tree without roles on a workspace without RBAC (%i), and says once why roles cannot be', async (status) => {
    // Every kind but those of the RBAC add-on (Role, Group).
    const withoutRoles = Object.fromEntries(Object.entries(minimalTree()).filter(([file]) => !KIND_NAMES.some((k) => KINDS[k].addOn !== undefined && file === `${KINDS[k].plural}.yaml`)));
    const builtinUsers = { 'users-extra.yaml': [resource('User', 'owner@example.com', { name: 'Olive', role: 'owner' })].join('') };
    const { tree, run } = await setUp({ ...withoutRoles, ...builtinUsers }, { rbac: false });
    if (status === 404) await hook('POST', '/_emulator/add-ons', { rbacStatus: 404 });

    expect((await run('plan', tree, '--detailed-exitcode')).code).toBe(2);
    const applied = await run('apply', tree);
    // The only word on stderr is the writer lease's (an RBAC group, docs/deploy.md): nothing about roles.
    expect(applied.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('warning: the workspace cannot be marked as written'))).toEqual([]);
    expect(applied.code).toBe(0);
    const settled = await run('plan', tree, '--detailed-exitcode');
    expect(settled.code).toBe(0);
    const requests = (await hook('GET', '/_emulator/requests')) as { path: string }[];
    expect(requests.filter((r) => r.path.startsWith('/v2/rbac/roles'))).toEqual([]);

    await writeTree(tree, { 'roles.yaml': [resource('Role', 'sre', {}), resource('Role', 'auditors', {})].join('---\n') });
    const refused = await run('plan', tree);
    expect(refused.code).toBe(1);
    const output = refused.stdout + refused.stderr;
    expect(output.split('RBAC is not available on this workspace').length - 1).toBe(1);
    expect(output).toContain(`GET /v2/rbac/roles answered ${status}`);
    expect(output).toContain('this tree declares Role and Group resources, which need it');
    expect((await run('apply', tree)).code).toBe(1);
  });

  it('never prunes an annotation the service made, and refuses --prune=all:Annotation', async () => {
    const ours = resource('Annotation', 'Deploy', { type: 'deploy', datasets: [DATASET], time: '2026-03-01T12:00:00Z' });
    const kept = resource('Annotation', 'Release', { type: 'deploy', datasets: [DATASET], time: '2026-03-01T12:00:00Z' });
    const monitor = resource('Monitor', MINIMAL.Monitor.name, MINIMAL.Monitor.required);
    const { tree, run } = await setUp({ 'annotation.yaml': ours, 'kept.yaml': kept, 'monitor.yaml': monitor });
    expect((await run('apply', tree)).code).toBe(0);
    const before = (await hook('GET', '/_emulator/state')) as Record<string, Record<string, unknown>[]>;
    const made = (await hook('POST', '/_emulator/monitor-trigger', { monitorId: named(before, 'monitors', MINIMAL.Monitor.name)?.id })) as { id: string };

    await writeTree(tree, { 'annotation.yaml': '# removed\n' });
    // One of three live annotations: over the default delete ratio.
    const pruned = await run('apply', tree, '--prune', '--max-delete-ratio', '1');
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('Apply complete: 0 created, 0 updated, 1 deleted');
    const after = (await hook('GET', '/_emulator/state')) as Record<string, Record<string, unknown>[]>;
    expect(liveObjects(after, 'annotations').map((a) => a.title).sort()).toEqual(['Release', MINIMAL.Monitor.name]);
    expect(liveObjects(after, 'annotations').map((a) => a.id)).toContain(made.id);

    const all = await run('apply', tree, '--prune=all:Annotation');
    expect(all.code).not.toBe(0);
    expect(all.stderr).toContain('--prune=all:Annotation is not allowed: the service makes annotations by itself');
    const last = (await hook('GET', '/_emulator/state')) as Record<string, Record<string, unknown>[]>;
    expect(liveObjects(last, 'annotations')).toHaveLength(2);
  });
});
