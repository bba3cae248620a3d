// Every kind and every action, through the real CLI against the emulator.
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_SECRETS, examplesWorkspace, idOf, liveObjects, named, readInventory, type Workspace } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

const ORG = resource('Org', 'platform-team', {});
// Fields come from ingest: the seeded dataset has this one, so it is adopted and its settings written.
const FIELD = resource('DatasetField', 'duration_ms', { dataset: 'checkout', description: 'Time from request to last byte.', unit: 'ms' });

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

function expectNoSecrets(text: string, extra: string[] = []): void {
  for (const secret of [...Object.values(DEMO_SECRETS), ...extra]) expect(text).not.toContain(secret);
}

describe('apply, end to end', () => {
  it('creates every kind in dependency order, records the inventory, and writes nothing the second time', async () => {
    workspace = await examplesWorkspace({ extraFiles: { 'orgs.yaml': ORG, 'fields/duration.yaml': FIELD } });
    const { emulator, tree, stateDir } = workspace;

    const first = await workspace.apply();
    // Only the list of the examples' deploy/ files, skipped as not wsync resources.
    expect(first.stderr.split('\n').filter((line) => line !== '' && !line.includes(': skipped: '))).toEqual([]);
    expect(first.code).toBe(0);
    // The seeded datasets (made by ingest) and the field are adopted; everything else is created.
    expect(first.stdout).toContain('Apply complete: 20 created, 0 updated, 0 deleted, 4 adopted, 0 failed, 0 skipped in ');

    const state = await emulator.state();
    // A monitor created in the same run as its notifiers carries their new ids.
    const errorRate = named(state, 'monitors', 'checkout-error-rate');
    expect([...((errorRate?.notifierIds as string[]) ?? [])].sort()).toEqual(
      [idOf(state, 'notifiers', 'oncall-slack'), idOf(state, 'notifiers', 'oncall-pagerduty')].sort(),
    );
    const ada = idOf(state, 'users', 'ada@example.com');
    const sre = idOf(state, 'roles', 'sre');
    // Role members name users created after the role: written again once they exist.
    expect(named(state, 'roles', 'sre')?.members).toEqual([ada]);
    expect(named(state, 'users', 'ada@example.com')?.role).toEqual({ id: sre, name: 'sre' });
    expect(named(state, 'starredQueries', 'Checkout errors by path')?.who).toBe(ada);
    expect(liveObjects(state, 'vfields').map((v) => v.name).sort()).toEqual(['duration_s', 'is_server_error']);
    expect(liveObjects(state, 'annotations')).toHaveLength(1);
    expect(named(state, 'orgs', 'platform-team')).toBeDefined();
    // Adopted datasets take the files' settings; map fields through their own endpoint.
    expect(named(state, 'datasets', 'checkout')).toMatchObject({ retentionDays: 90, useRetentionPeriod: true, mapFields: ['attributes'] });
    expect(named(state, 'datasets', 'http-logs')).toMatchObject({ kind: 'otel:logs:v1', retentionDays: 0 });
    expect(named(state, 'groups', 'on-call')).toMatchObject({ members: [ada, idOf(state, 'users', 'grace@example.com')], roles: [sre] });
    expect(named(state, 'views', 'failed-payments')).toMatchObject({ datasets: ['payments'] });
    const checkout = (state.datasets ?? []).find((d) => d.name === 'checkout');
    const duration = (checkout?.fields as { name: string; description?: string }[]).find((f) => f.name === 'duration_ms');
    expect(duration?.description).toBe('Time from request to last byte.');
    // The dashboard's document came from the JSON file beside its YAML.
    const board = liveObjects(state, 'dashboards').find((d) => d.uid === 'checkout-overview');
    expect((board?.dashboard as { charts: { id: string }[] }).charts.map((c) => c.id)).toEqual(['about', 'errors', 'p95', 'slowest']);

    // The token's secret went to the token output directory, 0600, and nowhere else.
    const token = named(state, 'tokens', 'ci-annotations');
    const secret = String(token?.token);
    expect(secret.length).toBeGreaterThan(8);
    const tokenFile = join(stateDir, 'tokens', 'ci-annotations');
    expect((await readFile(tokenFile, 'utf8')).trim()).toBe(secret);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect(first.stdout).toContain(`ApiToken/ci-annotations: created ${String(token?.id)}; wrote token to ${tokenFile}`);
    expectNoSecrets(first.stdout + first.stderr, [secret]);

    const inventory = await readInventory(stateDir);
    expect(inventory.entries).toHaveLength(24);
    const slack = inventory.entries.find((e) => e.kind === 'Notifier' && e.key === 'oncall-slack');
    expect(slack?.id).toBe(idOf(state, 'notifiers', 'oncall-slack'));
    expect(Object.keys(slack?.secretHashes ?? {})).toEqual(['/properties/slack/slackUrl']);
    expect(slack?.secretHashes?.['/properties/slack/slackUrl']).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(inventory.entries.find((e) => e.key === 'checkout-error-rate')?.pruneDisabled).toBe(true);
    const inventoryText = await readFile(join(stateDir, 'inventory.json'), 'utf8');
    expectNoSecrets(inventoryText, [secret]);

    await emulator.clearRequests();
    const second = await workspace.apply();
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('No changes');
    expect(second.stdout).toContain('Apply complete: 0 created, 0 updated, 0 deleted, 0 adopted, 0 failed, 0 skipped');
    expect(await emulator.writes()).toEqual([]);
    expect(tree).toBeTruthy();
  });

  it('updates a changed field with one PUT', async () => {
    workspace = await examplesWorkspace({ applied: true });
    const file = join(workspace.tree, 'monitors', 'checkout.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('threshold: 25', 'threshold: 40'));
    const result = await workspace.apply();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Apply complete: 0 created, 1 updated, 0 deleted');
    const state = await workspace.emulator.state();
    const id = idOf(state, 'monitors', 'checkout-error-rate');
    expect((await workspace.emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual([`PUT /v2/monitors/${id}`]);
    expect(named(state, 'monitors', 'checkout-error-rate')?.threshold).toBe(40);
  });

  it('rotates a secret (keyed hash changed) without printing either value, including the blanked PagerDuty key', async () => {
    workspace = await examplesWorkspace({ applied: true });
    const before = await readInventory(workspace.stateDir);
    const rotated = {
      WSYNC_SLACK_WEBHOOK_URL: 'https://hooks.slack.example/services/T0/B0/rotated-slack-secret-2',
      WSYNC_PAGERDUTY_ROUTING_KEY: 'rotated-pagerduty-routing-key-2',
    };
    const result = await workspace.apply([], rotated);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('sensitive');
    expect(result.stdout).toContain('0 created, 2 updated');
    expectNoSecrets(result.stdout + result.stderr, Object.values(rotated));
    const state = await workspace.emulator.state();
    expect((await workspace.emulator.writes()).map((w) => `${w.method} ${w.path}`).sort()).toEqual(
      [`PUT /v2/notifiers/${idOf(state, 'notifiers', 'oncall-pagerduty')}`, `PUT /v2/notifiers/${idOf(state, 'notifiers', 'oncall-slack')}`].sort(),
    );
    const after = await readInventory(workspace.stateDir);
    const hash = (inv: typeof before, key: string): string | undefined =>
      Object.values(inv.entries.find((e) => e.key === key)?.secretHashes ?? {})[0];
    expect(hash(after, 'oncall-slack')).not.toBe(hash(before, 'oncall-slack'));
    expect(hash(after, 'oncall-pagerduty')).not.toBe(hash(before, 'oncall-pagerduty'));
    expect(hash(after, 'incident-webhook')).toBe(hash(before, 'incident-webhook'));

    await workspace.emulator.clearRequests();
    const again = await workspace.apply([], rotated);
    expect(again.code).toBe(0);
    expect(await workspace.emulator.writes()).toEqual([]);
  });

  it('replaces a changed API token by regenerating it, and writes the new secret', async () => {
    workspace = await examplesWorkspace({ applied: true });
    const oldState = await workspace.emulator.state();
    const oldId = idOf(oldState, 'tokens', 'ci-annotations');
    const file = join(workspace.tree, 'access', 'tokens.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('annotations: [create, read]', 'annotations: [create, read, update]'));

    const result = await workspace.apply();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('-/+');
    expect(result.stdout).toContain('0 created, 0 updated, 1 replaced, 0 deleted');
    expect((await workspace.emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual([`POST /v2/tokens/${oldId}/regenerate`]);

    const state = await workspace.emulator.state();
    const tokens = liveObjects(state, 'tokens');
    // The old token keeps working for the grace period (24h by default).
    expect(tokens).toHaveLength(2);
    const old = tokens.find((t) => t.id === oldId);
    expect(Date.parse(String(old?.expiresAt)) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const fresh = tokens.find((t) => t.id !== oldId);
    expect(fresh?.orgCapabilities).toEqual({ annotations: ['create', 'read', 'update'] });
    expect((await readFile(join(workspace.stateDir, 'tokens', 'ci-annotations'), 'utf8')).trim()).toBe(fresh?.token);
    expectNoSecrets(result.stdout + result.stderr, [String(fresh?.token)]);
    const inventory = await readInventory(workspace.stateDir);
    // the order of entries is the state's, not part of the contract
    const tokenEntries = inventory.entries.filter((e) => e.kind === 'ApiToken');
    expect(tokenEntries).toHaveLength(2);
    expect(tokenEntries).toEqual(
      expect.arrayContaining([
        { kind: 'ApiToken', key: 'ci-annotations', id: fresh?.id },
        { kind: 'ApiToken', key: 'ci-annotations', id: oldId, retiredUntil: old?.expiresAt },
      ]),
    );
  });

  it('adopts an unowned live object with the declared key (PUT when it differs); --no-adopt refuses with zero writes', async () => {
    workspace = await examplesWorkspace({ applied: true });
    await workspace.emulator.seed({
      notifiers: [{ name: 'hand-made', properties: { email: { emails: ['old@example.com'] } } }],
    });
    await writeFile(
      join(workspace.tree, 'notifiers', 'hand-made.yaml'),
      resource('Notifier', 'hand-made', { properties: { email: { emails: ['new@example.com'] } } }),
    );
    const state = await workspace.emulator.state();
    const id = idOf(state, 'notifiers', 'hand-made');

    const refused = await workspace.apply(['--no-adopt']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--no-adopt');
    expect(await workspace.emulator.writes()).toEqual([]);

    const adopted = await workspace.apply();
    expect(adopted.code).toBe(0);
    expect(adopted.stdout).toContain(`Notifier/hand-made: adopted ${id}; updated to match the files`);
    expect(adopted.stdout).toContain('0 created, 0 updated, 0 deleted, 1 adopted');
    expect((await workspace.emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual([`PUT /v2/notifiers/${id}`]);
    expect((await readInventory(workspace.stateDir)).entries).toContainEqual({ kind: 'Notifier', key: 'hand-made', id });
    expect(named(await workspace.emulator.state(), 'notifiers', 'hand-made')?.properties).toEqual({ email: { emails: ['new@example.com'] } });
  });

  it('deletes only with --prune, only owned objects, never one marked wsync/prune: disabled', async () => {
    workspace = await examplesWorkspace({ applied: true });
    await workspace.emulator.seed({ monitors: [{ name: 'hand-made-monitor', type: 'MatchEvent', aplQuery: "['checkout']", intervalMinutes: 1, rangeMinutes: 1 }] });
    const before = await workspace.emulator.state();
    await rm(join(workspace.tree, 'monitors', 'checkout.yaml'));

    const withoutPrune = await workspace.apply();
    expect(withoutPrune.code).toBe(0);
    expect(await workspace.emulator.writes()).toEqual([]);

    const pruned = await workspace.apply(['--prune']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('0 created, 0 updated, 1 deleted');
    const latency = idOf(before, 'monitors', 'checkout-latency-anomaly');
    expect((await workspace.emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual([`DELETE /v2/monitors/${latency}`]);
    const after = await workspace.emulator.state();
    expect(named(after, 'monitors', 'checkout-latency-anomaly')).toBeUndefined();
    expect(named(after, 'monitors', 'checkout-error-rate')).toBeDefined();
    expect(named(after, 'monitors', 'hand-made-monitor')).toBeDefined();
    const inventory = await readInventory(workspace.stateDir);
    expect(inventory.entries.find((e) => e.id === latency)).toBeUndefined();
    expect(inventory.entries.find((e) => e.key === 'checkout-error-rate')?.pruneDisabled).toBe(true);
  });

  it('deletes unowned objects of an authoritative kind (--prune=all:KIND), within the budget', async () => {
    workspace = await examplesWorkspace({ applied: true });
    await workspace.emulator.seed({ notifiers: [{ name: 'stray', properties: { email: { emails: ['x@example.com'] } } }] });
    const stray = idOf(await workspace.emulator.state(), 'notifiers', 'stray');
    await workspace.emulator.clearRequests();

    const result = await workspace.apply(['--prune=all:Notifier']);
    expect(result.code).toBe(0);
    expect((await workspace.emulator.writes()).map((w) => `${w.method} ${w.path}`)).toEqual([`DELETE /v2/notifiers/${stray}`]);
    expect(named(await workspace.emulator.state(), 'notifiers', 'stray')).toBeUndefined();
  });

  it('never writes an object marked wsync/mode: observe, and reports its drift', async () => {
    workspace = await examplesWorkspace({ applied: true });
    const file = join(workspace.tree, 'monitors', 'checkout.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace('    wsync/prune: disabled\n', '    wsync/prune: disabled\n    wsync/mode: observe\n').replace('threshold: 25', 'threshold: 99'),
    );
    const result = await workspace.apply();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('observe');
    expect(await workspace.emulator.writes()).toEqual([]);
    expect(named(await workspace.emulator.state(), 'monitors', 'checkout-error-rate')?.threshold).toBe(25);
  });
});
