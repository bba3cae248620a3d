// Behaviour beyond the schema: server-filled defaults and stamps, ids in the service's style,
// references between kinds, PagerDuty blanking, users and roles, datasets and fields,
// annotations filters, unknown paths and methods, readable validation messages.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodies, unique } from './fixtures.js';
import { useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';

const harness = useTestEmulator({ seedFile: DEMO_SEED_FILE });
afterEach(() => {
  vi.useRealTimers();
});

type Obj = Record<string, unknown>;
const RFC3339_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function expectError(method: string, path: string, body: unknown, status: number, message: RegExp): Promise<void> {
  const answer = await harness.call(method, path, { body });
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ code: status, message: expect.stringMatching(message) });
}

describe('ids, stamps and defaults', () => {
  it('assigns ids in the service style and fills monitor defaults and stamps', async () => {
    const notifier = await harness.ok<Obj>('POST', '/v2/notifiers', bodies.notifier());
    expect(notifier.id).toMatch(/^notify_[0-9a-f]{16}$/);
    expect(notifier.createdBy).toBe('admin@emulator.local');
    const monitor = await harness.ok<Obj>('POST', '/v2/monitors', {
      name: 'defaults',
      type: 'Threshold',
      aplQuery: 'x',
      createdAt: '1999-01-01T00:00:00Z',
      createdBy: 'someone-else',
    });
    expect(monitor).toMatchObject({
      id: expect.stringMatching(/^mon_[0-9a-f]{16}$/),
      description: '',
      disabled: false,
      alertOnNoData: false,
      notifyByGroup: false,
      notifyEveryRun: false,
      resolvable: false,
      skipResolved: false,
      secondDelay: 0,
      threshold: 0,
      tolerance: 0,
      compareDays: 0,
      triggerAfterNPositiveResults: 0,
      triggerFromNRuns: 1,
      notifierIds: [],
      createdBy: 'usr_emulatoradmin00000',
    });
    expect(monitor).not.toHaveProperty('operator');
    expect(monitor.createdAt).toMatch(RFC3339_MS);
    expect(monitor.createdAt).not.toBe('1999-01-01T00:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(String(monitor.updatedAt)) + 5 });
    const updated = await harness.ok<Obj>('PUT', `/v2/monitors/${String(monitor.id)}`, { name: 'renamed', type: 'Threshold', aplQuery: 'y' });
    expect(updated.createdAt).toBe(monitor.createdAt);
    expect(updated.updatedAt).not.toBe(monitor.updatedAt);
    expect(updated.name).toBe('renamed');
  });

  it('ignores unknown fields where the schema is open and refuses them where it is closed', async () => {
    const monitor = await harness.ok<Obj>('POST', '/v2/monitors', { name: 'm', type: 'Threshold', aplQuery: 'x', treshold: 3 });
    expect(monitor).not.toHaveProperty('treshold');
    const user = await harness.ok<{ id: string }>('POST', '/v2/users', bodies.user());
    await expectError(
      'POST',
      '/v2/apl-starred-queries',
      { kind: 'apl', name: 'q', who: user.id, query: { apl: 'x', queryOptions: { maxRows: 3 } } },
      400,
      /^starred queries: unknown field "query\.queryOptions\.maxRows"$/,
    );
  });

  it('names the field and the problem in validation messages', async () => {
    const monitor = { name: 'm', type: 'Threshold', aplQuery: 'x' };
    await expectError('POST', '/v2/monitors', { ...monitor, intervalMinutes: 0 }, 400, /^monitors: field "intervalMinutes" must be >= 1$/);
    await expectError('POST', '/v2/monitors', { ...monitor, threshold: 'high' }, 400, /^monitors: field "threshold" must be a number, got a string$/);
    await expectError('POST', '/v2/monitors', { ...monitor, operator: 'above' }, 400, /field "operator" must be one of: Below, .*\(got "above"\)/);
    await expectError('POST', '/v2/monitors', { type: 'Threshold', aplQuery: 'x' }, 400, /^monitors: field "name" is required$/);
    await expectError('POST', '/v2/monitors', { ...monitor, compareDays: 8 }, 400, /"compareDays" must be <= 7/);
    await expectError('POST', '/v2/monitors', { name: 'm', type: 'Threshold' }, 400, /"aplQuery" is required/);
    await expectError('POST', '/v2/monitors', [monitor], 400, /request body must be an object, got an array/);
    await expectError('POST', '/v2/annotations', { datasets: ['checkout'], type: 'deploy', time: 'yesterday' }, 400, /"time" must be an RFC 3339 date-time/);
  });
});

describe('references between kinds', () => {
  it('requires monitor notifierIds to exist and drops a deleted notifier from monitors', async () => {
    await expectError('POST', '/v2/monitors', { name: 'm', type: 'Threshold', aplQuery: 'x', notifierIds: ['notify_nope'] }, 400, /"notifierIds\[0\]" names unknown notifier "notify_nope"/);
    const notifier = await harness.ok<{ id: string }>('POST', '/v2/notifiers', bodies.notifier());
    const monitor = await harness.ok<{ id: string }>('POST', '/v2/monitors', bodies.monitor({ notifierId: notifier.id }));
    await harness.ok('DELETE', `/v2/notifiers/${notifier.id}`);
    expect((await harness.ok<Obj>('GET', `/v2/monitors/${monitor.id}`)).notifierIds).toEqual([]);
  });

  it('requires role members to be users; deleting a user removes it from roles', async () => {
    await expectError('POST', '/v2/rbac/roles', { name: 'r', members: ['usr_nope'] }, 400, /"members\[0\]" names unknown user "usr_nope"/);
    const user = await harness.ok<{ id: string }>('POST', '/v2/users', bodies.user());
    const role = await harness.ok<{ id: string }>('POST', '/v2/rbac/roles', bodies.role({ userId: user.id }));
    await harness.ok('DELETE', `/v2/users/${user.id}`);
    expect((await harness.ok<Obj>('GET', `/v2/rbac/roles/${role.id}`)).members).toEqual([]);
  });

  it('requires datasets to exist for vfields, annotations and starred queries (404)', async () => {
    await expectError('POST', '/v2/vfields', { dataset: 'nope', name: 'v', expression: 'x' }, 404, /unknown dataset "nope"/);
    await expectError('POST', '/v2/annotations', { datasets: ['checkout', 'nope'], type: 'deploy' }, 404, /unknown dataset "nope"/);
    await expectError('POST', '/v2/annotations', { datasets: [], type: 'deploy' }, 400, /at least one dataset/);
    await expectError('GET', '/v2/vfields?dataset=nope', undefined, 404, /unknown dataset "nope"/);
    await expectError('GET', '/v2/vfields', undefined, 400, /query parameter "dataset" is required/);
    await expectError('GET', '/v2/annotations?datasets=nope', undefined, 404, /unknown dataset "nope"/);
    const user = await harness.ok<{ id: string }>('POST', '/v2/users', bodies.user());
    await expectError('POST', '/v2/apl-starred-queries', { ...bodies.starredQuery({ userId: user.id }), dataset: 'nope' }, 404, /unknown dataset "nope"/);
  });
});

describe('secrets', () => {
  it('blanks PagerDuty routingKey and token on every read, and only those', async () => {
    const body = {
      name: unique('pd'),
      properties: { pagerduty: { routingKey: 'rk-secret', token: 'tk-secret' } },
    };
    const created = await harness.ok<Obj>('POST', '/v2/notifiers', body);
    const blank = { pagerduty: { routingKey: '', token: '' } };
    expect(created.properties).toEqual(blank);
    expect((await harness.ok<Obj>('GET', `/v2/notifiers/${String(created.id)}`)).properties).toEqual(blank);
    const listed = await harness.ok<Obj[]>('GET', '/v2/notifiers');
    expect(listed.find((notifier) => notifier.id === created.id)?.properties).toEqual(blank);
    const slack = await harness.ok<Obj>('POST', '/v2/notifiers', { name: 's', properties: { slack: { slackUrl: 'https://hooks.slack.com/x' } } });
    expect(slack.properties).toEqual({ slack: { slackUrl: 'https://hooks.slack.com/x' } });
    // The stored secret is intact (the state dump is the admin's view of the truth).
    const state = await harness.ok<{ notifiers: Obj[] }>('GET', '/_emulator/state');
    expect(state.notifiers.find((notifier) => notifier.id === created.id)?.properties).toEqual(body.properties);
  });
});

describe('users and roles', () => {
  it('answers roles as {id, name}, refuses unknown roles and duplicate emails', async () => {
    const email = `${unique('dup')}@example.com`;
    const user = await harness.ok<Obj>('POST', '/v2/users', { name: 'D', email, role: 'Read-Only' });
    expect(user.role).toEqual({ id: 'read-only', name: 'Read-only' });
    await expectError('POST', '/v2/users', { name: 'D2', email: email.toUpperCase(), role: 'user' }, 409, /already exists/);
    await expectError('POST', '/v2/users', { name: 'D3', email: 'x@example.com', role: 'member' }, 400, /"role" must be a built-in role \(owner, admin, user, read-only, none\)/);
    await expectError('POST', '/v2/users', { name: 'D4', email: 'not-an-email', role: 'user' }, 400, /"email"/);
    const role = await harness.ok<{ id: string }>('POST', '/v2/rbac/roles', { name: 'Editors' });
    const moved = await harness.ok<Obj>('PUT', `/v2/users/${String(user.id)}/role`, { role: role.id });
    expect(moved.role).toEqual({ id: role.id, name: 'Editors' });
    await harness.ok('PUT', `/v2/rbac/roles/${role.id}`, { name: 'Writers' });
    expect((await harness.ok<Obj>('GET', `/v2/users/${String(user.id)}`)).role).toEqual({ id: role.id, name: 'Writers' });
    await expectError('DELETE', `/v2/rbac/roles/${role.id}`, undefined, 409, /still assigned/);
  });

  it('GET /v2/user answers the caller, who is not listed unless seeded', async () => {
    const me = await harness.ok<Obj>('GET', '/v2/user');
    expect(me).toEqual({ id: 'usr_emulatoradmin00000', name: 'Emulator Admin', email: 'admin@emulator.local', role: { id: 'owner', name: 'Owner' } });
    const users = await harness.ok<Obj[]>('GET', '/v2/users');
    expect(users.map((user) => user.id)).not.toContain('usr_emulatoradmin00000');
  });
});

describe('datasets and fields', () => {
  it('lists seeded datasets and fields; PUT changes a field; unknown ones are 404', async () => {
    const datasets = await harness.ok<Obj[]>('GET', '/v2/datasets');
    expect(datasets.map((dataset) => dataset.name)).toEqual(expect.arrayContaining(['checkout', 'http-logs', 'payments']));
    const fields = await harness.ok<Obj[]>('GET', '/v2/datasets/payments/fields');
    expect(fields.find((field) => field.name === 'amount')).toEqual({ name: 'amount', type: 'float', description: '', hidden: false, unit: 'EUR' });
    const changed = await harness.ok<Obj>('PUT', '/v2/datasets/payments/fields/amount', { name: 'amount', type: 'float', hidden: true });
    expect(changed).toEqual({ name: 'amount', type: 'float', description: '', hidden: true, unit: '' });
    expect(await harness.ok('GET', '/v2/datasets/payments/fields/amount')).toEqual(changed);
    await expectError('PUT', '/v2/datasets/payments/fields/nope', { name: 'nope', type: 'string' }, 404, /field "nope" not found/);
    await expectError('PUT', '/v2/datasets/payments/fields/amount', { name: 'other', type: 'float' }, 400, /must equal the field in the path/);
    await expectError('GET', '/v2/datasets/nope/fields', undefined, 404, /dataset "nope" not found/);
    await expectError('POST', '/v2/datasets', { name: 'checkout' }, 409, /already exists/);
    await expectError('POST', '/v2/datasets', { name: 'bad/name' }, 400, /"name"/);
  });
});

describe('annotations', () => {
  it('defaults time to now, filters by datasets, start and end, and merges on PUT', async () => {
    const before = Date.now();
    const now = await harness.ok<Obj>('POST', '/v2/annotations', { datasets: ['payments'], type: 'deploy' });
    expect(Date.parse(String(now.time))).toBeGreaterThanOrEqual(before - 1);
    expect(now).not.toHaveProperty('title');
    const old = await harness.ok<Obj>('POST', '/v2/annotations', {
      datasets: ['http-logs'],
      type: 'incident',
      title: 'outage',
      time: '2020-01-01T10:00:00Z',
      endTime: '2020-01-01T12:00:00+00:00',
    });
    expect(old.time).toBe('2020-01-01T10:00:00.000Z');
    expect(old.endTime).toBe('2020-01-01T12:00:00.000Z');
    const ids = async (query: string) => (await harness.ok<Obj[]>('GET', `/v2/annotations?${query}`)).map((annotation) => annotation.id);
    expect(await ids('datasets=http-logs')).toEqual([old.id]);
    expect(await ids('datasets=http-logs,payments')).toEqual(expect.arrayContaining([old.id, now.id]));
    expect(await ids('datasets=http-logs&datasets=payments')).toEqual(expect.arrayContaining([old.id, now.id]));
    expect(await ids('start=2020-01-01T11:00:00Z&end=2020-01-02T00:00:00Z')).toEqual([old.id]);
    expect(await ids('start=2020-01-01T12:30:00Z&end=2020-01-02T00:00:00Z')).toEqual([]);
    await expectError('GET', '/v2/annotations?start=tuesday', undefined, 400, /"start" must be an RFC 3339 date-time/);
    const merged = await harness.ok<Obj>('PUT', `/v2/annotations/${String(old.id)}`, { title: 'big outage' });
    expect(merged).toMatchObject({ title: 'big outage', type: 'incident', datasets: ['http-logs'], time: old.time });
    await expectError('POST', '/v2/annotations', { datasets: ['checkout'], type: 'x', time: '2020-01-02T00:00:00Z', endTime: '2020-01-01T00:00:00Z' }, 400, /"endTime" must not be before/);
    await expectError('GET', '/v2/annotations/ann_nope', undefined, 404, /annotation "ann_nope" not found/);
  });
});

describe('routing', () => {
  it('answers 404 for unknown paths and ids, 405 with Allow for wrong methods', async () => {
    await expectError('GET', '/v2/notebooks', undefined, 404, /no such endpoint: GET \/v2\/notebooks/);
    await expectError('GET', '/v2/monitors/mon_0000000000000000', undefined, 404, /monitor "mon_0000000000000000" not found/);
    await expectError('DELETE', '/v2/orgs/org-x-000000', undefined, 405, /DELETE is not allowed/);
    const wrong = await harness.call('PATCH', '/v2/monitors/mon_x');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PUT, DELETE');
    expect((await harness.call('GET', '/v2/monitors/')).status).toBe(200);
  });

  it('makes org ids from the name and never deletes orgs', async () => {
    const org = await harness.ok<Obj>('POST', '/v2/orgs', { name: 'Acme Corp: EU' });
    expect(org.id).toMatch(/^org-acme-corp-eu-[0-9a-f]{6}$/);
    const renamed = await harness.ok<Obj>('PUT', `/v2/orgs/${String(org.id)}`, { name: '' });
    expect(renamed).toMatchObject({ id: org.id, name: '', metaVersion: '2' });
  });
});

describe('large lists', () => {
  it('serves a list of 10,000 monitors in one answer (bench/emulator.mjs measures how fast)', async () => {
    const monitors = Array.from({ length: 10_000 }, (_, index) => ({ name: `bulk-${index}`, type: 'Threshold', aplQuery: 'x' }));
    await harness.ok('POST', '/_emulator/seed', { monitors });
    const list = await harness.ok<Obj[]>('GET', '/v2/monitors');
    expect(list.length).toBeGreaterThanOrEqual(10_000);
    expect(list.filter((monitor) => String(monitor.name).startsWith('bulk-'))).toHaveLength(10_000);
  });
});
