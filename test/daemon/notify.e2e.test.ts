import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useDaemonSuite } from '../support/daemon.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { waitUntil } from '../support/wait.js';
import { monitorYaml, notifierYaml } from '../support/yaml.js';

const HMAC_KEY = 'receiver-shared-hmac-key-7f3a';
const CONTROL_TOKEN = 'control-token-0123456789abcdef';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

const env = useDaemonSuite();
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/wsync`;
});
afterAll(async () => {
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

/** What a receiver does with the signature header: recompute over timestamp and raw body, compare in constant time. */
function verifies(r: Received): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', HMAC_KEY).update(`${String(r.headers['x-wsync-timestamp'])}.${r.body}`).digest('hex')}`);
  const given = Buffer.from(String(r.headers['x-wsync-signature-256']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('notifications from wsync run', () => {
  it('a failure lasting three reconciles posts one signed failure event and one recovery event', async () => {
    const dir = join(env.tmp, 'notify');
    await mkdir(dir);
    await writeFile(join(dir, 'notifiers.yaml'), notifierYaml('team-email'));
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 10).replace('threshold: 10', 'threshold: [10'));
    const tokenFile = join(env.tmp, 'control-token');
    await writeFile(tokenFile, CONTROL_TOKEN);
    const d = env.start([dir, '--resync', 'off', '--debounce', '50', '--notify-webhook', receiverUrl, '--control-token-file', tokenFile], {
      WSYNC_NOTIFY_WEBHOOK_SECRET: HMAC_KEY,
    });
    const url = await d.url();
    await d.waitReconcile(0, { trigger: 'start', result: 'invalid' });
    // Two more failed reconciles, asked for now rather than waited for.
    for (let i = 0; i < 2; i++) {
      const mark = d.mark;
      const ctl = await runCli(['ctl', 'reconcile', '--daemon', url, '--control-token-file', tokenFile]);
      expect(ctl).toMatchObject({ code: 0 });
      await d.waitReconcile(mark, { result: 'invalid' });
    }
    expect(d.reconciles().filter((l) => l.result === 'invalid').length).toBeGreaterThanOrEqual(3);

    const mark = d.mark;
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 10));
    await d.waitReconcile(mark, { result: 'applied' });
    await waitUntil(() => received.length >= 2, { what: 'two notifications' });
    await d.waitFor((l) => l.msg === 'notification sent' && l.event === 'reconcile.recovered', { what: 'recovery sent' });

    expect(received.map((r) => r.headers['x-wsync-event'])).toEqual(['reconcile.failed', 'reconcile.recovered']);
    for (const r of received) expect(verifies(r)).toBe(true);
    const [failure, recovery] = received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(failure).toMatchObject({ version: 1, type: 'reconcile.failed', result: 'invalid', severity: 'error', failures: 1 });
    expect(String(failure?.message)).toContain('monitors.yaml');
    expect(recovery).toMatchObject({ type: 'reconcile.recovered', result: 'applied', severity: 'info' });
    expect(recovery?.failures).toBeGreaterThanOrEqual(3);
    // A tampered body no longer verifies.
    expect(verifies({ ...(received[0] as Received), body: (received[0] as Received).body.replace('invalid', 'applied') })).toBe(false);

    const families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_notifications_total', { target: 'webhook', event: 'reconcile.failed', outcome: 'delivered' })).toBe(1);
    expect(sampleValue(families, 'wsync_notifications_total', { target: 'webhook', event: 'reconcile.recovered', outcome: 'delivered' })).toBe(1);
    // The HMAC key and the control token appear nowhere in the log.
    const log = JSON.stringify(d.lines) + d.stderr;
    expect(log).not.toContain(HMAC_KEY);
    expect(log).not.toContain(CONTROL_TOKEN);
  });

  it('a receiver that is down is logged and counted, and reconciles go on', async () => {
    const dir = join(env.tmp, 'dead-receiver');
    await mkdir(dir);
    await writeFile(join(dir, 'monitors.yaml'), 'apiVersion: wsync/v1\nkind: Monitor\nmetadata: {name: x}\nspec: {}\n');
    // Nothing listens there: the port of a server just closed.
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((r) => gone.close(() => r()));
    const d = env.start([dir, '--resync', 'off', '--notify-webhook', `http://127.0.0.1:${port}/x`]);
    const url = await d.url();
    await d.waitReconcile(0, { trigger: 'start', result: 'invalid' });
    await d.waitFor((l) => l.msg === 'notification failed' && l.target === 'webhook', { what: 'delivery failure logged' });
    // The retry after the failure is not held up.
    await d.waitReconcile(0, { trigger: 'retry', result: 'invalid' });
    const families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_notifications_total', { target: 'webhook', event: 'reconcile.failed', outcome: 'failed' })).toBe(1);
  });

  it('refuses a notification target that would send in plain http across the network, naming the setting', async () => {
    const dir = join(env.tmp, 'bad-target');
    await mkdir(dir);
    const r = await runCli(['run', dir, '--listen', '127.0.0.1:0', '--notify-webhook', 'http://hooks.example.com/x'], { env: env.emulator.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/notification target "webhook": refusing plain http to hooks\.example\.com/);
  });
});
