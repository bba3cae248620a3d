// Fail fast (#17.5, #17.10): a run of failures to connect means the server is gone; from then on
// requests fail at once and say exactly what is known. A certificate that is not accepted is never
// retried. The Reachability unit runs on a fake clock.
import { readFileSync } from 'node:fs';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { FAIL_FAST_AFTER, PROBE_AFTER_MS, Reachability } from '../../src/api/reachability.js';
import type { ApiClient } from '../../src/api/types.js';
import { packageRoot } from '../../src/util/package-root.js';

describe('Reachability', () => {
  let now = 0;
  const clock = (): number => now;

  it('takes the server to be gone after a run of failures to connect, and says why', () => {
    now = Date.parse('2026-03-01T12:00:00.000Z');
    const reachability = new Reachability(clock);
    for (let i = 1; i < FAIL_FAST_AFTER; i++) reachability.failedToConnect('ECONNREFUSED');
    expect(reachability.gone).toBe(false);
    expect(reachability.refusal()).toBeUndefined();
    reachability.failedToConnect('ECONNREFUSED');
    expect(reachability.gone).toBe(true);
    expect(reachability.refusal()).toBe(
      `the server is unreachable: connection refused (ECONNREFUSED) ${FAIL_FAST_AFTER} times in a row since 2026-03-01T12:00:00.000Z`,
    );
  });

  it('any answer in between starts the count again', () => {
    const reachability = new Reachability(clock);
    for (let i = 1; i < FAIL_FAST_AFTER; i++) reachability.failedToConnect('ENOTFOUND');
    reachability.reached();
    reachability.failedToConnect('ENOTFOUND');
    expect(reachability.gone).toBe(false);
  });

  it('lets one request through every few seconds to find the server back', () => {
    now = 1_000_000;
    const reachability = new Reachability(clock);
    for (let i = 0; i < FAIL_FAST_AFTER; i++) reachability.failedToConnect('EHOSTUNREACH');
    now += PROBE_AFTER_MS - 1;
    expect(reachability.refusal()).toMatch(/the network cannot reach the host/);
    now += 1;
    expect(reachability.refusal()).toBeUndefined(); // the probe
    expect(reachability.refusal()).toBeDefined(); // the others still wait
    reachability.failedToConnect('EHOSTUNREACH');
    expect(reachability.refusal()).toBeDefined();
    now += PROBE_AFTER_MS;
    expect(reachability.refusal()).toBeUndefined();
    reachability.reached();
    expect(reachability.gone).toBe(false);
    expect(reachability.refusal()).toBeUndefined();
  });
});

let clients: ApiClient[] = [];
let servers: { close(): void }[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const server of servers) server.close();
  clients = [];
  servers = [];
});

function client(url: string): ApiClient {
  const c = createApiClient({ url, token: () => 'token', retryBaseMs: 1, retryCapMs: 5 });
  clients.push(c);
  return c;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the client when the server is gone', () => {
  it('says "connection refused: nothing was sent" for a POST, never that it may have been applied', async () => {
    const c = client(`http://127.0.0.1:${await closedPort()}`);
    const err = await failure(c.request({ method: 'POST', path: '/v2/monitors', body: {} }));
    expect(err).toMatchObject({ noAnswer: true, notSent: true, code: 'ECONNREFUSED', attempts: FAIL_FAST_AFTER });
    expect(err.message).toMatch(/^POST \/v2\/monitors: connection refused \(ECONNREFUSED: .*\): nothing was sent \(after 5 attempts\)$/);
    expect(err.message).not.toContain('may or may not');
  });

  it('stops after a run of refused connections, then fails every request at once without trying', async () => {
    const c = client(`http://127.0.0.1:${await closedPort()}`);
    await failure(c.request({ method: 'GET', path: '/v2/monitors' }));
    expect(c.stats.requests).toBe(FAIL_FAST_AFTER);
    expect(c.unreachable).toMatch(/^the server is unreachable: connection refused \(ECONNREFUSED\) 5 times in a row since /);
    const errors = await Promise.all(['/v2/users', '/v2/notifiers', '/v2/orgs'].map((path) => failure(c.request({ method: 'PUT', path, body: {} }))));
    for (const err of errors) {
      expect(err).toMatchObject({ notSent: true, attempts: 0 });
      expect(err.message).toMatch(/: not attempted: the server is unreachable: connection refused .*; nothing was sent$/);
    }
    expect(c.stats.requests).toBe(FAIL_FAST_AFTER);
  });
});

describe('a TLS certificate that is not accepted', () => {
  it('is not retried, and nothing was sent', async () => {
    const dir = join(packageRoot(), 'test', 'api', 'tls');
    const server: TlsServer = createTlsServer(
      { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) },
      (_req, res) => res.end('[]'),
    );
    let connections = 0;
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    // An issuer this process does not trust; test/cli/tls.test.ts trusts it and gets the name mismatch.
    const err = await failure(client(`https://127.0.0.1:${port}`).request({ method: 'GET', path: '/v2/monitors' }));
    expect(err).toMatchObject({ notSent: true, attempts: 1 });
    expect(err.message).toMatch(/^GET \/v2\/monitors: the server's TLS certificate was not accepted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE: .*\): nothing was sent$/);
    expect(connections).toBe(1);
  });
});
