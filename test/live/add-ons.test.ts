// Kinds of an add-on a workspace may lack (Role: RBAC): a 403 or 404 on their list makes the kind
// unavailable, not the whole read a failure; any other kind's refusal still fails the read.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { readLive } from '../../src/live/index.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../support/emulator.js';

let emulator: TestEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function readWith(options: { rbac: boolean; rbacStatus?: 403 | 404 }, token = TEST_TOKEN) {
  emulator = await startTestEmulator({ seed: 42, ...options });
  const client = createApiClient({ url: emulator.url, token: () => token, retryBaseMs: 1, retryCapMs: 10 });
  try {
    return await readLive(client, { kinds: ['Role', 'Notifier', 'User'], datasets: {} });
  } finally {
    await client.close();
  }
}

describe('readLive and add-ons', () => {
  it.each([403, 404] as const)('a workspace without RBAC (%i on /v2/rbac/roles): roles are unavailable, the rest is read', async (status) => {
    const live = await readWith({ rbac: false, rbacStatus: status });
    expect(live.listedKinds).toEqual(['Notifier', 'User']);
    expect(live.objects.Role).toBeUndefined();
    expect(live.unavailable?.Role).toMatch(new RegExp(`^GET /v2/rbac/roles answered ${status}: .*RBAC .*not available on this workspace`));
    expect(live.unavailable?.Notifier).toBeUndefined();
  });

  it('a workspace with RBAC lists roles as any kind', async () => {
    const live = await readWith({ rbac: true });
    expect(live.listedKinds).toEqual(['Role', 'Notifier', 'User']);
    expect(live.unavailable).toBeUndefined();
  });

  it('a kind that needs no add-on still fails the read on 403 (a token without the capability)', async () => {
    emulator = await startTestEmulator({ seed: 42 });
    const created = await fetch(`${emulator.url}/v2/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'roles-only', orgCapabilities: { rbac: ['read'] } }),
    });
    const { token } = (await created.json()) as { token: string };
    const client = createApiClient({ url: emulator.url, token: () => token, retryBaseMs: 1, retryCapMs: 10 });
    try {
      await expect(readLive(client, { kinds: ['Role', 'Notifier'], datasets: {} })).rejects.toThrow(/403/);
    } finally {
      await client.close();
    }
  });
});
