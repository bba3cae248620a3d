import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseListen, startHttpServer, type HttpServer } from '../../src/daemon/http.js';
import { DaemonMetrics } from '../../src/daemon/metrics.js';
import { escapeHtml, renderStatusPage } from '../../src/daemon/status-page.js';
import { DaemonStatus, HISTORY_SIZE, type ReconcileRecord } from '../../src/daemon/status.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus.js';

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function record(over: Partial<ReconcileRecord> = {}): ReconcileRecord {
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    trigger: 'change',
    revision: 'rev-abc',
    result: 'applied',
    durationMs: 12,
    created: 1,
    updated: 0,
    deleted: 0,
    failed: 0,
    drift: 1,
    ...over,
  };
}

describe('parseListen', () => {
  it('reads host:port, IPv6, a bare port and port 0', () => {
    expect(parseListen('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListen('0.0.0.0:0')).toEqual({ host: '0.0.0.0', port: 0 });
    expect(parseListen('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseListen(':9464')).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(parseListen('9464')).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  it('rejects what is not an address', () => {
    expect(() => parseListen('localhost')).toThrow(/HOST:PORT/);
    expect(() => parseListen('127.0.0.1:http')).toThrow(/not a port/);
    expect(() => parseListen('127.0.0.1:70000')).toThrow(/not a port/);
  });
});

describe('metrics', () => {
  it('renders every wsync metric as valid Prometheus text', async () => {
    const m = new DaemonMetrics();
    m.reconcileTotal.inc({ result: 'applied', trigger: 'start' });
    m.reconcileDuration.observe(0.3);
    m.changesTotal.inc({ kind: 'Monitor', action: 'update' });
    m.apiRequestsTotal.inc({ method: 'GET', status: '200' });
    m.setDrift(new Map([['Monitor', 2]]));
    m.setRevision('rev-"quoted"\\x');
    m.lastSuccess.set(1700000000);
    const families = parsePrometheusText(await m.text());
    for (const name of [
      'wsync_reconcile_total',
      'wsync_reconcile_duration_seconds',
      'wsync_changes_total',
      'wsync_drift_objects',
      'wsync_api_requests_total',
      'wsync_last_success_timestamp_seconds',
      'wsync_revision_info',
      'process_cpu_seconds_total',
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get('wsync_reconcile_duration_seconds')?.type).toBe('histogram');
    expect(sampleValue(families, 'wsync_reconcile_total', { result: 'applied' })).toBe(1);
    expect(sampleValue(families, 'wsync_drift_objects', { kind: 'Monitor' })).toBe(2);
    expect(sampleValue(families, 'wsync_drift_objects', { kind: 'Notifier' })).toBe(0);
    expect(sampleValue(families, 'wsync_revision_info', { revision: 'rev-"quoted"\\x' })).toBe(1);
    m.setRevision('rev-2');
    const again = parsePrometheusText(await m.text());
    expect(again.get('wsync_revision_info')?.samples.map((s) => s.labels.revision)).toEqual(['rev-2']);
  });

  it('keeps its own registry: two daemons do not share counters', async () => {
    const a = new DaemonMetrics({ defaultMetrics: false });
    const b = new DaemonMetrics({ defaultMetrics: false });
    a.reconcileTotal.inc({ result: 'failed', trigger: 'start' });
    expect(sampleValue(parsePrometheusText(await b.text()), 'wsync_reconcile_total', { result: 'failed' })).toBeUndefined();
  });
});

describe('status page', () => {
  it('shows the revision, last result, pending drift and at most the last 20 reconciles, escaped', () => {
    const status = new DaemonStatus();
    status.revision = 'rev-<b>';
    for (let i = 0; i < 25; i++) status.record(record({ durationMs: i }));
    status.record(record({ result: 'invalid', message: 'monitors.yaml:3:1: <script>alert(1)</script>' }));
    status.pendingDrift = [{ kind: 'Monitor', key: 'checkout', action: 'update' }];
    const html = renderStatusPage(status, { dir: '/git/current', mode: 'enforce', running: false, nextRetryAt: null });
    expect(html).toContain('rev-&lt;b&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toMatch(/id="last-result">invalid/);
    expect(html).toContain('<span id="drift-count">1</span>');
    expect(html).toContain('<td>checkout</td>');
    expect(status.history).toHaveLength(HISTORY_SIZE);
    expect(html.match(/<tr class=/g)).toHaveLength(HISTORY_SIZE);
  });

  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('http server', () => {
  it('serves its routes, 404 elsewhere, 405 for writes, and reports its actual port', async () => {
    let ready = false;
    const server = await startHttpServer(parseListen('127.0.0.1:0'), {
      healthz: () => ({ ok: true, body: 'ok\n' }),
      readyz: () => ({ ok: ready, body: ready ? 'ready\n' : 'not ready\n' }),
      metrics: async () => ({ contentType: 'text/plain; version=0.0.4', body: '# HELP x y\n# TYPE x gauge\nx 1\n' }),
      statusPage: () => '<html>status</html>',
      statusJson: () => ({ ready }),
      control: () => ({ status: 403, body: { error: 'off' } }),
    });
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url.endsWith(':0')).toBe(false);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    ready = true;
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('x 1');
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`, { method: 'POST' })).status).toBe(405);
    expect(await (await fetch(`${server.url}/status`)).json()).toEqual({ ready: true });
    expect((await fetch(`${server.url}/suspend`)).status).toBe(405);
    expect((await fetch(`${server.url}/suspend`, { method: 'POST' })).status).toBe(403);
  });
});

/**
 * Sends `head` and then up to `limit` bytes of body as fast as the server takes them; resolves with
 * what the server answered and how much of the body it let through before it closed the connection.
 */
function pushBody(url: string, head: string, limit: number): Promise<{ answer: string; sent: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let sent = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = (): void => {
      while (!closed && sent < limit) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('data', (data: Buffer) => (answer += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      resolve({ answer, sent });
    });
    socket.on('connect', () => {
      socket.write(head);
      pump();
      // Everything sent: wait for the server to answer and close, or not.
      const done = setInterval(() => {
        if (sent >= limit && !closed) {
          clearInterval(done);
          setTimeout(() => socket.destroy(), 500);
        }
        if (closed) clearInterval(done);
      }, 50);
    });
  });
}

describe('http server: request bodies and slow clients', () => {
  const routes = {
    healthz: () => ({ ok: true, body: 'ok\n' }),
    readyz: () => ({ ok: true, body: 'ready\n' }),
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
    statusPage: () => '',
    statusJson: () => ({}),
    control: () => ({ status: 401, body: { error: 'a valid control token is required' } }),
  };
  const LIMIT = 32 * 1024 * 1024;

  it('answers a large body with 413 and closes, without draining it', async () => {
    const server = await startHttpServer(parseListen('127.0.0.1:0'), routes);
    servers.push(server);
    const head = `POST /reconcile HTTP/1.1\r\nHost: x\r\nContent-Length: ${8 * 1024 * 1024 * 1024}\r\n\r\n`;
    const { answer, sent } = await pushBody(server.url, head, LIMIT);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    // The connection ended long before the 32 MiB were through (socket buffers aside).
    expect(sent).toBeLessThan(LIMIT);
  });

  it('refuses a chunked body of unknown length the same way', async () => {
    const server = await startHttpServer(parseListen('127.0.0.1:0'), routes);
    servers.push(server);
    const { answer, sent } = await pushBody(server.url, 'POST /reconcile HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', LIMIT);
    expect(answer).toMatch(/^HTTP\/1\.1 411 /);
    expect(sent).toBeLessThan(LIMIT);
  });

  it('answers an unauthenticated control request with 401 and closes the connection, reading no body', async () => {
    const server = await startHttpServer(parseListen('127.0.0.1:0'), routes);
    servers.push(server);
    const res = await fetch(`${server.url}/reconcile`, { method: 'POST', body: 'x'.repeat(100), headers: { authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('connection')).toBe('close');
  });
});
