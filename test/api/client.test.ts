import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { ApiError, ConfigError } from '../../src/api/errors.js';
import { systemClock } from '../../src/api/rate-limiter.js';
import type { ApiClient, ConnectionConfig } from '../../src/api/types.js';
import { startScriptServer, type Scripted, type ScriptServer } from './script-server.js';

const TOKEN = 'xaat-super-secret-token-0123456789';
const FAST = { retryBaseMs: 1, retryCapMs: 5 };

let servers: ScriptServer[] = [];
let clients: ApiClient[] = [];

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  clients = [];
});

/**
 * The client's clock, faked: Date stands still (in this process: the client's and the script
 * server's times) unless the client sleeps, and a sleep returns at once after moving Date on. The
 * network stays real; only waiting is skipped, so a test sees exactly how long the client waited.
 */
function fakeClock(start = Date.parse('2026-01-01T00:00:00.300Z'), options: { timers?: boolean } = {}): { slept: number[] } {
  vi.useFakeTimers({ toFake: options.timers ? ['Date', 'setTimeout', 'clearTimeout'] : ['Date'], now: start });
  const slept: number[] = [];
  vi.spyOn(systemClock, 'sleep').mockImplementation(async (ms) => {
    slept.push(ms);
    vi.setSystemTime(Date.now() + Math.max(0, ms));
  });
  return { slept };
}

