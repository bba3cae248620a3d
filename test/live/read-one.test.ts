import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiStats } from '../../src/api/types.js';
import type { JsonValue } from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { listWhole, readOne } from '../../src/live/read.js';
import { apiClientFor, useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { createFixtures } from '../emulator/fixtures.js';

const emulator = useTestEmulator({ seedFile: DEMO_SEED_FILE });

describe('reading one object back (KindModule.read)', () => {
  it('is declared by every kind listed whole, and by no kind listed per dataset', () => {
    for (const kind of KIND_NAMES) expect(KINDS[kind].read !== undefined, kind).toBe(KINDS[kind].list.style !== 'per-dataset');
  });

  it('answers every object of every such kind exactly as its list does', async () => {
    await createFixtures(emulator);
    const client = apiClientFor(emulator);
    try {
      for (const kind of KIND_NAMES.filter((k) => KINDS[k].read)) {
        const listed = await listWhole(client, kind);
        expect(listed.length, kind).toBeGreaterThan(0);
        for (const object of listed) expect(await readOne(client, kind, object.id), `${kind} ${object.id}`).toEqual(object);
      }
    } finally {
      await client.close();
    }
  });

  it('refuses an answer that is another object or no object, naming the request; a gone object is the API error', async () => {
    // The emulator never answers another object: a client that answers what it is given plays the confused server.
    const answering = (body: JsonValue): ApiClient => ({
      request: <T>() => Promise.resolve({ status: 200, body: body as T, headers: {} }),
      stats: { requests: 0, byMethodStatus: {}, retries: 0, rateLimited: 0 } satisfies ApiStats,
      close: () => Promise.resolve(),
    });
    await expect(readOne(answering({ id: 'mon_b', name: 'other' }), 'Monitor', 'mon_a')).rejects.toThrow(
      'GET /v2/monitors/mon_a: answered another Monitor, mon_b',
    );
    await expect(readOne(answering([{ id: 'mon_a' }]), 'Monitor', 'mon_a')).rejects.toThrow('GET /v2/monitors/mon_a: expected a JSON object, got an array');
    await expect(readOne(answering({ id: 'mon_a' }), 'VirtualField', 'vfld_a')).rejects.toThrow('VirtualField objects cannot be read one at a time');

    const client = apiClientFor(emulator);
    try {
      await expect(readOne(client, 'Notifier', 'notify_0000000000000000')).rejects.toMatchObject({ status: 404 });
    } finally {
      await client.close();
    }
  });
});
