// RBAC groups: what wsync's writer lease uses (create, list, update, delete; members and roles must
// exist; rbac capabilities as the OpenAPI document gives them).
import { describe, expect, it } from 'vitest';
import { useTestEmulator } from '../support/emulator.js';

const harness = useTestEmulator();

describe('/v2/rbac/groups', () => {
  it('creates with defaults, lists, updates in place and deletes', async () => {
    const group = await harness.ok<{ id: string }>('POST', '/v2/rbac/groups', { name: 'oncall' });
    expect(group).toMatchObject({ id: expect.stringMatching(/^grp_/), name: 'oncall', description: '', members: [], roles: [] });
    await harness.ok('PUT', `/v2/rbac/groups/${group.id}`, { name: 'oncall', description: 'pages' });
    expect(await harness.ok('GET', '/v2/rbac/groups')).toEqual([{ id: group.id, name: 'oncall', description: 'pages', members: [], roles: [], isManaged: false }]);
    await harness.ok('DELETE', `/v2/rbac/groups/${group.id}`);
    expect((await harness.call('GET', `/v2/rbac/groups/${group.id}`)).status).toBe(404);
  });

  it('refuses members and roles that do not exist, and a body without a name', async () => {
    const message = async (body: unknown): Promise<string> => ((await harness.call('POST', '/v2/rbac/groups', { body })).body as { message: string }).message;
    expect(await message({ name: 'g', members: ['usr_nope'] })).toMatch(/"members\[0\]" names unknown user "usr_nope"/);
    expect(await message({ name: 'g', roles: ['role_nope'] })).toMatch(/"roles\[0\]" names unknown role "role_nope"/);
    expect((await harness.call('POST', '/v2/rbac/groups', { body: { description: 'x' } })).status).toBe(400);
  });

  it('needs rbac read to list and rbac create to write', async () => {
    const token = await harness.ok<{ token: string }>('POST', '/v2/tokens', { name: 'monitors-only', orgCapabilities: { monitors: ['read'] } });
    expect((await harness.call('GET', '/v2/rbac/groups', { token: token.token })).status).toBe(403);
    expect((await harness.call('POST', '/v2/rbac/groups', { token: token.token, body: { name: 'g' } })).status).toBe(403);
  });
});
