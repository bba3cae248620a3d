// Datasets, Views and Groups end to end: the real CLI against the real emulator, starting from a
// workspace that holds one dataset made by ingest and nothing else. Create, no change, update (map
// fields through their own endpoint; a dataset's kind reported, never written), adopt, prune (a
// dataset only with --allow-delete Dataset, within the delete budget), export; wsync's own writer
// lease group is never planned nor exported; an unknown dataset stops the plan before any write.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WRITER_LEASE_GROUP } from '../../src/core/writer-lease-record.js';
import { runCli, type CliResult } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { removeDir, tempDir, writeTree } from '../support/tree.js';
import { idOf, named } from '../support/workspace.js';
import { resource } from '../support/yaml.js';

const ORDERS = { description: 'Orders', kind: 'otel:logs:v1', retentionDays: 30, useRetentionPeriod: true, mapFields: ['attributes', 'resource'] };
const VIEW = { datasets: ['orders'], aplQuery: "['orders'] | where amount > 100", description: 'Large orders' };

function files(orders: Record<string, unknown> | undefined, withRest = true): Record<string, string> {
  const datasets = [resource('Dataset', 'ingested', { description: 'Adopted from ingest', mapFields: ['labels'] })];
  if (orders) datasets.push(resource('Dataset', 'orders', orders));
  const tree: Record<string, string> = {
    'datasets.yaml': datasets.join('---\n'),
    'access.yaml': [
      // A role naming a dataset keeps it from being deleted: without it, the role reads every dataset.
      resource('Role', 'sre', { description: 'On call', datasetCapabilities: { [orders ? 'orders' : '*']: { query: ['read'] } } }),
      resource('User', 'ada@example.com', { name: 'Ada', role: 'read-only' }),
    ].join('---\n'),
    'views.yaml': '',
    'groups.yaml': '',
    'fields.yaml': '',
  };
  if (withRest) {
    tree['views.yaml'] = resource('View', 'big-orders', VIEW);
    tree['groups.yaml'] = resource('Group', 'on-call', { description: 'Pager', members: ['ada@example.com'], roles: ['sre'] });
    tree['fields.yaml'] = resource('VirtualField', 'amount_k', { dataset: 'orders', expression: 'amount / 1000', type: 'float' });
  }
  return tree;
}

let emulator: TestEmulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emulator?.close();
  if (dir) await removeDir(dir);
  emulator = undefined;
  dir = undefined;
});

/** A bare emulator (one dataset made by ingest) and an empty tree beside its state directory. */
async function setUp(): Promise<{ emulator: TestEmulator; tree: string; wsync: (args: string[]) => Promise<CliResult> }> {
  emulator = await startTestEmulator();
  await emulator.seed({ datasets: [{ name: 'ingested', description: 'made by ingest', fields: [{ name: 'labels', type: 'string' }] }] });
  dir = await tempDir('wsync-datasets-');
  const tree = join(dir, 'tree');
  const state = join(dir, 'state');
  const env = emulator.env;
  return { emulator, tree, wsync: (args) => runCli([...args, '--state-dir', state], { env }) };
}

function paths(requests: { method: string; path: string }[]): string[] {
  return requests.map((r) => `${r.method} ${r.path}`);
}

