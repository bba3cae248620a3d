import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Desired, type DesiredResource, type Inventory, type JsonObject, type KindName } from '../../src/core/types.js';
import { liveScope } from '../../src/live/scope.js';

function resource(kind: KindName, name: string, spec: JsonObject = {}, key = name): DesiredResource {
  return { kind, name, key, annotations: {}, spec, source: { file: 'x.yaml', line: 1, column: 1 }, locations: {}, interpolated: [] };
}

function desired(...resources: DesiredResource[]): Desired {
  return { resources, diagnostics: [], stats: { files: 1, documents: resources.length, skipped: 0 }, secretValues: [] };
}

const noInventory: Inventory = { version: 1, entries: [], hashKey: 'k' };

describe('liveScope', () => {
  it('is empty for an empty directory and no inventory', () => {
    expect(liveScope(desired(), noInventory, DEFAULT_POLICY)).toEqual({ kinds: [], datasets: {} });
  });

  it('adds the targets of references of declared kinds, in dependency order', () => {
    expect(liveScope(desired(resource('Monitor', 'm')), noInventory, DEFAULT_POLICY).kinds).toEqual(['Notifier', 'Monitor']);
    // Kinds that may name a dataset read the datasets, to check those names at plan time.
    expect(liveScope(desired(resource('StarredQuery', 'q', {}, 'a@x/q')), noInventory, DEFAULT_POLICY).kinds).toEqual([
      'Dataset',
      'User',
      'StarredQuery',
    ]);
    // No dataset named in its capabilities: datasets are not read for it.
    expect(liveScope(desired(resource('Role', 'r')), noInventory, DEFAULT_POLICY).kinds).toEqual(['Role', 'User']);
    expect(liveScope(desired(resource('User', 'a@x', { role: 'sre' })), noInventory, DEFAULT_POLICY).kinds).toEqual(['Role', 'User']);
    // Not transitive: a starred query's owner is resolved by email, the owner's role is not needed.
    expect(liveScope(desired(resource('StarredQuery', 'q')), noInventory, DEFAULT_POLICY).kinds).not.toContain('Role');
  });

  it('does not read roles for users whose roles are all built-in (RBAC is an add-on a workspace may lack)', () => {
    const builtins = ['owner', 'Admin', 'user', 'read-only', 'NONE'].map((role, i) => resource('User', `u${i}@x`, { role }));
    expect(liveScope(desired(...builtins), noInventory, DEFAULT_POLICY).kinds).toEqual(['User']);
    const withCustom = [...builtins, resource('User', 'c@x', { role: 'auditors' })];
    expect(liveScope(desired(...withCustom), noInventory, DEFAULT_POLICY).kinds).toEqual(['Role', 'User']);
  });

  it('adds kinds of the inventory and of pruneAll', () => {
    const inventory: Inventory = { version: 1, hashKey: 'k', entries: [{ kind: 'ApiToken', key: 'ci', id: 'tok_1' }] };
    const scope = liveScope(desired(resource('Notifier', 'n')), inventory, { ...DEFAULT_POLICY, pruneAll: ['Org'] });
    expect(scope.kinds).toEqual(['Notifier', 'Org', 'ApiToken']);
    expect(scope.allDatasets).toBeUndefined();
  });

  it('collects the datasets of per-dataset kinds from the files and the inventory, sorted and deduplicated', () => {
    const inventory: Inventory = {
      version: 1,
      hashKey: 'k',
      entries: [
        { kind: 'VirtualField', key: 'payments/big', id: 'vfld_1' },
        { kind: 'DatasetField', key: 'http-logs/path', id: 'http-logs/path' },
        { kind: 'Monitor', key: 'm', id: 'mon_1' },
      ],
    };
    const scope = liveScope(
      desired(
        resource('VirtualField', 'slow', { dataset: 'checkout' }, 'checkout/slow'),
        resource('VirtualField', 'err', { dataset: 'checkout' }, 'checkout/err'),
        resource('DatasetField', 'status', { dataset: 'checkout' }, 'checkout/status'),
        resource('Annotation', 'deploy 1', { type: 'deploy', datasets: ['checkout'] }, 'deploy/deploy 1'),
      ),
      inventory,
      DEFAULT_POLICY,
    );
    expect(scope.kinds).toEqual(['Dataset', 'Monitor', 'VirtualField', 'DatasetField', 'Annotation']);
    expect(scope.datasets).toEqual({ VirtualField: ['checkout', 'payments'], DatasetField: ['checkout', 'http-logs'] });
  });

  it('asks for every dataset of a per-dataset kind in pruneAll', () => {
    const scope = liveScope(
      desired(resource('VirtualField', 'slow', { dataset: 'checkout' }, 'checkout/slow')),
      noInventory,
      { ...DEFAULT_POLICY, pruneAll: ['VirtualField', 'Monitor'] },
    );
    expect(scope).toEqual({
      kinds: ['Dataset', 'Monitor', 'VirtualField'],
      datasets: { VirtualField: ['checkout'] },
      allDatasets: ['VirtualField'],
    });
  });
});
