// One writer per workspace (#17.9): the lease a writer keeps in the workspace (an RBAC group), the
// decision what to do with the leases found, and a second writer with another state directory
// refused, end to end with the CLI. Lease time runs on a fake clock in-process.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { WRITER_LEASE_GROUP } from '../../src/core/writer-lease-record.js';
import {
  decideLease,
  DEFAULT_WRITER_LEASE_MS,
  leaseDescription,
  parseLease,
  WriterLease,
  WriterLeaseError,
  type LeaseRecord,
  type Writer,
} from '../../src/reconcile/writer-lease.js';
import { runCli } from '../support/cli.js';
import { apiClientFor, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { removeDir, tempDir } from '../support/tree.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const record = (id: string, expiresAt: number): LeaseRecord => ({ id, host: `${id}-host`, stateDir: `/state/${id}`, expiresAt: new Date(expiresAt).toISOString() });

describe('decideLease', () => {
  it('creates a lease when there is none', () => {
    expect(decideLease([], 'me', T0)).toEqual({ action: 'create' });
  });
  it('renews its own', () => {
    expect(decideLease([{ id: 'g1', record: record('me', T0 - 1) }], 'me', T0)).toEqual({ action: 'renew', groupId: 'g1' });
  });
  it('is refused while another writer holds a lease, even when its own is there too', () => {
    const holder = record('other', T0 + 60_000);
    expect(decideLease([{ id: 'g1', record: record('me', T0 + 1) }, { id: 'g2', record: holder }], 'me', T0)).toEqual({ action: 'refuse', holder });
  });
  it("takes over another writer's ended lease, or one it cannot read", () => {
    const ended = record('other', T0);
    expect(decideLease([{ id: 'g1', record: ended }], 'me', T0)).toEqual({ action: 'take-over', groupId: 'g1', previous: ended });
    expect(decideLease([{ id: 'g1', record: undefined }], 'me', T0)).toEqual({ action: 'take-over', groupId: 'g1', previous: undefined });
  });
  it('reads back what it writes, and nothing else', () => {
    const lease = record('me', T0);
    expect(parseLease(leaseDescription(lease))).toEqual(lease);
    expect(parseLease('the on-call team')).toBeUndefined();
    expect(parseLease(`${leaseDescription(lease).slice(0, -2)}`)).toBeUndefined();
  });
});

describe('WriterLease against the emulator', () => {
  let emulator: TestEmulator;
  let client: ApiClient;
  let now: number;
  const clock = (): number => now;
  const warnings: string[] = [];
  const writer = (id: string): Writer => ({ id, host: `${id}-pod`, stateDir: `/var/lib/${id}` });
  const lease = (id: string): WriterLease => new WriterLease(() => client, writer(id), { clock, warn: (m) => warnings.push(m) });
  const leaseRequests = async (): Promise<string[]> =>
    (await emulator.requests()).filter((r) => r.path.startsWith('/v2/rbac/groups')).map((r) => `${r.method} ${r.path.replace(/grp_\w+/, 'ID')}`);

  beforeEach(async () => {
    emulator = await startTestEmulator();
    client = apiClientFor(emulator);
    now = T0;
    warnings.length = 0;
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('marks the workspace with a group that grants nothing, renews it once a quarter of the lease has passed, and ends it', async () => {
    const a = lease('aaaaaaaa');
    await a.hold();
    const [group] = (await emulator.state()).groups ?? [];
    expect(group).toMatchObject({ name: WRITER_LEASE_GROUP, members: [], roles: [] });
    expect(parseLease(group?.description as string)).toEqual({ ...writer('aaaaaaaa'), expiresAt: new Date(T0 + DEFAULT_WRITER_LEASE_MS).toISOString() });
    expect(await leaseRequests()).toEqual(['GET /v2/rbac/groups', 'POST /v2/rbac/groups', 'GET /v2/rbac/groups']);

    await emulator.clearRequests();
    now += DEFAULT_WRITER_LEASE_MS / 4 - 1;
    await a.hold();
    expect(await leaseRequests()).toEqual([]);
    now += 1;
    await a.hold();
    expect(await leaseRequests()).toEqual(['GET /v2/rbac/groups', 'PUT /v2/rbac/groups/ID']);

    await a.release();
    const [ended] = (await emulator.state()).groups ?? [];
    expect(parseLease(ended?.description as string)?.expiresAt).toBe(new Date(now).toISOString());
  });

  it('refuses a second writer while the first holds the lease; once it ended, the second takes over with a warning and the first finds out', async () => {
    const a = lease('aaaaaaaa');
    const b = lease('bbbbbbbb');
    await a.hold();
    now += DEFAULT_WRITER_LEASE_MS - 1;
    const refused = await b.hold().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(WriterLeaseError);
    expect((refused as Error).message).toMatch(
      /^the workspace is being written by another wsync \(writer aaaaaaaa on aaaaaaaa-pod, state directory \/var\/lib\/aaaaaaaa; its lease runs until 2026-03-01T12:05:00\.000Z\), and this one uses state directory \/var\/lib\/bbbbbbbb: .*so nothing was written/,
    );

    now += 1; // a has stopped renewing (it died): its lease ends
    await b.hold();
    expect(warnings).toEqual([expect.stringMatching(/^took over the workspace's writer lease from writer aaaaaaaa on aaaaaaaa-pod, state directory \/var\/lib\/aaaaaaaa, which ended at 2026-03-01T12:05:00\.000Z/)]);
    expect((await emulator.state()).groups).toHaveLength(1);

    await a.renew();
    expect(warnings[1]).toMatch(/^the workspace's writer lease was lost: the workspace is being written by another wsync \(writer bbbbbbbb/);
    await expect(a.hold()).rejects.toBeInstanceOf(WriterLeaseError);
  });

  it('says once that a token without the rbac capabilities cannot keep a lease, and writes on', async () => {
    const created = await client.request<{ token: string }>({
      method: 'POST',
      path: '/v2/tokens',
      body: { name: 'no-rbac', orgCapabilities: { monitors: ['create', 'read', 'update', 'delete'] } },
    });
    const scoped = apiClientFor(emulator, { token: () => created.body.token });
    try {
      const c = new WriterLease(() => scoped, writer('cccccccc'), { clock, warn: (m) => warnings.push(m) });
      await c.hold();
      await c.hold();
      expect(warnings).toEqual([expect.stringMatching(/^the workspace cannot be marked as written by this wsync \(GET \/v2\/rbac\/groups: 403 .*give the token the rbac read and create capabilities/i)]);
    } finally {
      await scoped.close();
    }
  });
});

describe('a second writer with another state directory', () => {
  let emulator: TestEmulator;
  let work: string;
  beforeEach(async () => {
    emulator = await startTestEmulator();
    work = await tempDir('wsync-two-writers-');
    await writeFile(join(work, 'notifier.yaml'), 'apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: oncall\nspec:\n  properties:\n    email:\n      emails: [oncall@example.com]\n');
  });
  afterEach(async () => {
    await emulator.close();
    await removeDir(work);
  });

  it('is refused while the first holds the lease, writing nothing, not even an adoption; once the first ends it, it takes over', async () => {
    const apply = (stateDir: string) => runCli(['apply', work, '--state-dir', join(work, stateDir)], { env: emulator.env });
    const first = await apply('state-a');
    expect(first.code, first.stderr).toBe(0);

    // The first writer runs on (a daemon, here one holding the lease in-process).
    const client = apiClientFor(emulator);
    const holder = new WriterLease(() => client, { id: 'a'.repeat(32), host: 'daemon-pod', stateDir: '/var/lib/wsync' }, { warn: () => undefined });
    try {
      await holder.hold();
      await emulator.clearRequests();
      const second = await apply('state-b');
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/^apply: the workspace is being written by another wsync \(writer aaaaaaaa on daemon-pod, state directory \/var\/lib\/wsync; its lease runs until .*\), and this one uses state directory .*state-b: two writers with different inventories would each adopt what the other owns, so nothing was written/m);
      expect(await emulator.writes()).toEqual([]);
      // The notifier the first owns was not adopted into the second's inventory.
      expect(await readdir(join(work, 'state-b'))).not.toContain('inventory.json');

      await holder.release();
      const third = await apply('state-b');
      expect(third.code, third.stderr).toBe(0);
      expect(third.stderr).toContain("warning: took over the workspace's writer lease from writer aaaaaaaa on daemon-pod");
    } finally {
      await client.close();
    }
  });
});
