// --state FILE round-trips the workspace (secrets included) across restarts, written atomically;
// --seed-file preloads objects; POST /_emulator/seed adds, GET /_emulator/state dumps.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { createFixtures } from './fixtures.js';
import { startTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { useScratch } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';

const scratch = useScratch('wsync-emulator-');
let directory: string;
beforeAll(async () => {
  directory = await scratch.dir();
});

describe('--state', () => {
  it('reloads every kind, and tokens keep working, after a restart', async () => {
    const stateFile = path.join(directory, 'state.json');
    const first = await startTestEmulator({ seedFile: DEMO_SEED_FILE, stateFile });
    const fx = await createFixtures(first);
    const token = await first.ok<{ id: string; token: string }>('POST', '/v2/tokens', {
      name: 'ci',
      orgCapabilities: { monitors: ['read'] },
    });
    const before = await first.ok<Record<string, unknown[]>>('GET', '/_emulator/state');
    await first.close();

    const written = JSON.parse(await readFile(stateFile, 'utf8')) as Record<string, unknown[]>;
    expect(written).toEqual(before);
    expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // The seed file is not applied again when the state file exists (no duplicates).
    const second = await startTestEmulator({ seedFile: DEMO_SEED_FILE, stateFile });
    expect(await second.ok('GET', '/_emulator/state')).toEqual(before);
    expect((await second.ok<{ id: string }>('GET', `/v2/monitors/${fx.monitorId}`)).id).toBe(fx.monitorId);
    expect((await second.call('GET', '/v2/monitors', { token: token.token })).status).toBe(200);
    const role = await second.ok<{ members: string[] }>('GET', `/v2/rbac/roles/${fx.roleId}`);
    expect(role.members).toEqual([fx.userId]);
    await second.close();
  });

  it('writes changes shortly after they happen, not only at close', async () => {
    const stateFile = path.join(directory, 'live.json');
    const harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE, stateFile });
    const notifier = await harness.ok<{ id: string }>('POST', '/v2/notifiers', { name: 'n', properties: { webhook: { url: 'https://x' } } });
    const written = async (): Promise<string[]> =>
      ((JSON.parse(await readFile(stateFile, 'utf8').catch(() => '{}')) as { notifiers?: { id: string }[] }).notifiers ?? []).map((item) => item.id);
    await waitUntil(async () => (await written()).length > 0, { what: 'the state file' });
    expect(await written()).toEqual([notifier.id]);
    await harness.close();
  });

  it('refuses to start from a state file that is not JSON', async () => {
    const stateFile = path.join(directory, 'broken.json');
    await writeFile(stateFile, '{ nope');
    await expect(startEmulator({ stateFile })).rejects.toThrow(/not valid JSON/);
  });
});

describe('seed files', () => {
  it('preloads the demo seed: datasets checkout, http-logs and payments with fields', async () => {
    const harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    const datasets = await harness.ok<{ name: string }[]>('GET', '/v2/datasets');
    expect(datasets.map((dataset) => dataset.name)).toEqual(['checkout', 'http-logs', 'payments']);
    for (const name of ['checkout', 'http-logs', 'payments']) {
      const fields = await harness.ok<{ name: string; type: string }[]>('GET', `/v2/datasets/${name}/fields`);
      expect(fields.map((field) => field.name)).toEqual(expect.arrayContaining(['status', 'duration_ms', 'user_id']));
    }
    await harness.close();
  });

  it('imports every kind with given ids and secrets, and refuses bad seeds with the place of the error', async () => {
    const harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    const seed = {
      users: [{ id: 'usr_seeded', name: 'Seeded', email: 'seeded@example.com', role: { id: 'role_seeded', name: 'r' } }],
      roles: [{ id: 'role_seeded', name: 'Seeded role', members: ['usr_seeded'] }],
      notifiers: [{ id: 'notify_seeded', name: 'n', properties: { email: { emails: ['a@example.com'] } }, createdAt: '2024-01-01T00:00:00.000Z' }],
      monitors: [{ id: 'mon_seeded', name: 'm', type: 'Threshold', aplQuery: 'x', notifierIds: ['notify_seeded'] }],
      vfields: [{ id: 'vfld_seeded', dataset: 'checkout', name: 'v', expression: 'x' }],
      starredQueries: [{ id: 'sq_seeded', kind: 'apl', name: 'q', who: 'usr_seeded', query: { apl: 'x' } }],
      annotations: [{ id: 'ann_seeded', datasets: ['checkout'], type: 'deploy' }],
      tokens: [{ id: 'tok_seeded', name: 't', token: 'xaat-known-secret', orgCapabilities: { users: ['read'] } }],
      orgs: [{ id: 'org-seeded-000000', name: 'Seeded' }],
    };
    expect(await harness.ok('POST', '/_emulator/seed', seed)).toEqual({
      imported: { roles: 1, users: 1, notifiers: 1, monitors: 1, vfields: 1, starredQueries: 1, annotations: 1, tokens: 1, orgs: 1 },
    });
    expect((await harness.ok<{ role: unknown }>('GET', '/v2/users/usr_seeded')).role).toEqual({ id: 'role_seeded', name: 'Seeded role' });
    expect((await harness.ok<{ createdAt: string }>('GET', '/v2/notifiers/notify_seeded')).createdAt).toBe('2024-01-01T00:00:00.000Z');
    expect((await harness.call('GET', '/v2/users', { token: 'xaat-known-secret' })).status).toBe(200);
    for (const path of ['/v2/monitors/mon_seeded', '/v2/vfields/vfld_seeded', '/v2/apl-starred-queries/sq_seeded', '/v2/annotations/ann_seeded', '/v2/orgs/org-seeded-000000', '/v2/tokens/tok_seeded']) {
      expect((await harness.call('GET', path)).status, path).toBe(200);
    }
    const bad = await harness.call('POST', '/_emulator/seed', { body: { monitors: [{ name: 'm', type: 'Threshold', aplQuery: 'x', intervalMinutes: 0 }] } });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toBe('seed: monitors[0]: field "intervalMinutes" must be >= 1');
    const unknownKey = await harness.call('POST', '/_emulator/seed', { body: { notebooks: [] } });
    expect((unknownKey.body as { message: string }).message).toMatch(/unknown key "notebooks"/);
    await harness.close();
  });
});

describe('startEmulator options', () => {
  it('refuses out-of-range fault options with a message naming them', async () => {
    await expect(startEmulator({ faultRate: 1.5 })).rejects.toThrow(/"faultRate" must be a number from 0 to 1/);
    await expect(startEmulator({ latencyMs: [50, 10] })).rejects.toThrow(/latencyMs/);
    await expect(startEmulator({ rateLimit: 0 })).rejects.toThrow(/rateLimit/);
  });
});
