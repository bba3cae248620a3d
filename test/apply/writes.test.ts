// The write channel with the real client over 127.0.0.1 against a scripted server: an update
// answered "stale version" is re-planned against the object as it is now and never written over
// (the hook Dashboards need), and a POST whose answer was lost is found by listing again.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { KeyIdIndex } from '../../src/apply/key-id-index.js';
import { SkipChange } from '../../src/apply/types.js';
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
  return { channel: new WriteChannel(client, new KeyIdIndex(desiredOf(declared), live)), server };
}

describe('WriteChannel', () => {
  it('never writes over an object saved since the plan: it is re-planned and skipped, saying what differs', async () => {
    const { channel, server: s } = await channelFor((method) => {
      if (method === 'GET') return { body: [{ ...listed.raw, aplQuery: "['y']", version: 4 }] };
      return { status: 412, body: { message: 'version mismatch' } };
    });
    const failure = await channel.update(update, versioned, declared, 'mon_1').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SkipChange);
    expect((failure as Error).message).toMatch(
      /^changed in the workspace since the plan: not written over\. Re-planned against it: 1 field differ \(aplQuery\); the next apply or reconcile writes it$/,
    );
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['PUT /v2/monitors/mon_1', 'GET /v2/monitors']);
    expect((JSON.parse(s.seen[0]!.body) as JsonObject).version).toBe(3);
    expect(channel.writes).toBe(1);
  });

  it('is done without a write when the object saved since the plan now matches the files, and skipped when it is gone', async () => {
    const same = await channelFor((method) => (method === 'GET' ? { body: [{ ...listed.raw, version: 4 }] } : { status: 409 }));
    expect(await same.channel.update(update, versioned, declared, 'mon_1')).toEqual({
      note: 'changed in the workspace since the plan; it now matches the files, nothing written',
    });
    expect(same.server.seen.map((r) => r.method)).toEqual(['PUT', 'GET']);
    await client?.close();
    await server?.close();
    const gone = await channelFor((method) => (method === 'GET' ? { body: [] } : { status: 409 }));
    await expect(gone.channel.update(update, versioned, declared, 'mon_1')).rejects.toThrow(
      'changed in the workspace since the plan (PUT /v2/monitors/mon_1: 409 Conflict) and is gone now; the next apply creates it',
    );
  });

  it('says which version an update replaced and which it made, for a kind that versions its objects', async () => {
    const withVersions: KindModule = { ...versioned, versionOf: (raw) => (typeof raw.version === 'number' ? raw.version : undefined) };
    const { channel } = await channelFor(() => ({ body: { ...listed.raw, version: 4 } }));
    expect(await channel.update(update, withVersions, declared, 'mon_1')).toEqual({ versions: { replaced: 3, written: 4 } });
    expect(await channel.update(update, versioned, declared, 'mon_1')).toEqual({});
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
