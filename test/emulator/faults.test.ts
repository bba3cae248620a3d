// Fault injection and rate limiting: resets, writes applied then dropped, random 5xx, latency,
// determinism under --seed, runtime changes through /_emulator/faults, and 429 windows.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { bodies } from './fixtures.js';

let harness: TestEmulator | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await harness?.close();
  harness = undefined;
});

interface LogEntry {
  method: string;
  path: string;
  status: number;
  at: string;
}

const requestLog = async (h: TestEmulator): Promise<LogEntry[]> => h.ok<LogEntry[]>('GET', '/_emulator/requests');
const setFaults = (h: TestEmulator, faults: object) => h.ok<Record<string, unknown>>('POST', '/_emulator/faults', faults);

/** POSTs a monitor-less notifier and reports either the status or that the connection failed. */
/** The secret of a new API token that may read monitors. */
async function apiTokenSecret(h: TestEmulator): Promise<string> {
  const made = (await h.ok('POST', '/v2/tokens', { name: 'reader', orgCapabilities: { monitors: ['read'] } })) as { token: string };
  return made.token;
}

async function postNotifier(h: TestEmulator): Promise<number | 'connection-failed'> {
  try {
    const response = await fetch(`${h.url}/v2/notifiers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(bodies.notifier()),
    });
    await response.text();
    return response.status;
  } catch {
    return 'connection-failed';
  }
}

describe('fault injection', () => {
  it('with --drop-after-write-rate 1 a POST is stored but the client sees a reset', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE, dropAfterWriteRate: 1 });
    expect(await postNotifier(harness)).toBe('connection-failed');
    const stored = await harness.ok<unknown[]>('GET', '/v2/notifiers');
    expect(stored).toHaveLength(1);
    const writes = (await requestLog(harness)).filter((entry) => entry.method === 'POST');
    expect(writes).toEqual([expect.objectContaining({ path: '/v2/notifiers', status: 0 })]);
    // Reads are answered normally; a write that fails validation is answered too (nothing applied).
    const invalid = await harness.call('POST', '/v2/notifiers', { body: { name: 'x' } });
    expect(invalid.status).toBe(400);
  });

  it('with --reset-rate 1 the connection dies before any answer and nothing is applied', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE, resetRate: 1 });
    expect(await postNotifier(harness)).toBe('connection-failed');
    await setFaults(harness, { resetRate: 0 });
    expect(await harness.ok<unknown[]>('GET', '/v2/notifiers')).toHaveLength(0);
    const log = await requestLog(harness);
    expect(log[0]).toMatchObject({ method: 'POST', path: '/v2/notifiers', status: 0 });
  });

  it('with --fault-rate 1 every request answers 500, 502 or 503 with {code, message}', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE, faultRate: 1 });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const answer = await harness.call('GET', '/v2/monitors');
      expect([500, 502, 503]).toContain(answer.status);
      expect(answer.body).toEqual({ code: answer.status, message: expect.stringContaining('injected') });
    }
    // Test hooks are never faulted.
    expect((await harness.call('GET', '/_emulator/faults')).status).toBe(200);
  });

  it('is deterministic for a given --seed', async () => {
    const statuses = async (seed: number): Promise<(number | 'connection-failed')[]> => {
      const h = await startTestEmulator({ seedFile: DEMO_SEED_FILE, seed, faultRate: 0.3, resetRate: 0.2 });
      const out: (number | 'connection-failed')[] = [];
      for (let index = 0; index < 40; index += 1) out.push(await postNotifier(h));
      await h.close();
      return out;
    };
    const first = await statuses(42);
    expect(await statuses(42)).toEqual(first);
    expect(first).toContain(200);
    expect(first).toContain('connection-failed');
    expect(first.some((status) => status === 500 || status === 502 || status === 503)).toBe(true);
    expect(await statuses(43)).not.toEqual(first);
  });

  it('adds latency within --latency MIN-MAX', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE, latencyMs: [60, 80] });
    const started = performance.now();
    await harness.ok('GET', '/v2/monitors');
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('changes faults at runtime through POST /_emulator/faults and validates them', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    expect(await harness.ok('GET', '/_emulator/faults')).toMatchObject({ faultRate: 0, dropAfterWriteRate: 0, seed: 1 });
    const updated = await setFaults(harness, { dropAfterWriteRate: 1, latencyMs: [0, 1] });
    expect(updated).toMatchObject({ dropAfterWriteRate: 1, latencyMs: [0, 1] });
    expect(await postNotifier(harness)).toBe('connection-failed');
    await setFaults(harness, { dropAfterWriteRate: 0, latencyMs: null });
    expect(await postNotifier(harness)).toBe(200);
    const bad = await harness.call('POST', '/_emulator/faults', { body: { faultRate: 2 } });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/faultRate/);
    expect((await harness.call('POST', '/_emulator/faults', { body: { latencyMs: [5, 1] } })).status).toBe(400);
    // Node's timers take at most 2^31-1 ms: a longer delay would fire at once, not late.
    const tooLong = await harness.call('POST', '/_emulator/faults', { body: { latencyMs: [0, 2 ** 31] } });
    expect(tooLong.status).toBe(400);
    expect((tooLong.body as { message: string }).message).toMatch(/at most 2147483647/);
    await expect(startEmulator({ port: 0, latencyMs: [2 ** 31, 2 ** 31] })).rejects.toThrow(/latencyMs.*at most 2147483647/);
    expect((await harness.call('POST', '/_emulator/faults', { body: { bogus: 1 } })).status).toBe(400);
  });

  it('logs method, path with query, status and time; DELETE clears the log; hooks are not logged', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    await harness.call('GET', '/v2/vfields?dataset=checkout');
    await harness.call('GET', '/v2/nothing-here');
    const log = await requestLog(harness);
    expect(log).toEqual([
      { method: 'GET', path: '/v2/vfields?dataset=checkout', status: 200, at: expect.stringMatching(/^\d{4}-.*Z$/) },
      { method: 'GET', path: '/v2/nothing-here', status: 404, at: expect.any(String) },
    ]);
    expect((await harness.call('DELETE', '/_emulator/requests')).status).toBe(204);
    expect(await requestLog(harness)).toEqual([]);
  });
});


describe('rate limit', () => {
  it('sends X-RateLimit-* on every response, per minute, 1,000,000 when unlimited', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:12.500Z') });
    for (const path of ['/v2/monitors', '/v2/nothing', '/v2/monitors/mon_missing']) {
      const answer = await harness.call('GET', path);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('1000000');
      expect(answer.headers.get('x-ratelimit-scope')).toBe('user');
      expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
      // The window is the minute, aligned to epoch minutes: it ends at 00:01:00.
      expect(Number(answer.headers.get('x-ratelimit-reset'))).toBe(Date.parse('2026-01-01T00:01:00Z') / 1000);
    }
    expect((await harness.call('GET', '/v2/monitors', { token: null })).headers.get('x-ratelimit-limit')).toBe('1000000');
  });

  it('answers 429 {"code":429,"message":"rate limit exceeded"} with Retry-After past --rate-limit', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE, rateLimit: 5 });
    const secret = await apiTokenSecret(harness);
    // The windows are epoch minutes of the emulator's clock (this process's Date): stop it 20 s into
    // a minute, so the burst stays in one window however slow the machine is.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:20.100Z') });
    const answers = [];
    for (let index = 0; index < 7; index += 1) answers.push(await harness.call('GET', '/v2/monitors'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0', '0', '0']);
    const limited = answers[5];
    expect(limited?.body).toEqual({ code: 429, message: 'rate limit exceeded' });
    // Retry-After: the seconds left in the minute.
    expect(limited?.headers.get('retry-after')).toBe('40');
    expect(limited?.headers.get('x-ratelimit-limit')).toBe('5');
    expect(limited?.headers.get('x-ratelimit-scope')).toBe('user');
    // The hooks are not limited.
    expect((await harness.call('GET', '/_emulator/requests')).status).toBe(200);
    // An API token counts against the organization's limit, apart from the user's.
    const byToken = await harness.call('GET', '/v2/monitors', { token: secret });
    expect(byToken.status).toBe(200);
    expect(byToken.headers.get('x-ratelimit-scope')).toBe('organization');
    // Still within the minute: the user's window stays used up; the next minute starts fresh.
    vi.setSystemTime(Date.parse('2026-01-01T00:00:59.900Z'));
    expect((await harness.call('GET', '/v2/monitors')).status).toBe(429);
    vi.setSystemTime(Date.parse('2026-01-01T00:01:00.000Z'));
    expect((await harness.call('GET', '/v2/monitors')).status).toBe(200);
  });

  it('changes the limit at runtime', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    await setFaults(harness, { rateLimit: 2 });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:00.100Z') });
    const statuses = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await harness.call('GET', '/v2/monitors')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('counts in shorter windows when a test asks for them (rateWindowSeconds)', async () => {
    harness = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    await setFaults(harness, { rateLimit: 1, rateWindowSeconds: 1 });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:00.100Z') });
    const first = await harness.call('GET', '/v2/monitors');
    expect(first.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-01-01T00:00:01Z') / 1000));
    const second = await harness.call('GET', '/v2/monitors');
    expect([first.status, second.status, second.headers.get('retry-after')]).toEqual([200, 429, '1']);
    vi.setSystemTime(Date.parse('2026-01-01T00:00:01.000Z'));
    expect((await harness.call('GET', '/v2/monitors')).status).toBe(200);
  });
});
