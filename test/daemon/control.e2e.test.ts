import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useDaemonSuite } from '../support/daemon.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { monitorYaml, notifierYaml } from '../support/yaml.js';

const CONTROL_TOKEN = 'ctl-e2e-token-6b1f0c9d2e7a';

const env = useDaemonSuite();

async function threshold(name: string): Promise<unknown> {
  return ((await env.emulator.state()).monitors ?? []).find((m) => m.name === name)?.threshold;
}

describe('wsync ctl against wsync run', () => {
  it('suspend stops writes until resume; reconcile runs one now; status shows it; a wrong token is refused with 401', async () => {
    const dir = join(env.tmp, 'ctl');
    await mkdir(dir);
    await writeFile(join(dir, 'notifiers.yaml'), notifierYaml('team-email'));
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 10));
    const d = env.start([dir, '--resync', 'off', '--debounce', '50'], { WSYNC_CONTROL_TOKEN: CONTROL_TOKEN });
    const url = await d.url();
    await d.waitReconcile(0, { trigger: 'start', result: 'applied' });
    const ctl = (verb: string, token = CONTROL_TOKEN) => runCli(['ctl', verb, '--daemon', url], { env: { WSYNC_CONTROL_TOKEN: token } });

    // A wrong token changes nothing.
    const refused = await ctl('suspend', 'not-the-control-token-at-all');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused (HTTP 401): the control token was not accepted');
    expect((await (await fetch(`${url}/status`)).json()) as Record<string, unknown>).toMatchObject({ suspended: false });
    expect((await fetch(`${url}/suspend`, { method: 'POST' })).status).toBe(401);

    const suspended = await ctl('suspend');
    expect(suspended).toMatchObject({ code: 0 });
    expect(suspended.stdout).toContain('suspended: reconciles plan and report drift, nothing is written');
    await d.waitFor((l) => l.msg === 'suspended: reconciles plan and report drift, nothing is written until resumed', { what: 'suspended log' });

    // An edit while suspended: planned and reported, not written; a reconcile asked for now plans too.
    const writesBefore = (await env.emulator.writes()).length;
    let mark = d.mark;
    await writeFile(join(dir, 'monitors.yaml'), monitorYaml('checkout-errors', 42));
    const planned = await d.waitReconcile(mark, { trigger: 'change' });
    expect(planned).toMatchObject({ result: 'planned', suspended: true, drift: 1, pending_drift: 1 });
    mark = d.mark;
    const now = await ctl('reconcile');
    expect(now.stdout).toContain('suspended: it plans and reports only');
    expect(await d.waitReconcile(mark, { trigger: 'control' })).toMatchObject({ result: 'planned', suspended: true });
    expect((await env.emulator.writes()).length).toBe(writesBefore);
    expect(await threshold('checkout-errors')).toBe(10);

    // Visible in /readyz, the status page, the gauge and ctl status.
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toMatch(/^ready \(suspended since .*: nothing is written\)/);
    expect(await (await fetch(`${url}/`)).text()).toMatch(/id="suspended">yes, since/);
    let families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_suspended')).toBe(1);
    const status = await runCli(['ctl', 'status', '--daemon', url]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^suspended\s+yes, since .*: nothing is written$/m);
    expect(status.stdout).toMatch(/^pending drift\s+1$/m);

    // Resume: the reconcile that follows writes.
    mark = d.mark;
    expect((await ctl('resume')).code).toBe(0);
    expect(await d.waitReconcile(mark, { trigger: 'control' })).toMatchObject({ result: 'applied', updated: 1 });
    expect(await threshold('checkout-errors')).toBe(42);
    families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_suspended')).toBe(0);
    expect(sampleValue(families, 'wsync_reconcile_duration_seconds_count', { result: 'planned' })).toBe(2);
    expect(sampleValue(families, 'wsync_build_info', { node: process.versions.node })).toBe(1);
    expect(JSON.stringify(d.lines)).not.toContain(CONTROL_TOKEN);
  });

  it('without a control token the endpoints are off (403), and ctl says what to configure', async () => {
    const dir = join(env.tmp, 'ctl-off');
    await mkdir(dir);
    const d = env.start([dir, '--resync', 'off']);
    const url = await d.url();
    const r = await runCli(['ctl', 'suspend', '--daemon', url], { env: { WSYNC_CONTROL_TOKEN: CONTROL_TOKEN } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refused (HTTP 403): control endpoints are off: start wsync run with --control-token-file');
    const noToken = await runCli(['ctl', 'resume', '--daemon', url]);
    expect(noToken.stderr).toContain('resume needs the control token');
    expect((await runCli(['ctl', 'suspend', '--daemon', 'http://10.1.2.3:9464'], { env: { WSYNC_CONTROL_TOKEN: CONTROL_TOKEN } })).stderr).toContain(
      'refusing to send the control token in plain http to 10.1.2.3:9464',
    );
  });
});
