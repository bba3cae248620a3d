import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import type { LiveState } from '../../src/core/types.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { listKind, readLive, type LiveScope } from '../../src/live/index.js';
import { apiClientFor, useTestEmulator } from '../support/emulator.js';
import { workspaceSeed } from './workspace-seed.js';

const QUERIES = 1203;

const emulator = useTestEmulator();
let client: ApiClient;

beforeAll(async () => {
  await emulator.seed(workspaceSeed(QUERIES));
  client = apiClientFor(emulator, { retryCapMs: 10 });
});

afterAll(() => client.close());

beforeEach(async () => {
  await emulator.clearRequests();
});

const ids = (state: LiveState, kind: keyof LiveState['objects']): string[] => (state.objects[kind] ?? []).map((o) => o.id).sort();

describe('readLive', () => {
  it('reads each plain kind with one list call and no per-object GET', async () => {
    const scope: LiveScope = { kinds: ['Role', 'Notifier', 'Org', 'User', 'Monitor', 'Annotation', 'ApiToken'], datasets: {} };
    const live = await readLive(client, scope);
    expect(live.listedKinds).toEqual(scope.kinds);
    expect(live.objects.Notifier?.map((o) => o.raw.name).sort()).toEqual(['oncall-slack', 'ops-email']);
    expect(live.objects.Notifier?.every((o) => o.kind === 'Notifier' && o.id.startsWith('notify_') && o.raw.id === o.id)).toBe(true);
    expect(ids(live, 'User')).toEqual(['usr_00000000000000a1', 'usr_00000000000000b2']);
    expect(live.objects.Monitor).toEqual([]);

    const log = await emulator.requests();
    expect(log.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      ['/v2/rbac/roles', '/v2/notifiers', '/v2/orgs', '/v2/users', '/v2/monitors', '/v2/annotations', '/v2/tokens']
        .map((p) => `GET ${p}`)
        .sort(),
    );
    expect(live.requests).toBe(log.length);
  });

  it('pages starred queries with who=all, limit=1000 and offset until a short page', async () => {
    const live = await readLive(client, { kinds: ['StarredQuery'], datasets: {} });
    const names = live.objects.StarredQuery?.map((o) => o.raw.name) ?? [];
    expect(names).toHaveLength(QUERIES);
    expect(new Set(live.objects.StarredQuery?.map((o) => o.id)).size).toBe(QUERIES);
    // Both owners' queries: who=all, not only the caller's.
    expect(new Set(live.objects.StarredQuery?.map((o) => o.raw.who))).toEqual(new Set(['usr_00000000000000a1', 'usr_00000000000000b2']));
    expect((await emulator.requests()).map((r) => r.path)).toEqual([
      '/v2/apl-starred-queries?who=all&limit=1000&offset=0',
      '/v2/apl-starred-queries?who=all&limit=1000&offset=1000',
    ]);
    expect(live.requests).toBe(2);
  });

  it('lists per-dataset kinds once per dataset; a dataset that does not exist holds nothing', async () => {
    const live = await readLive(client, {
      kinds: ['VirtualField', 'DatasetField'],
      datasets: { VirtualField: ['checkout', 'nope', 'payments'], DatasetField: ['checkout', 'nope'] },
    });
    expect(live.listedKinds).toEqual(['VirtualField', 'DatasetField']);
    // Listed all the same: a dataset declared in the files may be created by this run, with nothing in it yet.
    expect(live.listedDatasets).toEqual({ VirtualField: ['checkout', 'nope', 'payments'], DatasetField: ['checkout', 'nope'] });
    expect(live.objects.VirtualField?.map((o) => `${String(o.raw.dataset)}/${String(o.raw.name)}`).sort()).toEqual([
      'checkout/is_error',
      'checkout/slow',
      'payments/big',
    ]);
    expect(live.objects.VirtualField?.every((o) => o.id.startsWith('vfld_'))).toBe(true);
    expect(live.objects.DatasetField?.map((o) => o.id).sort()).toEqual(['checkout/duration_ms', 'checkout/status']);
    expect(live.objects.DatasetField?.find((o) => o.id === 'checkout/status')?.raw).toMatchObject({
      dataset: 'checkout',
      name: 'status',
      type: 'integer',
    });
    const paths = (await emulator.requests()).map((r) => `${r.path} ${r.status}`).sort();
    expect(paths).toEqual([
      '/v2/datasets/checkout/fields 200',
      '/v2/datasets/nope/fields 404',
      '/v2/vfields?dataset=checkout 200',
      '/v2/vfields?dataset=nope 404',
      '/v2/vfields?dataset=payments 200',
    ]);
    expect(live.requests).toBe(5);
  });

  it('lists GET /v2/datasets first when every dataset is in play (pruneAll)', async () => {
    const live = await readLive(client, {
      kinds: ['DatasetField'],
      datasets: { DatasetField: ['checkout'] },
      allDatasets: ['DatasetField'],
    });
    expect(live.listedDatasets.DatasetField).toEqual(['checkout', 'http-logs', 'payments']);
    expect(ids(live, 'DatasetField')).toEqual(['checkout/duration_ms', 'checkout/status', 'http-logs/path', 'payments/amount']);
    const paths = (await emulator.requests()).map((r) => r.path);
    expect(paths[0]).toBe('/v2/datasets');
    expect(paths).toHaveLength(4);
  });

  it('reads an empty scope with no request', async () => {
    const live = await readLive(client, { kinds: [], datasets: {} });
    expect(live).toEqual({ objects: {}, listedKinds: [], listedDatasets: {}, requests: 0 });
  });

  it('fails the whole read on an error other than a missing dataset', async () => {
    const reader = apiClientFor(emulator, { token: () => 'not-a-token' });
    try {
      await expect(readLive(reader, { kinds: ['Notifier'], datasets: {} })).rejects.toThrow(/^GET \/v2\/notifiers: 401/);
    } finally {
      await reader.close();
    }
  });
});

