// The write channel with the real client over 127.0.0.1 against a scripted server: an update
// answered "stale version" is written again over the object as it is now (the hook Dashboards
// need), and a POST whose answer was lost is found by listing again.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import { ApplyIndex } from '../../src/apply/name-index.js';
import { WriteChannel } from '../../src/apply/writes.js';
import type { Change, JsonObject } from '../../src/core/types.js';
import { KINDS } from '../../src/kinds/index.js';
import type { KindModule } from '../../src/kinds/types.js';
import { startScriptServer, type Scripted, type ScriptServer } from '../api/script-server.js';
import { desiredOf, liveOf, obj, resource } from '../plan/builders.js';

let server: ScriptServer | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

const spec: JsonObject = { type: 'MatchEvent', aplQuery: "['x']" };
const declared = resource('Monitor', 'm', spec);
const listed = obj('Monitor', { id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: "['x']", version: 3 });
const update: Change = { kind: 'Monitor', key: 'm', name: 'm', action: 'update', id: 'mon_1', diffs: [], dependsOn: [], level: 2, owned: true };

/** A monitor that writes with the version it read, as a kind with optimistic locking would. */
const versioned: KindModule = {
  ...KINDS.Monitor,
  staleWriteStatuses: [409, 412],
  toWire: (name, s, resolve, live) => ({ ...KINDS.Monitor.toWire(name, s, resolve, live), version: live?.raw.version ?? null }),
};

async function channelFor(script: (method: string, url: string) => Scripted): Promise<{ channel: WriteChannel; server: ScriptServer }> {
  server = await startScriptServer((req) => script(req.method, req.url));
  client = createApiClient({ url: server.url, token: () => 'test-token', retryBaseMs: 1, maxRetries: 0 });
  const live = liveOf([listed]);
  return { channel: new WriteChannel(client, new ApplyIndex(desiredOf(declared), live), live), server };
}

describe('WriteChannel', () => {
  it('writes an update again over the object as it is now when the kind says the answer means a stale version', async () => {
    let puts = 0;
    const { channel, server: s } = await channelFor((method) => {
      if (method === 'GET') return { body: [{ ...listed.raw, version: 4 }] };
      return ++puts === 1 ? { status: 412, body: { message: 'version mismatch' } } : { body: { id: 'mon_1' } };
    });
    await channel.update(update, versioned, declared, 'mon_1');
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['PUT /v2/monitors/mon_1', 'GET /v2/monitors', 'PUT /v2/monitors/mon_1']);
    expect((JSON.parse(s.seen[0]!.body) as JsonObject).version).toBe(3);
    expect((JSON.parse(s.seen[2]!.body) as JsonObject).version).toBe(4);
    expect(channel.writes).toBe(2);
  });

  it('fails the update when the object is gone on the second look, and on a second stale answer', async () => {
    const gone = await channelFor((method) => (method === 'GET' ? { body: [] } : { status: 409 }));
    await expect(gone.channel.update(update, versioned, declared, 'mon_1')).rejects.toThrow(
      'PUT /v2/monitors/mon_1: 409 Conflict; listing Monitor again found the object gone',
    );
    await client?.close();
    await server?.close();
    const twice = await channelFor((method) => (method === 'GET' ? { body: [listed.raw] } : { status: 412 }));
    await expect(twice.channel.update(update, versioned, declared, 'mon_1')).rejects.toBeInstanceOf(ApiError);
    expect(twice.server.seen.map((r) => r.method)).toEqual(['PUT', 'GET', 'PUT']);
  });

  it('does not retry a stale-looking status for a kind that does not declare it', async () => {
    const { channel, server: s } = await channelFor(() => ({ status: 412 }));
    await expect(channel.update(update, KINDS.Monitor, declared, 'mon_1')).rejects.toThrow('412');
    expect(s.seen.map((r) => r.method)).toEqual(['PUT']);
  });

  it('finds the object a POST created when its answer was lost, by listing the kind again', async () => {
    const created = { id: 'mon_2', name: 'new', type: 'MatchEvent', aplQuery: "['x']" };
    const { channel, server: s } = await channelFor((method) => (method === 'POST' ? { destroy: true } : { body: [listed.raw, created] }));
    const fresh = resource('Monitor', 'new', spec);
    const endpoint = KINDS.Monitor.create!;
    const result = await channel.postWithRecovery('Monitor', 'new', fresh, () => channel.send(endpoint, channel.wireBody(KINDS.Monitor, fresh, undefined)));
    expect(result).toEqual({ raw: created, recovered: true });
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'GET']);
  });
});
