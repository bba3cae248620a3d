import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import type { LiveState } from '../../src/core/types.js';
import { LiveCache, readLive, type LiveScope } from '../../src/live/index.js';
import { READ_BACK_LIMIT } from '../../src/live/live-cache.js';
import { apiClientFor, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { workspaceSeed } from './workspace-seed.js';

let emulator: TestEmulator;
let client: ApiClient;

beforeAll(async () => {
  emulator = await startTestEmulator({ seed: 42 });
  await emulator.seed(workspaceSeed(3));
  client = apiClientFor(emulator, { retryCapMs: 10 });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

beforeEach(async () => {
  await emulator.clearRequests();
});

const SCOPE: LiveScope = { kinds: ['Notifier', 'Monitor', 'VirtualField'], datasets: { VirtualField: ['checkout', 'payments'] } };

/** A live state as plain data, `requests` left out: what a plan sees. */
function seen(live: LiveState): unknown {
  return { objects: live.objects, listedKinds: live.listedKinds, listedDatasets: live.listedDatasets };
}

function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('the live cache', () => {
  it('serves a second read from the first one while it is younger than its age limit, then lists again', async () => {
    const clock = fakeClock();
    const cache = new LiveCache({ maxAgeMs: 60_000, clock: clock.now });
    const first = await cache.read(client, SCOPE);
    expect(first.reused).toBe(false);
    expect(seen(first.live)).toEqual(seen(await readLive(client, SCOPE)));
    await emulator.clearRequests();

    clock.advance(59_999);
    const second = await cache.read(client, SCOPE);
    expect(second.reused).toBe(true);
    expect(second.live.requests).toBe(0);
    expect(await emulator.requests()).toEqual([]);
    expect(second.live.objects.Notifier).toBe(first.live.objects.Notifier);

    clock.advance(1);
    const third = await cache.read(client, SCOPE);
    expect(third.reused).toBe(false);
    expect((await emulator.requests()).map((r) => r.path).sort()).toEqual([
      '/v2/monitors',
      '/v2/notifiers',
      '/v2/vfields?dataset=checkout',
      '/v2/vfields?dataset=payments',
    ].sort());
  });

  it('lists only what a wider scope adds; invalidate forgets everything', async () => {
    const cache = new LiveCache({ maxAgeMs: 60_000, clock: fakeClock().now });
    await cache.read(client, SCOPE);
    await emulator.clearRequests();
    const wider: LiveScope = { kinds: ['User', 'Notifier', 'Monitor', 'VirtualField'], datasets: { VirtualField: ['checkout', 'http-logs', 'payments'] } };
    const read = await cache.read(client, wider);
    expect(read.reused).toBe(true);
    expect((await emulator.requests()).map((r) => r.path).sort()).toEqual(['/v2/users', '/v2/vfields?dataset=http-logs']);
    expect(seen(read.live)).toEqual(seen(await readLive(client, wider)));

    cache.invalidate();
    expect((await cache.read(client, SCOPE)).reused).toBe(false);
  });

  it('after writes, reads back the written objects and lists the kinds that refer to them: what a full read finds, unchanged objects kept', async () => {
    const cache = new LiveCache({ maxAgeMs: 60_000, clock: fakeClock().now });
    const before = (await cache.read(client, SCOPE)).live;
    const created = await client.request<{ id: string }>({ method: 'POST', path: '/v2/notifiers', body: { name: 'pager', properties: { email: { emails: ['p@example.com'] } } } });
    const vfield = await client.request<{ id: string }>({ method: 'POST', path: '/v2/vfields', body: { name: 'fast', expression: 'duration_ms < 10', dataset: 'checkout' } });
    await emulator.clearRequests();

    await cache.refresh(client, [{ kind: 'Notifier', id: created.body.id }]);
    // Monitors refer to notifiers: listed again too; virtual fields are not.
    expect((await emulator.requests()).map((r) => r.path).sort()).toEqual(['/v2/monitors', `/v2/notifiers/${created.body.id}`]);
    const after = (await cache.read(client, SCOPE)).live;
    const full = await readLive(client, SCOPE);
    expect(after.objects.Notifier).toEqual(full.objects.Notifier);
    expect(after.objects.Notifier?.map((o) => o.raw.name).sort()).toEqual(['oncall-slack', 'ops-email', 'pager']);
    // The notifiers that did not change are the very objects read before (the planner's memo is keyed by them).
    for (const object of before.objects.Notifier ?? []) expect(after.objects.Notifier).toContain(object);
    // Not written through wsync: the cache does not see the new virtual field until it lists again.
    expect(after.objects.VirtualField).toHaveLength((full.objects.VirtualField?.length ?? 0) - 1);
    // Virtual fields are listed per dataset, not read one by one.
    await emulator.clearRequests();
    await cache.refresh(client, [{ kind: 'VirtualField', id: vfield.body.id }]);
    expect((await emulator.requests()).map((r) => r.path).sort()).toEqual(['/v2/vfields?dataset=checkout', '/v2/vfields?dataset=payments']);
    expect(seen((await cache.read(client, SCOPE)).live)).toEqual(seen(await readLive(client, SCOPE)));
  });

  it('reads back an updated and a created object with one GET each, nothing listed; the result is what a full read finds', async () => {
    const notifierIds = (await readLive(client, SCOPE)).objects.Notifier?.map((o) => o.id) ?? [];
    const monitor = (name: string, threshold: number) => ({
      name,
      type: 'Threshold',
      aplQuery: "['checkout'] | summarize count()",
      operator: 'Above',
      threshold,
      intervalMinutes: 5,
      rangeMinutes: 5,
      notifierIds,
    });
    const ids: string[] = [];
    for (const name of ['latency', 'errors', 'saturation']) ids.push((await client.request<{ id: string }>({ method: 'POST', path: '/v2/monitors', body: monitor(name, 1) })).body.id);
    const cache = new LiveCache({ maxAgeMs: 60_000, clock: fakeClock().now });
    const before = (await cache.read(client, SCOPE)).live;

    await client.request({ method: 'PUT', path: `/v2/monitors/${ids[1]}`, body: monitor('errors', 2) });
    const created = await client.request<{ id: string }>({ method: 'POST', path: '/v2/monitors', body: monitor('traffic', 3) });
    await emulator.clearRequests();
    await cache.refresh(client, [
      { kind: 'Monitor', id: ids[1] },
      { kind: 'Monitor', id: created.body.id },
    ]);
    expect((await emulator.requests()).map((r) => `${r.method} ${r.path}`).sort()).toEqual([`GET /v2/monitors/${created.body.id}`, `GET /v2/monitors/${ids[1]}`].sort());

    const after = (await cache.read(client, SCOPE)).live;
    expect(seen(after)).toEqual(seen(await readLive(client, SCOPE)));
    const byId = new Map(after.objects.Monitor?.map((o) => [o.id, o]));
    expect(byId.get(ids[0]!)).toBe(before.objects.Monitor?.find((o) => o.id === ids[0]));
    expect(byId.get(ids[1]!)?.raw.threshold).toBe(2);
    expect(byId.get(created.body.id)?.raw.name).toBe('traffic');
    for (const id of [...ids, created.body.id]) await client.request({ method: 'DELETE', path: `/v2/monitors/${id}` });
  });

  it(`lists the kind instead when more than ${READ_BACK_LIMIT} of its objects were written, or one without a known id`, async () => {
    const cache = new LiveCache({ maxAgeMs: 60_000, clock: fakeClock().now });
    const notifiers = (await cache.read(client, SCOPE)).live.objects.Notifier ?? [];
    const many = Array.from({ length: READ_BACK_LIMIT + 1 }, (_, i) => ({ kind: 'Notifier' as const, id: notifiers[i % notifiers.length]!.id + String(i) }));
    for (const written of [many, [{ kind: 'Notifier' as const }]]) {
      await emulator.clearRequests();
      await cache.refresh(client, written);
      expect((await emulator.requests()).map((r) => r.path).sort()).toEqual(['/v2/monitors', '/v2/notifiers']);
    }
  });

  it('forgets everything when an object it reads back is gone (deleted by someone right after the write)', async () => {
    const cache = new LiveCache({ maxAgeMs: 60_000, clock: fakeClock().now });
    await cache.read(client, SCOPE);
    await expect(cache.refresh(client, [{ kind: 'Monitor', id: 'mon_0000000000000000' }])).rejects.toMatchObject({ status: 404 });
    expect((await cache.read(client, SCOPE)).reused).toBe(false);
  });
});
