// One `wsync run`, two environments of one tree (#25 item 7): staging and prod as two emulators,
// each with its own connection variables, state, metrics label and status section; prod's server
// going down never holds staging back.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { DaemonProcess, type LogLine } from '../support/daemon.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus.js';
import { editFile, useScratch } from '../support/tree.js';
import { named } from '../support/workspace.js';
import { notifierYaml, environmentMonitorYaml } from '../support/yaml.js';

const scratch = useScratch('wsync-run-environments-');
const CONTROL = 'control-token-for-two-environments';

const CONFIG = `environments:
  staging:
    vars: { errorThreshold: 5, team: checkout-staging }
  prod:
    vars: { errorThreshold: 2, team: checkout }
`;

const MONITOR = environmentMonitorYaml('5');

const started: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of started.splice(0)) await s.close();
});

async function emulator(): Promise<TestEmulator> {
  const e = await startTestEmulator();
  started.push(e);
  return e;
}

const reconcileOf = (env: string, match: Partial<LogLine>) => (line: LogLine) =>
  line.msg === 'reconcile' && line.env === env && Object.entries(match).every(([k, v]) => line[k] === v);

async function statusOf(url: string): Promise<{ ready: boolean; environments: Record<string, Record<string, unknown>> }> {
  return (await (await fetch(`${url}/status`)).json()) as { ready: boolean; environments: Record<string, Record<string, unknown>> };
}

describe('wsync run --env staging --env prod', () => {
  it('syncs both workspaces, each labelled and controlled on its own, and keeps syncing one while the other is down', async () => {
    const staging = await emulator();
    const prod = await emulator();
    const dir = scratch.tree({
      'wsync.yaml': CONFIG,
      'datasets.yaml': 'apiVersion: wsync/v1\nkind: Dataset\nmetadata:\n  name: app\nspec:\n  description: the app\n',
      'notifiers.yaml': notifierYaml('email'),
      'monitors.yaml': MONITOR,
      'environments/prod/pager.yaml': notifierYaml('pager'),
    });
    const control = join(await scratch.dir(), 'control');
    writeFileSync(control, CONTROL);
    const daemon = new DaemonProcess(['--env', 'staging', '--env', 'prod', '--resync', 'off', '--debounce', '50', '--control-token-file', control, dir], {
      WSYNC_URL_STAGING: staging.url,
      WSYNC_TOKEN_STAGING: staging.token,
      WSYNC_URL_PROD: prod.url,
      WSYNC_TOKEN_PROD: prod.token,
    });
    try {
      const url = await daemon.url();
      await daemon.waitFor(reconcileOf('staging', { trigger: 'start', result: 'applied' }), { what: 'staging applied', timeoutMs: 60_000 });
      await daemon.waitFor(reconcileOf('prod', { trigger: 'start', result: 'applied' }), { what: 'prod applied', timeoutMs: 60_000 });
      expect(named(await staging.state(), 'monitors', 'errors')).toMatchObject({ threshold: 5, description: '5xx of checkout-staging' });
      expect(named(await prod.state(), 'monitors', 'errors')).toMatchObject({ threshold: 2, description: '5xx of checkout' });
      expect(named(await prod.state(), 'notifiers', 'pager')).toBeDefined();
      expect(named(await staging.state(), 'notifiers', 'pager')).toBeUndefined();

      // One family per metric, every workspace's series under it, told apart by env.
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(text.match(/^# TYPE wsync_reconcile_total /gm)).toHaveLength(1);
      const metrics = parsePrometheusText(text);
      expect(sampleValue(metrics, 'wsync_reconcile_total', { env: 'staging', result: 'applied' })).toBe(1);
      expect(sampleValue(metrics, 'wsync_reconcile_total', { env: 'prod', result: 'applied' })).toBe(1);

      // Suspend one environment: the other is untouched.
      const ctl = ['--daemon', url, '--control-token-file', control];
      const suspend = await runCli(['ctl', 'suspend', '--env', 'prod', ...ctl]);
      expect(suspend.code, suspend.stderr).toBe(0);
      expect(suspend.stdout).toContain('prod: suspended');
      let status = await statusOf(url);
      expect(status.environments.prod?.suspended).toBe(true);
      expect(status.environments.staging?.suspended).toBe(false);
      const shown = await runCli(['ctl', 'status', '--env', 'prod', ...ctl]);
      expect(shown.stdout).toMatch(/environment\s+prod\n/);
      expect(shown.stdout).toMatch(/suspended\s+yes/);
      expect(shown.stdout).not.toContain('staging');
      const unknown = await runCli(['ctl', 'suspend', '--env', 'qa', ...ctl]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('no environment "qa" (it syncs staging, prod)');
      expect((await runCli(['ctl', 'resume', '--env', 'prod', ...ctl])).code).toBe(0);
      expect((await statusOf(url)).environments.prod?.suspended).toBe(false);

      // Prod's server goes down; an edit still reaches staging.
      await prod.close();
      const from = daemon.mark;
      await editFile(join(dir, 'monitors.yaml'), (t) => t.replace('5xx of', 'Server errors of'));
      await daemon.waitFor((l) => reconcileOf('staging', { trigger: 'change', result: 'applied' })(l) && daemon.lines.indexOf(l) >= from, { what: 'staging applied the edit', timeoutMs: 60_000 });
      expect(named(await staging.state(), 'monitors', 'errors')).toMatchObject({ description: 'Server errors of checkout-staging' });
      await daemon.waitFor((l) => l.msg === 'reconcile' && l.env === 'prod' && l.result !== 'applied' && daemon.lines.indexOf(l) >= from, { what: 'prod failed', timeoutMs: 60_000 });
      status = await statusOf(url);
      // An edit reuses the last live read, so its writes fail ('failed'); the retry that lists fails to list ('error').
      expect(['failed', 'error']).toContain((status.environments.prod?.last as { result?: string } | null)?.result);
      expect((status.environments.staging?.last as { result?: string } | null)?.result).toBe('applied');
      const page = await (await fetch(url)).text();
      expect(page).toContain('<h1>Environment staging</h1>');
      expect(page).toContain('<h1>Environment prod</h1>');
      // Neither workspace's token shows anywhere the daemon writes or serves.
      const token = staging.token;
      expect(JSON.stringify(daemon.lines)).not.toContain(token);
      expect(JSON.stringify(status) + page + (await (await fetch(`${url}/metrics`)).text())).not.toContain(token);
      expect(await daemon.signal('SIGTERM')).toBe(0);
      expect(daemon.stderr).not.toContain(token);
    } finally {
      await daemon.kill();
    }
  }, 180_000);

  it('refuses to start when an environment has no connection of its own', async () => {
    const dir = scratch.tree({ 'wsync.yaml': CONFIG, 'notifiers.yaml': notifierYaml('email') });
    const result = await runCli(['run', '--all-environments', '--listen', '127.0.0.1:0', dir], {
      env: { WSYNC_URL: 'http://127.0.0.1:1', WSYNC_TOKEN: 'shared', WSYNC_URL_STAGING: 'http://127.0.0.1:2' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('environment prod: no connection of its own; set WSYNC_URL_PROD, WSYNC_TOKEN_PROD, WSYNC_TOKEN_FILE_PROD, WSYNC_ORG_ID_PROD');
  });
});
