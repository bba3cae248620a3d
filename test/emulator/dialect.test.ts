// The emulator answers like the real service where the service's public clients show it
// (docs/wire-contract.md, #13): base roles, monitor defaults and spellings, MPL, Go's zero time,
// annotation merges, RBAC as an add-on, annotations a triggered monitor makes.
import { describe, expect, it } from 'vitest';
import { startTestEmulator, useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { conformanceProblems } from './conformance.js';
import { bodies, unique } from './fixtures.js';

const harness = useTestEmulator({ seedFile: DEMO_SEED_FILE, seed: 7 });

type Obj = Record<string, unknown>;
const ZERO = '0001-01-01T00:00:00Z';

/** A 2xx answer that also conforms to the OpenAPI response schema; its body. */
async function ok<T = Obj>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await harness.call(method, path, { body });
  expect(answer.status, answer.text).toBeLessThan(300);
  if (!path.startsWith('/_emulator/')) expect(conformanceProblems(method, path, answer)).toEqual([]);
  return answer.body as T;
}

async function expectError(method: string, path: string, body: unknown, status: number, message: RegExp): Promise<void> {
  const answer = await harness.call(method, path, { body });
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ code: status, message: expect.stringMatching(message) });
  if (!path.startsWith('/_emulator/')) expect(conformanceProblems(method, path, answer)).toEqual([]);
}

describe('base roles', () => {
  it('takes owner, admin, user, read-only and none in any letter case and answers their labels', async () => {
    const labels = { owner: 'Owner', admin: 'Admin', user: 'User', 'read-only': 'Read-only', none: 'None' };
    for (const [id, name] of Object.entries(labels)) {
      const created = await ok<Obj>('POST', '/v2/users', { name: 'R', email: `${unique(id)}@example.com`, role: id.toUpperCase() });
      expect(created.role).toEqual({ id, name });
    }
  });

  it('refuses member, which only the OpenAPI example names', async () => {
    await expectError('POST', '/v2/users', { name: 'M', email: `${unique('m')}@example.com`, role: 'member' }, 400, /owner, admin, user, read-only, none/);
  });
});

describe('monitors', () => {
  it('answers every default: threshold always, triggerAfterNPositiveResults 0, no empty operator', async () => {
    const monitor = await ok<Obj>('POST', '/v2/monitors', { name: unique('m'), type: 'MatchEvent', aplQuery: 'x', operator: '' });
    expect(monitor).toMatchObject({ threshold: 0, tolerance: 0, compareDays: 0, triggerAfterNPositiveResults: 0, triggerFromNRuns: 1, secondDelay: 0 });
    expect(monitor).not.toHaveProperty('operator');
  });

  it('takes notifierIDs (the older spelling) and null, and answers notifierIds', async () => {
    const notifier = await ok<{ id: string }>('POST', '/v2/notifiers', bodies.notifier());
    const old = await ok<Obj>('POST', '/v2/monitors', { name: unique('m'), type: 'MatchEvent', aplQuery: 'x', notifierIDs: [notifier.id] });
    expect(old.notifierIds).toEqual([notifier.id]);
    expect(old).not.toHaveProperty('notifierIDs');
    const none = await ok<Obj>('PUT', `/v2/monitors/${String(old.id)}`, { name: 'n', type: 'MatchEvent', aplQuery: 'x', notifierIDs: null });
    expect(none.notifierIds).toEqual([]);
  });

  it('answers an MPL monitor with its query in aplQuery, also beside an empty aplQuery', async () => {
    for (const body of [{ mplQuery: 'metrics:cpu' }, { mplQuery: 'metrics:cpu', aplQuery: '' }]) {
      const created = await ok<Obj>('POST', '/v2/monitors', { name: unique('mpl'), type: 'MatchEvent', ...body });
      expect(created.aplQuery).toBe('metrics:cpu');
      expect(created).not.toHaveProperty('mplQuery');
      expect((await ok<Obj>('GET', `/v2/monitors/${String(created.id)}`)).aplQuery).toBe('metrics:cpu');
    }
  });

  it('takes Go\'s zero time as "not disabled"', async () => {
    const monitor = await ok<Obj>('POST', '/v2/monitors', { name: unique('m'), type: 'MatchEvent', aplQuery: 'x', disabledUntil: ZERO });
    expect(monitor).not.toHaveProperty('disabledUntil');
  });
});

