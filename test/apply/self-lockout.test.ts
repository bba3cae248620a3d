// The self-lockout guard (#27 item 6), end to end: the real CLI in process against the emulator.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator } from '../support/emulator.js';
import { useScratch, writeTree } from '../support/tree.js';
import { idOf } from '../support/workspace.js';
import { notifierYaml, resource } from '../support/yaml.js';

const scratch = useScratch('wsync-self-lockout-');
const ALL = ['create', 'read', 'update', 'delete'];
/** A token that may manage what these trees declare (and the writer lease, an RBAC group). */
const CI_TOKEN = resource('ApiToken', 'wsync-ci', { description: 'wsync itself', orgCapabilities: { apiTokens: ALL, notifiers: ALL, rbac: ALL } });

async function setUp() {
  const emulator = await startTestEmulator();
  onTestFinished(() => emulator.close());
  const dir = join(await scratch.dir(), 'tree');
  await writeTree(dir, { 'tokens.yaml': CI_TOKEN, 'notifiers.yaml': notifierYaml('team-email') });
  const first = await runCli(['apply', dir], { env: emulator.env });
  expect(first.code, first.stderr).toBe(0);
  return { dir, emulator };
}

describe('the API token wsync runs with', () => {
  it('is not deleted by --prune when wsync holds its secret: held, exit 3, the rest applied', async () => {
    const { dir, emulator } = await setUp();
    const secret = (await readFile(join(dir, '.wsync', 'tokens', 'wsync-ci'), 'utf8')).trim();
    const env = { ...emulator.env, WSYNC_TOKEN: secret };
    const id = idOf(await emulator.state(), 'tokens', 'wsync-ci');
    await rm(join(dir, 'tokens.yaml'));
    await writeTree(dir, { 'more.yaml': notifierYaml('pager-email') });

    const planned = await runCli(['plan', dir, '--prune'], { env });
    expect(planned.stdout).toContain(`! held    ApiToken/wsync-ci (id ${id})`);
    expect(planned.stdout).toContain('self-lockout: it is the API token wsync runs with (its secret is the one wsync saved as wsync-ci in the token output directory)');
    expect(planned.stdout).toContain('--allow-self-lockout');
    expect(planned.stdout).not.toContain(secret);

    await emulator.clearRequests();
    const applied = await runCli(['apply', dir, '--prune', '--allow-empty'], { env });
    expect(applied.code).toBe(3);
    expect(applied.stderr).toContain(`held: Refusing to delete ApiToken/wsync-ci (id ${id})`);
    expect(applied.stdout + applied.stderr).not.toContain(secret);
    const writes = await emulator.writes();
    expect(writes.filter((w) => w.method === 'DELETE' && w.path.startsWith('/v2/tokens'))).toEqual([]);
    expect(writes.some((w) => w.method === 'POST' && w.path === '/v2/notifiers')).toBe(true);
    expect(idOf(await emulator.state(), 'tokens', 'wsync-ci')).toBe(id);

    const allowed = await runCli(['plan', dir, '--prune', '--allow-empty', '--allow-self-lockout'], { env });
    expect(allowed.stdout).toContain(`- delete  ApiToken/wsync-ci (id ${id})`);
  });

  it('named with --self-token-id (a token wsync did not issue) it is not deleted either', async () => {
    const { dir, emulator } = await setUp();
    const id = idOf(await emulator.state(), 'tokens', 'wsync-ci');
    await rm(join(dir, 'tokens.yaml'));
    const planned = await runCli(['plan', dir, '--prune', '--self-token-id', id], { env: emulator.env });
    expect(planned.stdout).toContain(`! held    ApiToken/wsync-ci (id ${id})`);
    expect(planned.stdout).toContain('self-lockout: it is the API token wsync runs with (--self-token-id)');
    const other = await runCli(['plan', dir, '--prune', '--allow-empty'], { env: emulator.env });
    expect(other.stdout).toContain(`- delete  ApiToken/wsync-ci (id ${id})`);
  });
});

describe('the owner role', () => {
  it('the last owner is not demoted', async () => {
    const emulator = await startTestEmulator();
    onTestFinished(() => emulator.close());
    await emulator.seed({ users: [{ id: 'usr_owner', email: 'boss@example.com', name: 'Boss', role: 'owner' }] });
    const dir = join(await scratch.dir(), 'users');
    await writeTree(dir, { 'users.yaml': resource('User', 'boss@example.com', { name: 'Boss', role: 'admin' }) });
    await emulator.clearRequests();
    const applied = await runCli(['apply', dir], { env: emulator.env });
    expect(applied.code).toBe(3);
    expect(applied.stderr).toContain('held: Refusing User/boss@example.com: no user of the organization would keep the owner role.');
    expect((await emulator.writes()).filter((w) => w.path.startsWith('/v2/users'))).toEqual([]);
  });
});
