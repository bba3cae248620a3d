// Behaviour of datasets (update, delete and what goes with it, map fields), RBAC groups (managed
// groups, references to users and roles) and views (addressed by name) beyond the schemas.
import { describe, expect, it } from 'vitest';
import { useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { bodies, unique } from './fixtures.js';

const harness = useTestEmulator({ seedFile: DEMO_SEED_FILE, seed: 7 });

type Obj = Record<string, unknown>;

async function expectError(method: string, path: string, body: unknown, status: number, message: RegExp): Promise<void> {
  const answer = await harness.call(method, path, { body });
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ code: status, message: expect.stringMatching(message) });
}

async function newDataset(extra: Obj = {}): Promise<string> {
  const created = await harness.ok<Obj>('POST', '/v2/datasets', { ...bodies.dataset(), ...extra });
  return String(created.id);
}

describe('datasets', () => {
  it('answers every server-filled field, and keeps kind and name through an update', async () => {
    const name = await newDataset({ kind: 'otel:traces:v1' });
    expect(await harness.ok<Obj>('GET', `/v2/datasets/${name}`)).toMatchObject({
      id: name,
      name,
      kind: 'otel:traces:v1',
      retentionDays: 0,
      useRetentionPeriod: false,
      mapFields: [],
      canWrite: true,
      who: expect.any(String),
      created: expect.any(String),
    });
    const updated = await harness.ok<Obj>('PUT', `/v2/datasets/${name}`, { description: 'kept 30 days', retentionDays: 30, useRetentionPeriod: true, kind: 'otel:logs:v1' });
    expect(updated).toMatchObject({ name, kind: 'otel:traces:v1', description: 'kept 30 days', retentionDays: 30, useRetentionPeriod: true });
    const listed = await harness.ok<Obj[]>('GET', '/v2/datasets');
    expect(listed.find((d) => d.name === name)).toEqual(updated);
  });

  it('refuses names the service refuses, a duplicate, and a negative retention', async () => {
    await expectError('POST', '/v2/datasets', { name: 'axiom-internal' }, 400, /not start with "axiom-"/);
    await expectError('POST', '/v2/datasets', { name: 'trailing-' }, 400, /start and end with a letter or digit/);
    await expectError('POST', '/v2/datasets', { name: 'x'.repeat(81) }, 400, /1 to 80/);
    await expectError('POST', '/v2/datasets', { name: 'checkout' }, 409, /already exists/);
    await expectError('PUT', '/v2/datasets/checkout', { retentionDays: -1 }, 400, /retentionDays/);
    await expectError('PUT', '/v2/datasets/nope', { description: 'x' }, 404, /dataset "nope" not found/);
  });

  it('deletes the dataset with its fields, map fields and virtual fields; other datasets keep theirs', async () => {
    const name = await newDataset();
    await harness.ok('PUT', `/v2/datasets/${name}/mapfields`, ['attributes']);
    const vfield = await harness.ok<Obj>('POST', '/v2/vfields', { ...bodies.vfield(), dataset: name });
    const other = await harness.ok<Obj>('POST', '/v2/vfields', bodies.vfield());
    expect((await harness.call('DELETE', `/v2/datasets/${name}`)).status).toBe(204);
    expect((await harness.call('GET', `/v2/datasets/${name}`)).status).toBe(404);
    expect((await harness.call('GET', `/v2/datasets/${name}/fields`)).status).toBe(404);
    expect((await harness.call('GET', `/v2/datasets/${name}/mapfields`)).status).toBe(404);
    expect((await harness.call('GET', `/v2/vfields/${String(vfield.id)}`)).status).toBe(404);
    expect((await harness.call('GET', `/v2/vfields/${String(other.id)}`)).status).toBe(200);
    // Recreated, it starts empty.
    await harness.ok('POST', '/v2/datasets', { name });
    expect(await harness.ok('GET', `/v2/datasets/${name}/mapfields`)).toEqual([]);
    expect(await harness.ok('GET', `/v2/vfields?dataset=${name}`)).toEqual([]);
  });

  it('needs datasets|update and datasets|delete', async () => {
    const name = await newDataset();
    const reader = await harness.ok<{ token: string }>('POST', '/v2/tokens', { name: unique('reader'), orgCapabilities: { datasets: ['read'] } });
    for (const [method, path, body] of [
      ['PUT', `/v2/datasets/${name}`, { description: 'x' }],
      ['DELETE', `/v2/datasets/${name}`, undefined],
      ['PUT', `/v2/datasets/${name}/mapfields`, ['a']],
    ] as const) {
      const answer = await harness.call(method, path, { body, token: reader.token });
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    expect((await harness.call('GET', `/v2/datasets/${name}/mapfields`, { token: reader.token })).status).toBe(200);
  });
});

describe('map fields', () => {
  it('PUT replaces the set, POST adds one, DELETE removes one; the dataset answers them too', async () => {
    const name = await newDataset();
    expect(await harness.ok('PUT', `/v2/datasets/${name}/mapfields`, ['attributes', 'resource'])).toEqual(['attributes', 'resource']);
    expect(await harness.ok('POST', `/v2/datasets/${name}/mapfields`, { name: 'labels' })).toEqual({ name: 'labels' });
    expect((await harness.call('DELETE', `/v2/datasets/${name}/mapfields/attributes`)).status).toBe(204);
    expect(await harness.ok('GET', `/v2/datasets/${name}/mapfields`)).toEqual(['resource', 'labels']);
    expect(await harness.ok<Obj>('GET', `/v2/datasets/${name}`)).toMatchObject({ mapFields: ['resource', 'labels'] });
    expect(await harness.ok('PUT', `/v2/datasets/${name}/mapfields`, [])).toEqual([]);
  });

  it('refuses an invalid name, a duplicate, an existing one and a missing one', async () => {
    const name = await newDataset();
    await harness.ok('PUT', `/v2/datasets/${name}/mapfields`, ['attributes']);
    await expectError('PUT', `/v2/datasets/${name}/mapfields`, ['__invalid__'], 400, /not a valid map field name/);
    await expectError('PUT', `/v2/datasets/${name}/mapfields`, ['a', 'a'], 400, /listed twice/);
    await expectError('POST', `/v2/datasets/${name}/mapfields`, { name: 'attributes' }, 409, /already a map field/);
    await expectError('DELETE', `/v2/datasets/${name}/mapfields/nothing`, undefined, 404, /not a map field/);
    await expectError('PUT', `/v2/datasets/${name}/mapfields`, { names: ['a'] }, 400, /must be an array/);
  });
});

describe('groups', () => {
  async function fixtures(): Promise<{ userId: string; roleId: string }> {
    const user = await harness.ok<Obj>('POST', '/v2/users', bodies.user());
    const role = await harness.ok<Obj>('POST', '/v2/rbac/roles', { name: unique('role') });
    return { userId: String(user.id), roleId: String(role.id) };
  }

  it('holds user ids and role ids; deleting a user or a role takes it out of the group', async () => {
    const fx = await fixtures();
    const group = await harness.ok<Obj>('POST', '/v2/rbac/groups', bodies.group(fx));
    expect(group).toMatchObject({ id: expect.stringMatching(/^grp_[0-9a-f]{16}$/), members: [fx.userId], roles: [fx.roleId], isManaged: false });
    await harness.ok('DELETE', `/v2/users/${fx.userId}`);
    await harness.ok('DELETE', `/v2/rbac/roles/${fx.roleId}`);
    expect(await harness.ok<Obj>('GET', `/v2/rbac/groups/${String(group.id)}`)).toMatchObject({ members: [], roles: [] });
  });

  it('refuses unknown members and roles, a duplicate name, and a client setting isManaged', async () => {
    const fx = await fixtures();
    const group = await harness.ok<Obj>('POST', '/v2/rbac/groups', { ...bodies.group(fx), isManaged: true });
    expect(group.isManaged).toBe(false);
    await expectError('POST', '/v2/rbac/groups', { name: unique('g'), members: ['usr_nobody'] }, 400, /unknown user "usr_nobody"/);
    await expectError('POST', '/v2/rbac/groups', { name: unique('g'), roles: ['admin'] }, 400, /unknown role "admin"/);
    await expectError('POST', '/v2/rbac/groups', { name: group.name }, 409, /already exists/);
  });

  it('a group directory sync made (seeded isManaged) cannot be changed or deleted', async () => {
    const name = unique('synced');
    await harness.ok('POST', '/_emulator/seed', { groups: [{ name, isManaged: true }] });
    const managed = (await harness.ok<Obj[]>('GET', '/v2/rbac/groups')).find((g) => g.name === name);
    expect(managed).toMatchObject({ isManaged: true });
    await expectError('PUT', `/v2/rbac/groups/${String(managed?.id)}`, { name, description: 'mine now' }, 403, /managed by directory sync/);
    await expectError('DELETE', `/v2/rbac/groups/${String(managed?.id)}`, undefined, 403, /managed by directory sync/);
  });
});

describe('views', () => {
  it('are addressed by name and answered without an id', async () => {
    const body = bodies.view();
    const created = await harness.ok<Obj>('POST', '/v2/views', body);
    expect(created).toEqual({ ...body });
    expect(created).not.toHaveProperty('id');
    expect(await harness.ok('GET', `/v2/views/${body.name}`)).toEqual(created);
    const changed = await harness.ok<Obj>('PUT', `/v2/views/${body.name}`, { ...body, description: 'changed', datasets: ['checkout', 'payments'] });
    expect(changed).toMatchObject({ description: 'changed', datasets: ['checkout', 'payments'] });
    expect((await harness.ok<Obj[]>('GET', '/v2/views')).filter((v) => v.name === body.name)).toEqual([changed]);
  });

  it('refuses a rename, a duplicate, an unknown dataset, and needs views capabilities', async () => {
    const body = bodies.view();
    await harness.ok('POST', '/v2/views', body);
    await expectError('PUT', `/v2/views/${body.name}`, { ...body, name: 'other' }, 400, /cannot change/);
    await expectError('POST', '/v2/views', body, 409, /already exists/);
    await expectError('POST', '/v2/views', { ...bodies.view(), datasets: ['nope'] }, 404, /unknown dataset "nope"/);
    const reader = await harness.ok<{ token: string }>('POST', '/v2/tokens', { name: unique('reader'), orgCapabilities: { views: ['read'] } });
    expect((await harness.call('GET', '/v2/views', { token: reader.token })).status).toBe(200);
    expect((await harness.call('POST', '/v2/views', { body: bodies.view(), token: reader.token })).status).toBe(403);
  });
});