describe('"no time" elsewhere', () => {
  it('creates a token with a zero expiresAt as one that never expires', async () => {
    const token = await ok<Obj>('POST', '/v2/tokens', { name: unique('t'), expiresAt: ZERO });
    expect(token).not.toHaveProperty('expiresAt');
  });

  it('takes a zero notifier disabledUntil as absent', async () => {
    const notifier = await ok<Obj>('POST', '/v2/notifiers', { ...bodies.notifier(), disabledUntil: ZERO });
    expect(notifier).not.toHaveProperty('disabledUntil');
  });
});

describe('annotations: PUT merges', () => {
  it('keeps a field sent as null, clears one sent as ""', async () => {
    const created = await ok<Obj>('POST', '/v2/annotations', {
      type: 'deploy',
      title: 'T',
      description: 'd',
      url: 'https://example.com',
      datasets: ['checkout'],
      endTime: ZERO,
    });
    expect(created).not.toHaveProperty('endTime');
    const updated = await ok<Obj>('PUT', `/v2/annotations/${String(created.id)}`, { title: null, description: '', url: null });
    expect(updated).toMatchObject({ title: 'T', url: 'https://example.com' });
    expect(updated).not.toHaveProperty('description');
  });
});

describe('RBAC as an add-on', () => {
  it('answers every /v2/rbac/* path 403 (or 404) while it is off, and nothing else', async () => {
    expect(await ok('GET', '/_emulator/add-ons')).toEqual({ rbac: true, rbacStatus: 403 });
    const role = await ok<{ id: string }>('POST', '/v2/rbac/roles', { name: unique('r') });
    try {
      expect(await ok('POST', '/_emulator/add-ons', { rbac: false })).toEqual({ rbac: false, rbacStatus: 403 });
      await expectError('GET', '/v2/rbac/roles', undefined, 403, /RBAC .*not available on this workspace/);
      await expectError('DELETE', `/v2/rbac/roles/${role.id}`, undefined, 403, /RBAC/);
      // A user cannot hold a custom role without RBAC.
      await expectError('POST', '/v2/users', { name: 'C', email: `${unique('c')}@example.com`, role: role.id }, 400, /custom roles need RBAC/);
      expect((await harness.call('GET', '/v2/notifiers')).status).toBe(200);
      await ok('POST', '/_emulator/add-ons', { rbacStatus: 404 });
      await expectError('GET', '/v2/rbac/roles', undefined, 404, /no such endpoint: GET \/v2\/rbac\/roles/);
      await expectError('POST', '/_emulator/add-ons', { rbac: 'no' }, 400, /rbac \(true or false\)/);
    } finally {
      await ok('POST', '/_emulator/add-ons', { rbac: true, rbacStatus: 403 });
    }
    expect((await harness.call('GET', '/v2/rbac/roles')).status).toBe(200);
  });

  it('--no-rbac starts a workspace without it', async () => {
    const off = await startTestEmulator({ seedFile: DEMO_SEED_FILE, seed: 7, rbac: false });
    try {
      expect((await off.call('GET', '/v2/rbac/roles')).status).toBe(403);
    } finally {
      await off.close();
    }
  });
});

describe('annotations a triggered monitor makes (a guess at their shape)', () => {
  it('makes one of type monitor, titled by the monitor, on the datasets its query names', async () => {
    const monitor = await ok<Obj>('POST', '/v2/monitors', { name: unique('trig'), type: 'MatchEvent', aplQuery: "['checkout'] | count" });
    const made = await harness.call('POST', '/_emulator/monitor-trigger', { body: { monitorId: monitor.id } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ type: 'monitor', title: monitor.name, datasets: ['checkout'] });
    const listed = await ok<Obj[]>('GET', '/v2/annotations');
    expect(listed.map((a) => a.id)).toContain((made.body as Obj).id);
    await expectError('POST', '/_emulator/monitor-trigger', { monitorId: 'mon_nope' }, 404, /not found/);
  });
});
