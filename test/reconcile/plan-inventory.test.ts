// A plan lists what its files put in scope at once and reads its inventory while the answers are
// on their way (reconcile's inventoryAndLive): what the inventory adds (kinds and datasets of
// owned objects the files do not declare) is listed after, and the live state is the one a read of
// the whole scope gives, each list requested once. Runs in process against the emulator.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { DEFAULT_POLICY, type Inventory } from '../../src/core/types.js';
import { liveScope, readLive } from '../../src/live/index.js';
import { reconcile } from '../../src/reconcile/index.js';
import { readDesired } from '../../src/source/index.js';
import { InventoryFileError } from '../../src/state/inventory-file.js';
import { apiClientFor, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';
import { resource } from '../support/yaml.js';

const scratch = useScratch('wsync-plan-inventory-');
let emulator: TestEmulator;
let client: ApiClient;

beforeAll(async () => {
  // Without RBAC: a declared Role's list is refused (an add-on kind), which must not be asked twice.
  emulator = await startTestEmulator({ seed: 5, rbac: false });
  await emulator.seed({
    datasets: [
      { name: 'alpha', fields: [{ name: 'latency', type: 'float' }] },
      { name: 'beta', fields: [{ name: 'size', type: 'integer' }] },
    ],
  });
  client = apiClientFor(emulator, { retryCapMs: 10 });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

const TREE = {
  'fields.yaml': resource('DatasetField', 'latency', { dataset: 'alpha', description: 'Time to first byte' }),
  'roles.yaml': resource('Role', 'readers', {}),
};

/** Owned objects the tree does not declare: a dataset's field of another dataset, a monitor. */
function inventoryText(entries: Inventory['entries']): string {
  return `${JSON.stringify({ version: 1, entries }, null, 2)}\n`;
}

async function planOf(stateFiles: Record<string, string>) {
  const dir = await scratch.dir();
  await writeTree(join(dir, 'tree'), TREE);
  await writeTree(join(dir, 'state'), stateFiles);
  await emulator.clearRequests();
  const outcome = await reconcile({ dir: join(dir, 'tree'), env: {}, client, stateDir: join(dir, 'state'), policy: DEFAULT_POLICY, mode: 'plan' });
  const lists = (await emulator.requests()).filter((r) => r.method === 'GET').map((r) => r.path);
  return { dir, outcome, lists };
}

describe('a plan reads its inventory while the lists are on their way', () => {
  it('lists what the inventory adds after what the files name, each list once, as one read of the whole scope', async () => {
    const owned = [
      { kind: 'Monitor' as const, key: 'old-monitor', id: 'mon_gone' },
      { kind: 'DatasetField' as const, key: 'beta/size', id: 'beta/size' },
    ];
    const { dir, outcome, lists } = await planOf({ 'inventory.json': inventoryText(owned) });
    expect(outcome.live?.listedKinds).toEqual(expect.arrayContaining(['Monitor', 'DatasetField']));
    expect(outcome.live?.listedDatasets.DatasetField).toEqual(['alpha', 'beta']);
    expect(outcome.live?.unavailable?.Role).toMatch(/^GET \/v2\/rbac\/roles answered 403/);
    expect(lists.filter((path) => path.startsWith('/v2/rbac/roles'))).toHaveLength(1);
    expect(lists.filter((path) => path.startsWith('/v2/monitors'))).toHaveLength(1);
    expect(lists.filter((path) => path.startsWith('/v2/datasets/'))).toEqual(['/v2/datasets/alpha/fields', '/v2/datasets/beta/fields']);
    expect(outcome.liveRequests).toBe(lists.length);

    // The same live state as one read of the scope the files and the inventory make together.
    const desired = await readDesired(join(dir, 'tree'), { env: {} });
    const inventory: Inventory = { version: 1, entries: owned, hashKey: '' };
    const whole = await readLive(client, liveScope(desired, inventory, DEFAULT_POLICY));
    expect({ ...outcome.live, requests: 0, queryAccess: undefined }).toEqual({ ...whole, requests: 0, queryAccess: undefined });
  });

  it('an inventory that adds nothing makes no second read', async () => {
    const { outcome, lists } = await planOf({ 'inventory.json': inventoryText([{ kind: 'DatasetField', key: 'alpha/latency', id: 'alpha/latency' }]) });
    expect(outcome.live?.listedDatasets.DatasetField).toEqual(['alpha']);
    expect(lists.filter((path) => path.startsWith('/v2/rbac/roles'))).toHaveLength(1);
    expect(lists.filter((path) => path.startsWith('/v2/datasets/'))).toEqual(['/v2/datasets/alpha/fields']);
    expect(outcome.plan?.changes.find((c) => c.kind === 'DatasetField')).toMatchObject({ key: 'alpha/latency', owned: true });
  });

  it('a corrupt inventory fails the plan naming the file, once the lists in flight are done', async () => {
    const dir = await scratch.dir();
    await writeTree(join(dir, 'tree'), TREE);
    await writeTree(join(dir, 'state'), { 'inventory.json': '{"version": 1, "entries": [{"kind": "Notifier"' });
    const run = reconcile({ dir: join(dir, 'tree'), env: {}, client, stateDir: join(dir, 'state'), policy: DEFAULT_POLICY, mode: 'plan' });
    await expect(run).rejects.toThrow(InventoryFileError);
    await expect(run).rejects.toThrow(join(dir, 'state', 'inventory.json'));
  });
});
