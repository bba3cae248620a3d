// The emulator's dashboards answer like the service (docs/wire-contract.md "Dashboards"): a uid
// of one's own, a version that grows by one per write, 412 with the current version for a stale
// write, 409 for a POST over a taken uid, PUT that creates (201), paging, and the test hook that
// makes a save "someone made in the UI".
import { describe, expect, it } from 'vitest';
import { useTestEmulator } from '../support/emulator.js';
import { bodies, unique } from './fixtures.js';

const harness = useTestEmulator();

interface Resource {
  uid: string;
  id: string;
  version: number;
  dashboard: Record<string, unknown>;
}

interface WriteAnswer {
  status: string;
  overwritten?: boolean;
  dashboard: Resource;
}

async function created(): Promise<Resource> {
  const uid = unique('board');
  const answer = await harness.call('PUT', `/v2/dashboards/uid/${uid}`, { body: bodies.dashboard() });
  expect(answer.status, answer.text).toBe(201);
  return (answer.body as WriteAnswer).dashboard;
}

describe('dashboards', () => {
  it('creates with the uid given, or one of its own; the document reads back with uid and a lower-case everyone owner', async () => {
    const given = await harness.call('POST', '/v2/dashboards', { body: { uid: 'ops-main', ...bodies.dashboard() } });
    expect(given.status).toBe(201);
    const answer = given.body as WriteAnswer;
    expect(answer.status).toBe('created');
    expect(answer.dashboard).toMatchObject({ uid: 'ops-main', version: 1 });
    expect(answer.dashboard.id).not.toBe('ops-main');
    const read = await harness.ok<Resource>('GET', '/v2/dashboards/uid/ops-main');
    expect(read.dashboard).toMatchObject({ uid: 'ops-main', owner: 'x-axiom-everyone' });

    const generated = (await harness.ok<WriteAnswer>('POST', '/v2/dashboards', bodies.dashboard())).dashboard.uid;
    expect(generated).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
  });

  it('refuses a POST over a taken uid with 409, and differing uids with 400', async () => {
    const { uid } = await created();
    const again = await harness.call('POST', '/v2/dashboards', { body: { uid, ...bodies.dashboard() } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: 'Dashboard already exists', uid, currentVersion: 1 });
    const differ = await harness.call('PUT', `/v2/dashboards/uid/${uid}`, { body: { uid: 'other', ...bodies.dashboard(), version: 1 } });
    expect(differ.status).toBe(400);
    expect((differ.body as { message: string }).message).toContain('differ');
  });

  it('writes with the current version (+1 each time), and refuses a stale or missing one with 412 and the current version', async () => {
    const { uid } = await created();
    const update = await harness.call('PUT', `/v2/dashboards/uid/${uid}`, { body: { ...bodies.dashboard(), version: 1 } });
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ status: 'updated', dashboard: { version: 2 } });

    const stale = await harness.call('PUT', `/v2/dashboards/uid/${uid}`, { body: { ...bodies.dashboard(), version: 1 } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ uid, currentVersion: 2, reason: 'version_mismatch' });
    const missing = await harness.call('PUT', `/v2/dashboards/uid/${uid}`, { body: bodies.dashboard() });
    expect(missing.status).toBe(412);
    expect((await harness.ok<Resource>('GET', `/v2/dashboards/uid/${uid}`)).version).toBe(2);

    // `overwrite` wins over any version (wsync never sends it), and says so.
    const forced = await harness.ok<WriteAnswer>('PUT', `/v2/dashboards/uid/${uid}`, { ...bodies.dashboard(), version: 1, overwrite: true });
    expect(forced).toMatchObject({ status: 'updated', overwritten: true, dashboard: { version: 3 } });
  });

  it('makes a save from the UI at once or just before the next write, which that write then finds stale', async () => {
    const { uid } = await created();
    const now = await harness.ok<{ version: number }>('POST', '/_emulator/dashboards/ui-save', { uid, dashboard: { name: 'Renamed in the UI' } });
    expect(now.version).toBe(2);
    const read = await harness.ok<Resource>('GET', `/v2/dashboards/uid/${uid}`);
    expect(read).toMatchObject({ version: 2, dashboard: { name: 'Renamed in the UI' } });

    await harness.ok('POST', '/_emulator/dashboards/ui-save', { uid, dashboard: { description: 'edited' }, when: 'before-next-write' });
    // Not yet saved: a read still sees version 2.
    expect((await harness.ok<Resource>('GET', `/v2/dashboards/uid/${uid}`)).version).toBe(2);
    const write = await harness.call('PUT', `/v2/dashboards/uid/${uid}`, { body: { ...bodies.dashboard(), version: 2 } });
    expect(write.status).toBe(412);
    expect(write.body).toMatchObject({ currentVersion: 3 });
    expect((await harness.ok<Resource>('GET', `/v2/dashboards/uid/${uid}`)).dashboard).toMatchObject({ name: 'Renamed in the UI', description: 'edited' });

    const bad = await harness.call('POST', '/_emulator/dashboards/ui-save', { body: { uid, when: 'later' } });
    expect(bad.status).toBe(400);
    expect((await harness.call('POST', '/_emulator/dashboards/ui-save', { body: { uid: 'no-such-board' } })).status).toBe(404);
  });

  it('pages with limit and offset, and refuses values out of range', async () => {
    for (let i = 0; i < 3; i += 1) await created();
    const all = await harness.ok<Resource[]>('GET', '/v2/dashboards?limit=1000');
    expect(all.length).toBeGreaterThanOrEqual(3);
    const page = await harness.ok<Resource[]>('GET', '/v2/dashboards?limit=2&offset=1');
    expect(page.map((d) => d.uid)).toEqual(all.slice(1, 3).map((d) => d.uid));
    expect((await harness.call('GET', '/v2/dashboards?limit=1001')).status).toBe(400);
    expect((await harness.call('GET', '/v2/dashboards?offset=-1')).status).toBe(400);
  });

  it('deletes by uid: 204, then 404 naming the uid', async () => {
    const { uid } = await created();
    expect((await harness.call('DELETE', `/v2/dashboards/uid/${uid}`)).status).toBe(204);
    const gone = await harness.call('GET', `/v2/dashboards/uid/${uid}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ uid });
  });
});