describe('listKind', () => {
  it('lists one kind again, for apply after a POST without an answer', async () => {
    const notifiers = await listKind(client, 'Notifier');
    expect(notifiers.map((o) => o.raw.name).sort()).toEqual(['oncall-slack', 'ops-email']);
    expect((await listKind(client, 'VirtualField', ['payments'])).map((o) => o.raw.name)).toEqual(['big']);
    // Without datasets: every dataset.
    expect((await listKind(client, 'VirtualField')).map((o) => o.raw.name).sort()).toEqual(['big', 'is_error', 'slow']);
  });
});

describe('under faults and 429s', () => {
  const everything: LiveScope = {
    kinds: [...KIND_NAMES],
    datasets: { VirtualField: ['checkout', 'payments'], DatasetField: ['checkout', 'http-logs', 'payments'] },
  };

  it('still reads the same state, each request within its retry budget', async () => {
    const baseline = await readLive(client, everything);
    await emulator.faults({ faultRate: 0.3, resetRate: 0.15, latencyMs: [0, 5], seed: 7 });
    const faulty = apiClientFor(emulator, { retryCapMs: 20 });
    try {
      await emulator.clearRequests();
      const live = await readLive(faulty, everything);
      for (const kind of KIND_NAMES) expect(ids(live, kind)).toEqual(ids(baseline, kind));
      expect(live.listedDatasets).toEqual(baseline.listedDatasets);

      const log = await emulator.requests();
      // Faults did happen, and were retried: 5xx answers and destroyed connections.
      expect(log.filter((r) => r.status >= 500).length).toBeGreaterThan(0);
      expect(log.filter((r) => r.status === 0).length).toBeGreaterThan(0);
      expect(faulty.stats.retries).toBeGreaterThan(0);
      expect(live.requests).toBe(log.length);
      // No logical request used more than 1 + maxRetries (6) attempts.
      const perPath = new Map<string, number>();
      for (const r of log) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
      for (const count of perPath.values()) expect(count).toBeLessThanOrEqual(7);
    } finally {
      await emulator.faults({ faultRate: 0, resetRate: 0, latencyMs: null });
      await faulty.close();
    }
  });

  it('recovers when the server lowers its rate limit under it: 429s are retried after Retry-After', async () => {
    const paced = apiClientFor(emulator, { retryCapMs: 20 });
    try {
      const baseline = await readLive(paced, { kinds: ['Notifier'], datasets: {} }); // learns the default, huge limit
      await emulator.faults({ rateLimit: 3, rateWindowSeconds: 1 });
      await emulator.clearRequests();
      const scope: LiveScope = {
        kinds: ['Role', 'Notifier', 'Org', 'User', 'Monitor', 'ApiToken', 'VirtualField'],
        datasets: { VirtualField: ['checkout'] },
      };
      const live = await readLive(paced, scope);
      expect(ids(live, 'Notifier')).toEqual(ids(baseline, 'Notifier'));
      expect(live.objects.VirtualField).toHaveLength(2);
      const log = await emulator.requests();
      // Seven lists sent at the old pace: at most 3 a second got through, the rest were refused...
      const refused = log.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(paced.stats.rateLimited).toBe(refused.length);
      expect(log.filter((r) => r.status === 200)).toHaveLength(7);
      // ...and retried once the limit was known, paced under it: no request was refused twice.
      // (That no second saw more than 3 answers is the emulator's doing, not the client's.)
      expect(new Set(refused.map((r) => r.path)).size).toBe(refused.length);
      expect(live.requests).toBe(7 + refused.length);
    } finally {
      await emulator.faults({ rateLimit: null, rateWindowSeconds: 60 });
      await paced.close();
    }
  });
});
