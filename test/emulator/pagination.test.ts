// Starred-query paging: limit 1..1000 (default 100), offset >= 0 (default 0), who and dataset
// filters, creation order, and 400 for out-of-range or non-integer values.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';

const ADMIN_USER_ID = 'usr_emulatoradmin00000';
const TOTAL = 1500;
const harness = useTestEmulator({ seedFile: DEMO_SEED_FILE, seed: 7 });
let otherUserId: string;

interface Query {
  id: string;
  name: string;
  who: string;
  dataset?: string;
}

beforeAll(async () => {
  otherUserId = (await harness.ok<{ id: string }>('POST', '/v2/users', { name: 'Other', email: 'other@example.com', role: 'user' })).id;
  // 1,500 queries owned by the caller (the admin user), then 3 owned by another user, via the seed hook.
  const starredQueries = Array.from({ length: TOTAL }, (_, index) => ({
    kind: 'apl',
    name: `q${String(index).padStart(4, '0')}`,
    who: ADMIN_USER_ID,
    dataset: index % 2 === 0 ? 'checkout' : 'payments',
    query: { apl: `['checkout'] | take ${index}` },
    metadata: {},
  }));
  for (let index = 0; index < 3; index += 1) {
    starredQueries.push({ kind: 'apl', name: `other${index}`, who: otherUserId, dataset: 'checkout', query: { apl: 'x' }, metadata: {} });
  }
  await harness.ok('POST', '/_emulator/seed', { starredQueries });
});

const page = (query: string) => harness.ok<Query[]>('GET', `/v2/apl-starred-queries?${query}`);

describe('GET /v2/apl-starred-queries paging', () => {
  it('defaults to limit 100, offset 0 and the caller’s queries, in creation order', async () => {
    const first = await page('');
    expect(first).toHaveLength(100);
    expect(first[0]?.name).toBe('q0000');
    expect(first[99]?.name).toBe('q0099');
    expect(first.every((query) => query.who === ADMIN_USER_ID)).toBe(true);
  });

  it('limit 1 gives exactly one, and offsets walk one at a time', async () => {
    expect((await page('limit=1')).map((query) => query.name)).toEqual(['q0000']);
    expect((await page('limit=1&offset=1')).map((query) => query.name)).toEqual(['q0001']);
    expect((await page('limit=1&offset=1499')).map((query) => query.name)).toEqual(['q1499']);
  });

  it('limit 1000 gives 1000, and the next page the rest', async () => {
    const first = await page('limit=1000');
    expect(first).toHaveLength(1000);
    const rest = await page('limit=1000&offset=1000');
    expect(rest).toHaveLength(TOTAL - 1000);
    const ids = new Set([...first, ...rest].map((query) => query.id));
    expect(ids.size).toBe(TOTAL);
  });

  it('an offset past the end gives an empty page, not an error', async () => {
    expect(await page(`offset=${TOTAL}`)).toEqual([]);
    expect(await page('offset=999999&limit=1000')).toEqual([]);
  });

  it.each([
    ['limit=0', /"limit" must be an integer from 1 to 1000, got "0"/],
    ['limit=1001', /"limit"/],
    ['limit=-1', /"limit"/],
    ['limit=abc', /"limit"/],
    ['limit=1.5', /"limit"/],
    ['limit=', /"limit"/],
    ['offset=-1', /"offset" must be an integer >= 0, got "-1"/],
    ['offset=x', /"offset"/],
    ['offset=2.0', /"offset"/],
    ['who=usr_nobody', /"who"/],
  ])('%s is 400 with a message naming the parameter', async (query, message) => {
    const answer = await harness.call('GET', `/v2/apl-starred-queries?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 400, message: expect.stringMatching(message) });
  });

  it('who=all, who=team, who=<user id> and dataset filter as documented', async () => {
    expect(await page('who=all&limit=1000&offset=1000')).toHaveLength(TOTAL + 3 - 1000);
    const team = await page('who=team');
    expect(team.map((query) => query.name)).toEqual(['other0', 'other1', 'other2']);
    expect(await page(`who=${otherUserId}&limit=2`)).toHaveLength(2);
    expect(await page(`who=${ADMIN_USER_ID}&limit=1`)).toHaveLength(1);
    const payments = await page('who=all&dataset=payments&limit=1000');
    expect(payments).toHaveLength(TOTAL / 2);
    expect(payments.every((query) => query.dataset === 'payments')).toBe(true);
    expect((await harness.call('GET', '/v2/apl-starred-queries?dataset=nope')).status).toBe(404);
  });

  it('refuses a starred query owned by an unknown user', async () => {
    const answer = await harness.call('POST', '/v2/apl-starred-queries', {
      body: { kind: 'apl', name: 'x', who: 'usr_nobody', query: { apl: 'x' } },
      token: harness.token,
    });
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toMatch(/"who".*usr_nobody/);
  });
});