/** Lets real I/O run (setImmediate is not faked) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

async function serve(script: (index: number, method: string, url: string) => Scripted | Promise<Scripted>): Promise<ScriptServer> {
  const server = await startScriptServer((req, i) => script(i, req.method, req.url));
  servers.push(server);
  return server;
}

function client(url: string, extra: Partial<ConnectionConfig> = {}): ApiClient {
  const c = createApiClient({ url, token: () => TOKEN, ...FAST, ...extra });
  clients.push(c);
  return c;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('requests', () => {
  it('sends the bearer token, org id, user agent, JSON body and comma-joined arrays', async () => {
    const server = await serve(() => ({ status: 200, body: { id: 'mon_1' } }));
    const c = client(server.url, { orgId: 'org-acme-1a2b3c' });
    const res = await c.request({
      method: 'POST',
      path: '/v2/monitors',
      query: { datasets: ['checkout', 'pay ments'], limit: 5 },
      body: { name: 'm' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'mon_1' });
    const seen = server.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v2/monitors?datasets=checkout,pay%20ments&limit=5');
    expect(seen.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen.headers['x-axiom-org-id']).toBe('org-acme-1a2b3c');
    expect(seen.headers['user-agent']).toMatch(/^wsync\/\d+\.\d+\.\d+/);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ name: 'm' });
  });

  it('answers null for 204 and leaves out X-Axiom-Org-Id without an org id', async () => {
    const server = await serve(() => ({ status: 204 }));
    const res = await client(server.url).request({ method: 'DELETE', path: '/v2/monitors/mon_1' });
    expect(res).toMatchObject({ status: 204, body: null });
    expect(server.seen[0]!.headers['x-axiom-org-id']).toBeUndefined();
    expect(server.seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('does not double /v2 when the URL already ends with it', async () => {
    const server = await serve(() => ({ body: [] }));
    await client(`${server.url}/v2/`).request({ method: 'GET', path: '/v2/notifiers' });
    expect(server.seen[0]!.url).toBe('/v2/notifiers');
  });

  it('reads the token again for every attempt (a rotated token takes effect)', async () => {
    const server = await serve((i) => (i === 0 ? { status: 503 } : { body: [] }));
    let n = 0;
    const c = createApiClient({ url: server.url, token: () => `token-${++n}`, ...FAST });
    clients.push(c);
    await c.request({ method: 'GET', path: '/v2/users' });
    expect(server.seen.map((s) => s.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('keeps connections alive between requests', async () => {
    const server = await serve(() => ({ body: [] }));
    const c = client(server.url);
    for (let i = 0; i < 6; i++) await c.request({ method: 'GET', path: '/v2/monitors' });
    // undici's pool may alternate between two sockets, but it does not open one per request.
    expect(new Set(server.seen.map((s) => s.remotePort)).size).toBeLessThanOrEqual(2);
    expect(server.seen.every((s) => s.headers.connection === 'keep-alive')).toBe(true);
  });

  it('queues requests beyond maxConcurrency', async () => {
    const server = await serve(() => ({ body: [], delayMs: 30 }));
    const c = client(server.url, { maxConcurrency: 3 });
    await Promise.all(Array.from({ length: 10 }, () => c.request({ method: 'GET', path: '/v2/monitors' })));
    expect(server.seen).toHaveLength(10);
    expect(server.maxInFlight).toBe(3);
  });

  it('refuses plain http to a host that is not loopback unless insecure', () => {
    expect(() => createApiClient({ url: 'http://api.example.com', token: () => TOKEN })).toThrow(ConfigError);
    expect(() => createApiClient({ url: 'http://api.example.com', token: () => TOKEN })).toThrow(/refusing plain http/);
    const insecure = createApiClient({ url: 'http://api.example.com', token: () => TOKEN, insecure: true });
    clients.push(insecure);
  });
});

describe('retries', () => {
  it('retries a GET after 503 and counts every attempt', async () => {
    const server = await serve((i) => (i < 2 ? { status: 503, body: { code: 503, message: 'busy' } } : { body: [] }));
    const c = client(server.url);
    const attempts: [string, number][] = [];
    c.onAttempt = (method, status) => attempts.push([method, status]);
    const res = await c.request({ method: 'GET', path: '/v2/monitors' });
    expect(res.body).toEqual([]);
    expect(attempts).toEqual([
      ['GET', 503],
      ['GET', 503],
      ['GET', 200],
    ]);
    expect(c.stats).toMatchObject({ requests: 3, retries: 2, rateLimited: 0, byMethodStatus: { 'GET 503': 2, 'GET 200': 1 } });
  });

  it('retries PUT and DELETE on 5xx and on a reset connection', async () => {
    const server = await serve((i) => [{ status: 502 }, { destroy: true }, { body: { id: 'x' } }, { status: 500 }, { status: 204 }][i]!);
    const c = client(server.url);
    await c.request({ method: 'PUT', path: '/v2/monitors/mon_1', body: { name: 'm' } });
    await c.request({ method: 'DELETE', path: '/v2/monitors/mon_1' });
    expect(server.seen.map((s) => s.method)).toEqual(['PUT', 'PUT', 'PUT', 'DELETE', 'DELETE']);
    expect(c.stats.byMethodStatus).toMatchObject({ 'PUT 502': 1, 'PUT 0': 1, 'PUT 200': 1, 'DELETE 500': 1, 'DELETE 204': 1 });
  });

  it('retries a read-only POST (a query) on 5xx and on a reset connection, as it would a GET', async () => {
    const server = await serve((i) => [{ status: 503 }, { destroy: true }, { body: { tables: [] } }][i]!);
    const c = client(server.url);
    await c.request({ method: 'POST', readOnly: true, path: '/v1/datasets/_apl', body: { apl: "['a'] | limit 0" } });
    expect(c.stats.byMethodStatus).toMatchObject({ 'POST 503': 1, 'POST 0': 1, 'POST 200': 1 });
  });

  it('honours Retry-After in seconds on 429', async () => {
    const { slept } = fakeClock();
    const server = await serve((i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: { message: 'slow down' } } : { body: [] }));
    const c = client(server.url);
    await c.request({ method: 'GET', path: '/v2/monitors' });
    expect(server.seen).toHaveLength(2);
    expect(slept).toEqual([1000]);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBe(1000);
    expect(c.stats.rateLimited).toBe(1);
  });

  it('honours Retry-After as an HTTP date on 429', async () => {
    const { slept } = fakeClock(Date.parse('2026-01-01T00:00:00.300Z'));
    // HTTP dates have whole seconds: 1.7 s from now.
    const notBefore = Date.parse('2026-01-01T00:00:02.000Z');
    const server = await serve((i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': new Date(notBefore).toUTCString() } } : { body: [] },
    );
    await client(server.url).request({ method: 'GET', path: '/v2/monitors' });
    expect(slept).toEqual([1700]);
    expect(server.seen[1]!.at).toBe(notBefore);
  });

  it('honours X-RateLimit-Reset on 429 without Retry-After', async () => {
    const { slept } = fakeClock(Date.parse('2026-01-01T00:00:00.300Z'));
    const reset = Date.parse('2026-01-01T00:00:01.000Z') / 1000;
    const server = await serve((i) =>
      i === 0
        ? { status: 429, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } }
        : { body: [] },
    );
    await client(server.url).request({ method: 'GET', path: '/v2/monitors' });
    expect(slept).toEqual([700]);
    expect(server.seen[1]!.at).toBe(reset * 1000);
  });

  it('retries a POST answered 429: the server refused it unprocessed', async () => {
    const server = await serve((i) => (i === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { body: { id: 'mon_1' } }));
    const res = await client(server.url).request({ method: 'POST', path: '/v2/monitors', body: { name: 'm' } });
    expect(res.body).toEqual({ id: 'mon_1' });
    expect(server.seen).toHaveLength(2);
  });

  it('never retries a POST that got no answer: noAnswer, one request', async () => {
    const server = await serve(() => ({ destroy: true }));
    const c = client(server.url);
    const err = await failure(c.request({ method: 'POST', path: '/v2/monitors', body: { name: 'm' } }));
    expect(err).toMatchObject({ noAnswer: true, maybeApplied: false, status: undefined, method: 'POST', path: '/v2/monitors', attempts: 1 });
    expect(err.message).toMatch(/^POST \/v2\/monitors: no answer/);
    expect(server.seen).toHaveLength(1);
    expect(c.stats.byMethodStatus).toEqual({ 'POST 0': 1 });
  });

  it('never retries a POST that timed out', async () => {
    // Timers are fake too: the server's delay and the client's timeout fire only when told to.
    fakeClock(undefined, { timers: true });
    const server = await serve(() => ({ body: { id: 'late' }, delayMs: 300 }));
    const pending = failure(client(server.url, { timeoutMs: 50 }).request({ method: 'POST', path: '/v2/notifiers', body: {} }));
    await until(() => server.seen.length === 1);
    await vi.advanceTimersByTimeAsync(50);
    const err = await pending;
    expect(err).toMatchObject({ noAnswer: true, code: 'ETIMEDOUT', attempts: 1 });
    expect(server.seen).toHaveLength(1);
  });

  it('never retries a POST answered 5xx: maybeApplied', async () => {
    const server = await serve(() => ({ status: 500, body: { code: 500, message: 'internal error' } }));
    const err = await failure(client(server.url).request({ method: 'POST', path: '/v2/monitors', body: { name: 'm' } }));
    expect(err).toMatchObject({ status: 500, maybeApplied: true, noAnswer: false, serverMessage: 'internal error', attempts: 1 });
    expect(server.seen).toHaveLength(1);
  });

  it('retries a GET that timed out, within the per-attempt timeout', async () => {
    fakeClock(undefined, { timers: true });
    const server = await serve((i) => (i === 0 ? { body: [], delayMs: 400 } : { body: [{ id: 'a' }] }));
    const c = client(server.url, { timeoutMs: 100 });
    const pending = c.request({ method: 'GET', path: '/v2/monitors' });
    await until(() => server.seen.length === 1);
    // The first answer would come at 400 ms: the attempt is given up at 100 ms and sent again.
    await vi.advanceTimersByTimeAsync(100);
    const res = await pending;
    expect(res.body).toEqual([{ id: 'a' }]);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(100);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeLessThan(400);
    expect(c.stats.byMethodStatus).toEqual({ 'GET 0': 1, 'GET 200': 1 });
  });

  it('retries even a POST when the connection was refused (nothing was sent)', async () => {
    const port = await closedPort();
    const c = client(`http://127.0.0.1:${port}`, { maxRetries: 2 });
    const err = await failure(c.request({ method: 'POST', path: '/v2/monitors', body: {} }));
    expect(err).toMatchObject({ noAnswer: true, code: 'ECONNREFUSED', attempts: 3 });
  });

  it('gives up after maxRetries with the last answer', async () => {
    const server = await serve(() => ({ status: 503, body: { code: 503, message: 'unavailable' } }));
    const err = await failure(client(server.url, { maxRetries: 3 }).request({ method: 'GET', path: '/v2/users' }));
    expect(err).toMatchObject({ status: 503, attempts: 4, maybeApplied: false });
    expect(err.message).toBe('GET /v2/users: 503 Service Unavailable: unavailable (after 4 attempts)');
    expect(server.seen).toHaveLength(4);
  });

  it('gives up at once when the wait would exceed the retry budget', async () => {
    const { slept } = fakeClock();
    const server = await serve(() => ({ status: 503, headers: { 'retry-after': '30' } }));
    const err = await failure(client(server.url, { retryBudgetMs: 1000 }).request({ method: 'GET', path: '/v2/users' }));
    expect(err).toMatchObject({ status: 503, attempts: 1 });
    expect(slept).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('waits out the per-minute window a 429 names, past the retry budget, but not a longer one', async () => {
    const { slept } = fakeClock();
    let answers = 0;
    const server = await serve(() =>
      ++answers === 1
        ? { status: 429, headers: { 'retry-after': '45', 'x-ratelimit-scope': 'organization', 'x-ratelimit-limit': '600' } }
        : { status: 200, body: [] },
    );
    const res = await client(server.url, { retryBudgetMs: 1000 }).request({ method: 'GET', path: '/v2/users' });
    expect(res.status).toBe(200);
    expect(slept.some((ms) => ms >= 45_000)).toBe(true);

    const stuck = await serve(() => ({ status: 429, headers: { 'retry-after': '600', 'x-ratelimit-scope': 'user', 'x-ratelimit-limit': '60' } }));
    const err = await failure(client(stuck.url, { retryBudgetMs: 1000 }).request({ method: 'GET', path: '/v2/users' }));
    expect(err).toMatchObject({ status: 429, attempts: 1 });
    expect(err.message).toContain("the user's request rate limit of 60 per minute is used up");
  });

  it('does not retry a 430 (a query or ingest limit) and says which limit it is', async () => {
    const reset = Date.parse('2026-12-01T00:00:00Z') / 1000;
    const server = await serve(() => ({
      status: 430,
      headers: { 'x-querylimit-limit': '1000', 'x-querylimit-remaining': '0', 'x-querylimit-reset': String(reset) },
      body: { code: 430, message: 'query limit exceeded' },
    }));
    const err = await failure(client(server.url).request({ method: 'POST', path: '/v1/datasets/_apl' }));
    expect(err).toMatchObject({ status: 430, attempts: 1 });
    expect(err.message).toContain('the query limit is used up until 2026-12-01T00:00:00.000Z; not retried');
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry other 4xx', async () => {
    const server = await serve(() => ({ status: 404, body: { code: 404, message: 'monitor "mon_x" not found' } }));
    const err = await failure(client(server.url).request({ method: 'GET', path: '/v2/monitors/mon_x' }));
    expect(err).toMatchObject({ status: 404, attempts: 1, serverMessage: 'monitor "mon_x" not found' });
  });
});

describe('errors', () => {
  it('says method, path, status and the server message', async () => {
    const server = await serve(() => ({ status: 400, body: { code: 400, message: 'monitors: field "intervalMinutes" must be >= 1' } }));
    const err = await failure(client(server.url).request({ method: 'POST', path: '/v2/monitors', body: { intervalMinutes: 0 } }));
    expect(err.message).toBe('POST /v2/monitors: 400 Bad Request: monitors: field "intervalMinutes" must be >= 1');
    expect(err).toMatchObject({ status: 400, method: 'POST', path: '/v2/monitors', noAnswer: false, maybeApplied: false });
  });

  it('names the query of a failed list, so a per-dataset error names its dataset', async () => {
    const server = await serve(() => ({ status: 403, body: { code: 403, message: 'forbidden' } }));
    const err = await failure(client(server.url).request({ method: 'GET', path: '/v2/vfields', query: { dataset: 'checkout' } }));
    expect(err.message).toBe('GET /v2/vfields?dataset=checkout: 403 Forbidden: forbidden');
    expect(err.path).toBe('/v2/vfields');
  });

  it('never carries the bearer token, even when the server echoes it, nor the request body', async () => {
    // Echo the Authorization header back in the error message, as a careless proxy might.
    const echo = await startScriptServer((req) => ({
      status: 401,
      body: { code: 401, message: `invalid token ${String(req.headers.authorization)}` },
    }));
    servers.push(echo);
    const secretBody = { name: 'm', properties: { slack: { slackUrl: 'https://hooks.slack.com/services/BODY-SECRET' } } };
    const err = await failure(client(echo.url).request({ method: 'POST', path: '/v2/notifiers', body: secretBody }));
    const everything = [err.message, err.serverMessage ?? '', String(err), err.stack ?? '', JSON.stringify(err), JSON.stringify({ ...err })].join('\n');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('BODY-SECRET');
    expect(err.message).toContain('(sensitive)');

    // And for an error without an answer.
    const reset = await startScriptServer(() => ({ destroy: true }));
    servers.push(reset);
    const err2 = await failure(client(reset.url, { maxRetries: 1 }).request({ method: 'GET', path: '/v2/notifiers' }));
    expect([err2.message, String(err2), JSON.stringify(err2)].join('\n')).not.toContain(TOKEN);
  });

  it('reports an answer that is not JSON', async () => {
    const server = await serve(() => ({ status: 200, body: '<html>proxy</html>' }));
    const err = await failure(client(server.url).request({ method: 'GET', path: '/v2/monitors' }));
    expect(err.message).toMatch(/^GET \/v2\/monitors: 200 OK: the answer is not JSON/);
  });

  it("reads a large list without V8 recompiling undici's parser (tens of MB of compiler memory)", async () => {
    // This file runs in a process of its own (vitest.config.ts, ISOLATED): the peak is this file's.
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: `mon_${i}`, name: `monitor-${i}`, description: `Errors of service ${i}`, aplQuery: "['ds'] | count()" }));
    const server = await serve(() => ({ status: 200, body: JSON.stringify(items) }));
    const api = client(server.url);
    for (let i = 0; i < 3; i++) expect((await api.request({ method: 'GET', path: '/v2/monitors' })).body).toHaveLength(20_000);
    expect(getHeapStatistics().peak_malloced_memory).toBeLessThan(20 * 1024 * 1024);
  });

  it('reads a long list as JSON.parse reads it whole, and quotes the start of one that is not JSON', async () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ id: `mon_${i}`, name: `monitor \u00e9 ${i}`, notifierIds: [`n${i}`] }));
    const good = await serve(() => ({ status: 200, body: `\n ${JSON.stringify(items, null, 1)}\n` }));
    expect((await client(good.url).request({ method: 'GET', path: '/v2/monitors' })).body).toEqual(items);
    const broken = `${JSON.stringify(items).slice(0, -1)},]`;
    const bad = await serve(() => ({ status: 200, body: broken }));
    const err = await failure(client(bad.url).request({ method: 'GET', path: '/v2/monitors' }));
    expect(err.message).toBe(`GET /v2/monitors: 200 OK: the answer is not JSON: ${broken.slice(0, 500)}…`);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('bad input', () => {
  it('does not retry a request undici refuses to send, and keeps the token out of the error', async () => {
    const server = await serve(() => ({ body: [] }));
    const bad = 'token-with\u0000nul';
    const c = createApiClient({ url: server.url, token: () => bad, ...FAST });
    clients.push(c);
    const err = await failure(c.request({ method: 'GET', path: '/v2/monitors' }));
    expect(err).toMatchObject({ noAnswer: true, attempts: 1 });
    expect(err.message).not.toContain(bad);
    expect(server.seen).toHaveLength(0);
  });

  it('lets an error of the token source through as it is', async () => {
    const server = await serve(() => ({ body: [] }));
    const c = createApiClient({ url: server.url, token: () => { throw new Error('token source broke'); }, ...FAST });
    clients.push(c);
    await expect(c.request({ method: 'GET', path: '/v2/monitors' })).rejects.toThrow('token source broke');
    expect(server.seen).toHaveLength(0);
  });
});
