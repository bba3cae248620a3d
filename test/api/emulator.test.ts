// The client against the real emulator over 127.0.0.1: pacing at the server's limit, and what
// happens to writes whose answer is lost.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import { listKind } from '../../src/live/index.js';
import { apiClientFor, startTestEmulator, type LoggedRequest, type TestEmulator } from '../support/emulator.js';

let emulator: TestEmulator | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  await emulator?.close();
  client = undefined;
  emulator = undefined;
});

function perSecond(log: LoggedRequest[]): number[] {
  const counts = new Map<string, number>();
  for (const r of log) counts.set(r.at.slice(0, 19), (counts.get(r.at.slice(0, 19)) ?? 0) + 1);
  return [...counts.values()];
}

const notifier = (name: string) => ({ name, properties: { slack: { slackUrl: 'https://hooks.slack.com/services/T/B/X' } } });

describe('client against the emulator', () => {
  it('paces creates at the server limit with concurrency 4: no 429, no window over the limit', async () => {
    const rate = 25;
    const total = 60;
    // One-second windows, so the pacing inside a window shows in a test of seconds.
    emulator = await startTestEmulator({ rateLimit: rate, rateWindowSeconds: 1 });
    const c = (client = apiClientFor(emulator));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        const i = next++;
        await c.request({ method: 'POST', path: '/v2/notifiers', body: notifier(`n-${i}`) });
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);

    const log = await emulator.requests();
    expect(log).toHaveLength(total);
    expect(log.filter((r) => r.status === 429)).toHaveLength(0);
    expect(c.stats).toMatchObject({ requests: total, retries: 0, rateLimited: 0 });
    for (const count of perSecond(log)) expect(count).toBeLessThanOrEqual(rate);
    // 60 requests at 25 a second fill at least three windows. That pacing adds little to the
    // (total / rate) seconds is a speed claim: bench/client.mjs measures it.
    expect(perSecond(log).length).toBeGreaterThanOrEqual(3);
    expect(await listKind(c, 'Notifier')).toHaveLength(total);
  });

  it('does not retry a POST whose answer was lost; re-listing finds the object', async () => {
    emulator = await startTestEmulator();
    client = apiClientFor(emulator);
    await emulator.faults({ dropAfterWriteRate: 1 });
    const err = await client.request({ method: 'POST', path: '/v2/notifiers', body: notifier('lost-answer') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ noAnswer: true, method: 'POST', attempts: 1 });
    await emulator.faults({ dropAfterWriteRate: 0 });
    expect((await emulator.requests()).filter((r) => r.method === 'POST')).toHaveLength(1);
    const live = await listKind(client, 'Notifier');
    expect(live.map((o) => o.raw.name)).toEqual(['lost-answer']);
  });

  it('retries a PUT whose answer was lost; a lost DELETE answers 404 on retry', async () => {
    emulator = await startTestEmulator();
    client = apiClientFor(emulator, { retryCapMs: 5 });
    const created = await client.request<{ id: string }>({ method: 'POST', path: '/v2/notifiers', body: notifier('n') });
    const path = `/v2/notifiers/${created.body.id}`;
    await emulator.faults({ dropAfterWriteRate: 1 });

    // Every answer is lost: the PUT is sent 1 + maxRetries times (it is idempotent), then fails.
    const putErr = await client.request({ method: 'PUT', path, body: notifier('renamed') }).catch((e: unknown) => e);
    expect(putErr).toMatchObject({ noAnswer: true, attempts: 7 });
    expect((await emulator.requests()).filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([0, 0, 0, 0, 0, 0, 0]);

    // The first DELETE is applied and its answer lost; the retry finds nothing. Apply must read a
    // 404 on DELETE as "already gone".
    const deleteErr = await client.request({ method: 'DELETE', path }).catch((e: unknown) => e);
    expect(deleteErr).toMatchObject({ status: 404, attempts: 2, noAnswer: false });
    await emulator.faults({ dropAfterWriteRate: 0 });
    expect(await listKind(client, 'Notifier')).toEqual([]);
  });

  it('keeps the token out of the error for a refused token', async () => {
    emulator = await startTestEmulator();
    const wrong = 'wrong-token-that-must-not-leak';
    client = apiClientFor(emulator, { token: () => wrong });
    const err = await client.request({ method: 'GET', path: '/v2/monitors' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(`${(err as ApiError).message} ${JSON.stringify(err)}`).not.toContain(wrong);
  });
});
