// UserRole end to end (the provider's axiom_user_role), through the real CLI against the emulator:
// the role of a user made outside wsync (single sign-on) changed with one PUT, then no changes;
// removing the file deletes nothing, even with --prune; a user not in the organization and an
// email declared both as a User and as a UserRole are errors naming the file and line.
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';
import { resource } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-user-role-');

async function run(dir: string, ...args: string[]): Promise<CliResult> {
  return runCli([...args, dir], { env: emulator.env });
}

async function seedMember(email: string): Promise<string> {
  await emulator.seed({ users: [{ email, name: 'Made by SSO', role: 'read-only' }] });
  const users = (await emulator.state()).users ?? [];
  const id = users.find((u) => u.email === email)?.id;
  if (typeof id !== 'string') throw new Error(`seeded user ${email} not found`);
  return id;
}

/** An apply that fails on an error at access/roles.yaml line 1 saying `message`, and writes nothing. */
async function expectRefusedAtRolesFile(dir: string, message: string): Promise<void> {
  await emulator.clearRequests();
  const applied = await run(dir, 'apply');
  expect(applied.code).not.toBe(0);
  const out = applied.stdout + applied.stderr;
  expect(out).toMatch(/access\/roles\.yaml:1\b/);
  expect(out).toContain(message);
  expect(await emulator.writes()).toEqual([]);
}

const roleOf = async (email: string): Promise<unknown> => (await emulator.state()).users?.find((u) => u.email === email)?.role;

describe('UserRole', () => {
  it('sets the role of an existing user with one PUT, then plans no changes; removing the file deletes nothing, even with --prune', async () => {
    const id = await seedMember('sso-lin@example.com');
    const dir = await scratch.dir();
    await writeTree(dir, { 'access/roles.yaml': resource('UserRole', 'SSO-Lin@Example.com', { role: 'admin' }) });

    await emulator.clearRequests();
    const applied = await run(dir, 'apply');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const writes = await emulator.writes();
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([`PUT /v2/users/${id}/role`]);
    expect(await roleOf('sso-lin@example.com')).toMatchObject({ id: 'admin' });

    await emulator.clearRequests();
    const again = await run(dir, 'plan', '--detailed-exitcode');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');

    await rm(join(dir, 'access', 'roles.yaml'));
    const pruned = await run(dir, 'apply', '--prune', '--allow-empty');
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(await emulator.writes()).toEqual([]);
    expect(await roleOf('sso-lin@example.com')).toMatchObject({ id: 'admin' });
  });

  it('export writes no UserRole unless asked; with --kind UserRole, role-only files that plan clean', async () => {
    await seedMember('sso-export@example.com');
    const all = join(await scratch.dir(), 'all');
    const exportedAll = await runCli(['export', all], { env: emulator.env });
    expect(exportedAll.code, exportedAll.stderr).toBe(0);
    await expect(readdir(join(all, 'userroles'))).rejects.toThrow();

    const out = join(await scratch.dir(), 'roles');
    const exported = await runCli(['export', '--out', out, '--kind', 'UserRole'], { env: emulator.env });
    expect(exported.code, exported.stderr).toBe(0);
    const files = await readdir(join(out, 'userroles'));
    const file = files.find((f) => f.startsWith('sso-export'));
    expect(file, files.join(', ')).toBeDefined();
    const text = await readFile(join(out, 'userroles', file ?? ''), 'utf8');
    expect(text).toContain('kind: UserRole');
    expect(text).toMatch(/spec:\n {2}role: read-only\n/);
    await emulator.clearRequests();
    const planned = await run(out, 'plan', '--detailed-exitcode');
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(await emulator.writes()).toEqual([]);
  });

  it('a user not in the organization is an error naming the file and line, and nothing is written', async () => {
    const dir = await scratch.dir();
    await writeTree(dir, { 'access/roles.yaml': resource('UserRole', 'nobody@example.com', { role: 'admin' }) });
    await expectRefusedAtRolesFile(dir, 'user "nobody@example.com" is not in the organization: invite them');
    expect((await emulator.state()).users?.some((u) => u.email === 'nobody@example.com')).toBe(false);
  });

  it('one email declared both as a User and as a UserRole is an error naming the UserRole file and line', async () => {
    await seedMember('both@example.com');
    const dir = await scratch.dir();
    await writeTree(dir, {
      'access/users.yaml': resource('User', 'both@example.com', { name: 'Both', role: 'user' }),
      'access/roles.yaml': resource('UserRole', 'both@example.com', { role: 'admin' }),
    });
    await expectRefusedAtRolesFile(dir, 'UserRole "both@example.com" is also declared as a User: one object, two owners');
  });
});