describe('Datasets, Views and Groups, end to end', () => {
  it('creates, adopts, updates and prunes them; a dataset only with --allow-delete Dataset', async () => {
    const { emulator: api, tree, wsync } = await setUp();
    await writeTree(tree, files(ORDERS));

    const first = await wsync(['apply', tree]);
    expect(first.stderr).toBe('');
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain('Apply complete: 6 created, 0 updated, 0 deleted, 1 adopted, 0 failed, 0 skipped');
    let state = await api.state();
    expect(named(state, 'datasets', 'orders')).toMatchObject({ kind: 'otel:logs:v1', description: 'Orders', retentionDays: 30, useRetentionPeriod: true });
    expect([...(named(state, 'datasets', 'orders')?.mapFields as string[])].sort()).toEqual(['attributes', 'resource']);
    // Made by ingest, adopted: its settings and map fields now as the file says.
    expect(named(state, 'datasets', 'ingested')).toMatchObject({ description: 'Adopted from ingest', mapFields: ['labels'] });
    expect(named(state, 'views', 'big-orders')).toMatchObject(VIEW);
    expect(named(state, 'groups', 'on-call')).toMatchObject({ members: [idOf(state, 'users', 'ada@example.com')], roles: [idOf(state, 'roles', 'sre')] });
    expect(named(state, 'roles', 'sre')?.datasetCapabilities).toEqual({ orders: { query: ['read'] } });
    // The dataset exists before anything that names it is written; map fields have their own endpoint.
    const writes = paths(await api.writes());
    expect(writes).toContain('PUT /v2/datasets/orders/mapfields');
    expect(writes).toContain('PUT /v2/datasets/ingested/mapfields');
    const created = writes.indexOf('POST /v2/datasets');
    for (const later of ['POST /v2/vfields', 'POST /v2/views', 'POST /v2/rbac/roles']) expect(writes.indexOf(later)).toBeGreaterThan(created);

    // Nothing to do the second time, even with Group authoritative: wsync's writer lease (a group
    // it keeps in the workspace) is not a user's object.
    expect(named(state, 'groups', WRITER_LEASE_GROUP)).toBeDefined();
    for (const args of [[], ['--prune=all:Group', '--prune=all:View']]) {
      const again = await wsync(['plan', tree, '--detailed-exitcode', ...args]);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes.');
    }

    // export writes the new kinds and never the lease.
    const out = join(tree, '..', 'exported');
    const exported = await wsync(['export', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const written = (await readdir(out, { recursive: true })).map(String).filter((f) => f.endsWith('.yaml')).sort();
    expect(written).toEqual(expect.arrayContaining(['datasets/ingested.yaml', 'datasets/orders.yaml', 'groups/on-call.yaml', 'views/big-orders.yaml']));
    for (const file of written) expect(await readFile(join(out, file), 'utf8')).not.toContain(WRITER_LEASE_GROUP);

    // An update: settings by PUT, the map-field set by one PUT; the kind cannot change, so it is reported.
    await writeTree(tree, files({ ...ORDERS, kind: 'otel:traces:v1', retentionDays: 60, mapFields: ['resource', 'trace'] }));
    await api.clearRequests();
    const update = await wsync(['apply', tree]);
    expect(update.code, update.stdout + update.stderr).toBe(0);
    expect(update.stdout).toContain('kind changes are not applied through the API');
    expect(paths(await api.writes())).toEqual(['PUT /v2/datasets/orders', 'PUT /v2/datasets/orders/mapfields']);
    state = await api.state();
    expect(named(state, 'datasets', 'orders')).toMatchObject({ kind: 'otel:logs:v1', retentionDays: 60 });
    expect([...(named(state, 'datasets', 'orders')?.mapFields as string[])].sort()).toEqual(['resource', 'trace']);

    // Pruned: the view, the group and the virtual field go; the dataset stays without the opt-in.
    await writeTree(tree, files(undefined, false));
    await api.clearRequests();
    // (Each kind is pruned to nothing: past the ratio budget and --allow-empty, on purpose here.)
    const pruned = await wsync(['apply', tree, '--prune', '--force-deletes', '--allow-empty']);
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('re-run with --allow-delete Dataset to delete it');
    // (writes() leaves out every group request, the lease's included: read the whole log.)
    expect(paths(await api.requests()).filter((w) => w.startsWith('DELETE')).sort()).toEqual([
      `DELETE /v2/rbac/groups/${idOf(state, 'groups', 'on-call')}`,
      `DELETE /v2/vfields/${idOf(state, 'vfields', 'amount_k')}`,
      'DELETE /v2/views/big-orders',
    ]);
    expect(named(await api.state(), 'datasets', 'orders')).toBeDefined();

    // With the opt-in the delete budget still applies (one of two is within the ratio's floor for
    // small kinds, so the absolute budget holds it here), and the plan says what is lost either way.
    const refused = await wsync(['apply', tree, '--prune', '--allow-delete', 'Dataset', '--max-deletes', '0']);
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toContain('Data loss (1)');
    expect(refused.stdout + refused.stderr).toContain('Refusing to delete 1 object: more than --max-deletes 0');
    expect(named(await api.state(), 'datasets', 'orders')).toBeDefined();
    const deleted = await wsync(['apply', tree, '--prune', '--allow-delete', 'Dataset', '--force-deletes']);
    expect(deleted.code, deleted.stdout + deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('Data loss (1)');
    expect(deleted.stdout).toContain('DELETES THE DATASET AND ALL OF ITS DATA');
    state = await api.state();
    expect(named(state, 'datasets', 'orders')).toBeUndefined();
    expect(named(state, 'datasets', 'ingested')).toBeDefined();
  });

  it('stops at plan, before any write, when a resource names a dataset that is neither declared nor live', async () => {
    const { emulator: api, tree, wsync } = await setUp();
    await writeTree(tree, {
      'datasets.yaml': resource('Dataset', 'orders', {}),
      'views.yaml': resource('View', 'big-orders', VIEW),
      'annotations.yaml': resource('Annotation', 'Deploy', { type: 'deploy', datasets: ['orders', 'ordres'], time: '2026-11-02T09:30:00Z' }),
    });
    for (const command of ['plan', 'apply']) {
      const result = await wsync([command, tree]);
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stdout + result.stderr).toMatch(/annotations\.yaml:\d+:\d+: .*spec\.datasets\[1\].*"ordres".*did you mean "orders"/);
    }
    expect(await api.writes()).toEqual([]);
  });
});
