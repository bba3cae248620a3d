// A plan lists what its inventory names while it reads its files; what the files add is listed
// after. The two reads must join into exactly what one read of the whole scope gives.
import { describe, expect, it } from 'vitest';
import type { LiveObject, LiveState } from '../../src/core/types.js';
import { inventoryScope, mergeLive, missingScope } from '../../src/live/prefetch.js';
import { liveScope } from '../../src/live/scope.js';
import { desiredOf, inventoryOf, policyOf, resource } from '../plan/builders.js';

const object = (kind: LiveObject['kind'], id: string): LiveObject => ({ kind, id, raw: { id } });

describe('prefetched live state', () => {
  it('lists first what the inventory names; the files add only what it lacks', () => {
    const inventory = inventoryOf([
      { kind: 'Monitor', key: 'm', id: 'mon_1' },
      { kind: 'VirtualField', key: 'http/v', id: 'vf_1' },
    ]);
    const early = inventoryScope(inventory, policyOf());
    expect(early).toEqual({ kinds: ['Monitor', 'VirtualField'], datasets: { VirtualField: ['http'] } });
    const desired = desiredOf(
      resource('Monitor', 'm', { type: 'Threshold', aplQuery: 'x', notifiers: ['n'] }),
      resource('VirtualField', 'v2', { dataset: 'logs', expression: 'x' }),
    );
    const wanted = liveScope(desired, inventory, policyOf());
    expect(missingScope(wanted, early)).toEqual({ kinds: expect.arrayContaining(['Notifier', 'VirtualField']), datasets: { VirtualField: ['logs'] } });
    expect(missingScope(early, early)).toBeUndefined();
  });

  it('joins two reads as one: objects, listed kinds and datasets, unavailable kinds, requests', () => {
    const a: LiveState = {
      objects: { Monitor: [object('Monitor', 'mon_1')], VirtualField: [object('VirtualField', 'vf_1')] },
      listedKinds: ['VirtualField', 'Monitor'],
      listedDatasets: { VirtualField: ['http'] },
      requests: 2,
    };
    const b: LiveState = {
      objects: { Notifier: [object('Notifier', 'n_1')], VirtualField: [object('VirtualField', 'vf_2'), object('VirtualField', 'vf_1')] },
      listedKinds: ['Notifier', 'VirtualField'],
      listedDatasets: { VirtualField: ['logs'] },
      unavailable: { Role: 'GET /v2/rbac/roles answered 403' },
      requests: 2,
    };
    const merged = mergeLive(a, b);
    expect(merged.listedKinds).toEqual(['Notifier', 'Monitor', 'VirtualField']);
    expect(merged.listedDatasets).toEqual({ VirtualField: ['http', 'logs'] });
    expect(merged.objects.VirtualField?.map((o) => o.id)).toEqual(['vf_1', 'vf_2']);
    expect(merged.objects.Notifier?.map((o) => o.id)).toEqual(['n_1']);
    expect(merged.unavailable).toEqual({ Role: 'GET /v2/rbac/roles answered 403' });
    expect(merged.requests).toBe(4);
  });
});
