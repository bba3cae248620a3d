// Auth and capabilities: Bearer tokens, and for each kind and each operation the capability the
// OpenAPI security entry names, with it (the documented success) and without it (403 naming it).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFixtures, methodOf, OPERATIONS, unique } from './fixtures.js';
import { TEST_TOKEN, useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { datasetCapabilityActions, orgCapabilityActions, requiredCapability, successStatus } from './openapi.js';

const harness = useTestEmulator({ seedFile: DEMO_SEED_FILE });
afterEach(() => {
  vi.useRealTimers();
});

const DATASET_SCOPED = new Set(['virtualFields', 'starredQueries']);

type Capabilities = Record<string, string[]>;

/** Every capability the document knows, minus `resource|action`. */
function allExcept(resource: string, action: string): { orgCapabilities: Capabilities; datasetCapabilities: Record<string, Capabilities> } {
  const strip = (table: Capabilities): Capabilities =>
    Object.fromEntries(
      Object.entries(table).map(([name, actions]) => [name, name === resource ? actions.filter((a) => a !== action) : actions]),
    );
  return { orgCapabilities: strip(orgCapabilityActions()), datasetCapabilities: { '*': strip(datasetCapabilityActions()) } };
}

function only(resource: string, action: string): { orgCapabilities: Capabilities; datasetCapabilities: Record<string, Capabilities> } {
  if (DATASET_SCOPED.has(resource)) return { orgCapabilities: {}, datasetCapabilities: { '*': { [resource]: [action] } } };
  // A monitor is seen only by a token that may query its datasets (docs/wire-contract.md "What the
  // token cannot see"), so a monitor operation needs that besides its own capability.
  const seeing: Record<string, Capabilities> = resource === 'monitors' ? { '*': { query: ['read'] } } : {};
  return { orgCapabilities: { [resource]: [action] }, datasetCapabilities: seeing };
}

async function tokenWith(capabilities: object): Promise<string> {
  const created = await harness.ok<{ token: string }>('POST', '/v2/tokens', { name: unique('cap'), ...capabilities });
  return created.token;
}

describe('authentication', () => {
  it('answers 401 without a token, with a malformed header and with an unknown token', async () => {
    expect((await harness.call('GET', '/v2/monitors', { token: null })).status).toBe(401);
    expect((await harness.call('GET', '/v2/monitors', { token: 'nope' })).status).toBe(401);
    const malformed = await fetch(`${harness.url}/v2/monitors`, { headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
    const body = (await malformed.json()) as { code: number; message: string };
    expect(body.code).toBe(401);
    expect(body.message).toMatch(/Bearer/);
  });

  it('accepts a created token exactly until it is deleted', async () => {
    const created = await harness.ok<{ id: string; token: string }>('POST', '/v2/tokens', {
      name: unique('t'),
      orgCapabilities: { monitors: ['read'] },
    });
    expect((await harness.call('GET', '/v2/monitors', { token: created.token })).status).toBe(200);
    expect((await harness.call('DELETE', `/v2/tokens/${created.id}`)).status).toBe(204);
    expect((await harness.call('GET', '/v2/monitors', { token: created.token })).status).toBe(401);
    expect((await harness.call('GET', `/v2/tokens/${created.id}`)).status).toBe(404);
  });

  it('returns the token secret only from create and regenerate', async () => {
    const created = await harness.ok<{ id: string; token: string }>('POST', '/v2/tokens', { name: unique('t') });
    expect(created.token).toMatch(/^xaat-/);
    const one = await harness.ok<Record<string, unknown>>('GET', `/v2/tokens/${created.id}`);
    expect(one).not.toHaveProperty('token');
    const list = await harness.ok<Record<string, unknown>[]>('GET', '/v2/tokens');
    expect(list.find((token) => token.id === created.id)).not.toHaveProperty('token');
    const regenerated = await harness.ok<{ id: string; token: string }>('POST', `/v2/tokens/${created.id}/regenerate`, {
      existingTokenExpiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(regenerated.token).toMatch(/^xaat-/);
    expect(regenerated.token).not.toBe(created.token);
    expect(regenerated.id).not.toBe(created.id);
  });

  it('regenerate retires the old token at existingTokenExpiresAt and keeps its capabilities', async () => {
    const old = await harness.ok<{ id: string; token: string }>('POST', '/v2/tokens', {
      name: unique('rotate'),
      orgCapabilities: { monitors: ['read'] },
    });
    const fresh = await harness.ok<{ id: string; token: string; name: string; orgCapabilities: unknown }>(
      'POST',
      `/v2/tokens/${old.id}/regenerate`,
      { existingTokenExpiresAt: new Date().toISOString() },
    );
    expect(fresh.orgCapabilities).toEqual({ monitors: ['read'] });
    expect((await harness.call('GET', '/v2/monitors', { token: old.token })).status).toBe(401);
    expect((await harness.call('GET', '/v2/monitors', { token: fresh.token })).status).toBe(200);
    const listed = await harness.ok<{ id: string }[]>('GET', '/v2/tokens');
    expect(listed.map((token) => token.id)).not.toContain(old.id);
  });

  it('refuses a token whose expiresAt has passed, and refuses to create one already expired', async () => {
    const past = await harness.call('POST', '/v2/tokens', { body: { name: 'old', expiresAt: '2001-01-01T00:00:00Z' } });
    expect(past.status).toBe(400);
    expect((past.body as { message: string }).message).toMatch(/expiresAt.*future/);
    // The emulator's clock is this process's Date: stopped, then moved past the expiry.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:00.000Z') });
    const soon = await harness.ok<{ token: string }>('POST', '/v2/tokens', {
      name: unique('short'),
      expiresAt: '2026-01-01T00:00:00.700Z',
      orgCapabilities: { monitors: ['read'] },
    });
    vi.setSystemTime(Date.parse('2026-01-01T00:00:00.699Z'));
    expect((await harness.call('GET', '/v2/monitors', { token: soon.token })).status).toBe(200);
    vi.setSystemTime(Date.parse('2026-01-01T00:00:00.800Z'));
    const expired = await harness.call('GET', '/v2/monitors', { token: soon.token });
    expect(expired.status).toBe(401);
    expect((expired.body as { message: string }).message).toMatch(/expired/);
  });

  it('lets only the admin token use /_emulator/*', async () => {
    expect((await harness.call('GET', '/_emulator/requests', { token: null })).status).toBe(401);
    const token = await tokenWith(allExcept('none', 'none'));
    expect((await harness.call('GET', '/_emulator/requests', { token })).status).toBe(403);
    expect((await harness.call('GET', '/_emulator/requests', { token: TEST_TOKEN })).status).toBe(200);
  });
});

describe('capabilities per operation (from the OpenAPI security entries)', () => {
  for (const operation of OPERATIONS) {
    const capability = operation.capability ?? requiredCapability(operation.op);
    if (!capability) {
      it(`${operation.op}: needs no capability, any valid token will do`, async () => {
        const fx = await createFixtures(harness);
        const token = await tokenWith({});
        const answer = await harness.call(methodOf(operation), `/v2${operation.path(fx)}`, { body: operation.body?.(fx), token });
        expect(answer.status, answer.text).toBe(operation.status ?? successStatus(operation.op));
      });
      continue;
    }
    const [resource = '', action = ''] = capability.split('|');
    it(`${operation.op}: 403 naming "${capability}" without it`, async () => {
      const fx = await createFixtures(harness);
      const token = await tokenWith(allExcept(resource, action));
      const answer = await harness.call(methodOf(operation), `/v2${operation.path(fx)}`, { body: operation.body?.(fx), token });
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body).toEqual({ code: 403, message: expect.stringContaining(`"${capability}"`) });
    });
    it(`${operation.op}: succeeds with only "${capability}"`, async () => {
      const fx = await createFixtures(harness);
      const token = await tokenWith(only(resource, action));
      const answer = await harness.call(methodOf(operation), `/v2${operation.path(fx)}`, { body: operation.body?.(fx), token });
      expect(answer.status, answer.text).toBe(operation.status ?? successStatus(operation.op));
    });
  }
});

describe('dataset-scoped capabilities', () => {
  it('grants virtualFields and starredQueries per dataset, or for all with "*"', async () => {
    const token = await tokenWith({ datasetCapabilities: { checkout: { virtualFields: ['read', 'create'], starredQueries: ['read'] } } });
    const call = (method: string, path: string, body?: unknown) => harness.call(method, path, { token, body });
    expect((await call('GET', '/v2/vfields?dataset=checkout')).status).toBe(200);
    const elsewhere = await call('GET', '/v2/vfields?dataset=payments');
    expect(elsewhere.status).toBe(403);
    expect((elsewhere.body as { message: string }).message).toMatch(/"virtualFields\|read" on dataset "payments"/);
    const vfield = { name: unique('v'), expression: 'true' };
    expect((await call('POST', '/v2/vfields', { ...vfield, dataset: 'checkout' })).status).toBe(200);
    expect((await call('POST', '/v2/vfields', { ...vfield, dataset: 'payments' })).status).toBe(403);
    expect((await call('GET', '/v2/apl-starred-queries?who=all&dataset=checkout')).status).toBe(200);
    // Without a dataset filter only datasetCapabilities["*"] grants.
    expect((await call('GET', '/v2/apl-starred-queries?who=all')).status).toBe(403);
  });
});
