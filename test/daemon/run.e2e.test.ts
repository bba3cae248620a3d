import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { monitorYaml, notifierYaml } from '../support/yaml.js';
import { quietPeriod, waitUntil } from '../support/wait.js';

const env = useDaemonSuite();

async function monitorThreshold(name: string): Promise<unknown> {
  const state = await env.emulator.state();
  return (state.monitors ?? []).find((m) => m.name === name)?.threshold;
}

describe('wsync run against the emulator', () => {
  it('converges at start and on every edit; a broken file writes nothing, logs the error and keeps serving', async () => {
    const dir = join(env.tmp, 'edit');
    await mkdir(dir);
    await writeFile(join(dir, 'notifiers.yaml'), notifierYaml('team-email'));
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 10));
    const d = env.start([dir, '--resync', 'off', '--debounce', '100']);
    const { url, first } = await d.ready();
    expect(first).toMatchObject({ result: 'applied', created: 2, failed: 0 });
    expect(await monitorThreshold('checkout-errors')).toBe(10);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // One log line per change.
    expect(d.lines.filter((l) => l.msg === 'change' && l.outcome === 'done').map((l) => `${l.action} ${l.kind}/${l.key}`).sort()).toEqual([
      'create Monitor/checkout-errors',
      'create Notifier/team-email',
    ]);

    // Edit -> converged. The edit plans against the live read of the start, and the written
    // monitor is read back by itself (not with a list of every monitor).
    let mark = d.mark;
    await env.emulator.clearRequests();
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 42));
    const edited = await d.waitReconcile(mark, { trigger: 'change' });
    expect(edited).toMatchObject({ result: 'applied', updated: 1, drift: 1, live_reused: true });
    expect(typeof edited.duration_ms).toBe('number');
    expect(await monitorThreshold('checkout-errors')).toBe(42);
    const monitorId = (await env.emulator.state()).monitors?.find((m) => m.name === 'checkout-errors')?.id;
    const reads = (await env.emulator.requests()).filter((r) => r.method === 'GET' && r.path.startsWith('/v2/monitors'));
    expect(reads.map((r) => r.path)).toEqual([`/v2/monitors/${String(monitorId)}`]);
    // What was read back is what the files say: an edit the API does not see writes nothing.
    mark = d.mark;
    await writeFile(join(dir, 'monitors.yaml'), `# owned by the checkout team\n${monitorYaml('checkout-errors', 42)}`);
    expect(await d.waitReconcile(mark, { trigger: 'change' })).toMatchObject({ updated: 0, drift: 0, live_reused: true });

    // Break -> nothing written, error logged naming the file, still serving, still ready.
    const writesBefore = (await env.emulator.writes()).length;
    mark = d.mark;
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 7).replace('threshold: 7', 'threshold: [7'));
    const broken = await d.waitReconcile(mark, { trigger: 'change' });
    expect(broken.result).toBe('invalid');
    expect(broken.level).toBe('error');
    expect(String(broken.error)).toContain('monitors.yaml');
    expect(d.lines.slice(mark).some((l) => l.level === 'error' && l.file === 'monitors.yaml')).toBe(true);
    await quietPeriod(300);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toMatch(/id="last-result">invalid/);
    expect((await env.emulator.writes()).length).toBe(writesBefore);
    expect(await monitorThreshold('checkout-errors')).toBe(42);

    // Fix -> converged, even though a retry with backoff was armed.
    mark = d.mark;
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 7));
    await d.waitReconcile(mark, { trigger: 'change', result: 'applied' });
    expect(await monitorThreshold('checkout-errors')).toBe(7);

    // /metrics parses and counts what happened.
    const families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_reconcile_total', { result: 'applied', trigger: 'start' })).toBe(1);
    expect(sampleValue(families, 'wsync_reconcile_total', { result: 'invalid' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(families, 'wsync_changes_total', { kind: 'Monitor', action: 'update' })).toBe(2);
    // Two creates, the group that marks the workspace as written by this daemon (its writer lease),
    // and the query that finds the token may see the dataset of the monitor it creates.
    expect(sampleValue(families, 'wsync_api_requests_total', { method: 'POST', status: '200' })).toBe(4);
    expect(sampleValue(families, 'wsync_drift_objects', { kind: 'Monitor' })).toBe(0);
    expect(sampleValue(families, 'wsync_last_success_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(families.get('wsync_reconcile_duration_seconds')?.type).toBe('histogram');

    expect(await d.signal('SIGTERM')).toBe(0);
  });

  it('stays not ready and writes nothing until DIR exists and parses; /readyz flips on the first success', async () => {
    const dir = join(env.tmp, 'later');
    const d = env.start([dir, '--resync', 'off', '--debounce', '50']);
    const { url } = await d.ready({ result: 'missing' });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(503);

    const writesBefore = (await env.emulator.writes()).length;
    // DIR appears (built aside and renamed in, as a deploy would), with a file that does not parse.
    const staging = join(env.tmp, 'later.staging');
    await mkdir(staging);
    await writeFile(join(staging, 'n.yaml'), `${notifierYaml('late-email')}  bogusField: 1\n`);
    let mark = d.mark;
    await rename(staging, dir);
    const invalid = await d.waitReconcile(mark, { result: 'invalid' });
    expect(invalid.trigger).not.toBe('resync');
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    expect((await env.emulator.writes()).length).toBe(writesBefore);
    let families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_ready')).toBe(0);

    mark = d.mark;
    await writeFile(join(dir, 'n.yaml'), notifierYaml('late-email'));
    await d.waitReconcile(mark, { result: 'applied' });
    await waitUntil(async () => (await fetch(`${url}/readyz`)).status === 200, { what: '/readyz 200' });
    families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_ready')).toBe(1);
    const state = await env.emulator.state();
    expect((state.notifiers ?? []).filter((n) => n.name === 'late-email')).toHaveLength(1);
    expect(await d.signal('SIGINT')).toBe(0);
  });
});
