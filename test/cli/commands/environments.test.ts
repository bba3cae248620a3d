// One tree, two workspaces: staging and prod as two emulators, environments in wsync.yaml,
// typed ${var:} values, an overlay and a resource of prod alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { EXAMPLES_DIR } from '../../support/paths.js';
import { useTestEmulator } from '../../support/emulator.js';
import { useScratch } from '../../support/tree.js';
import { named } from '../../support/workspace.js';
import { notifierYaml, environmentMonitorYaml } from '../../support/yaml.js';

const scratch = useScratch('wsync-environments-');
const staging = useTestEmulator();
const prod = useTestEmulator();

const CONFIG = `environments:
  staging:
    vars: { errorThreshold: 5, interval: 10, team: checkout-staging }
  prod:
    description: the one customers see
    vars: { errorThreshold: 2, interval: 5, team: checkout }
`;

const MONITOR = environmentMonitorYaml('${var:interval}');

const OVERLAY = `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: errors
spec:
  rangeMinutes: 30
  notifiers: [email, pager]
`;

function tree(): string {
  return scratch.tree({
    'wsync.yaml': CONFIG,
    'datasets.yaml': 'apiVersion: wsync/v1\nkind: Dataset\nmetadata:\n  name: app\nspec:\n  description: the app\n',
    'notifiers.yaml': notifierYaml('email'),
    'monitors.yaml': MONITOR,
    'environments/prod/monitors.yaml': OVERLAY,
    'environments/prod/pager.yaml': notifierYaml('pager'),
  });
}

describe('one tree, two workspaces', () => {
  it('applies each environment to its workspace; typed values, overlays and env-only resources land where declared; then no changes', async () => {
    const dir = tree();
    const toStaging = await runCli(['apply', dir, '--env', 'staging'], { env: staging.env });
    expect(toStaging.code, toStaging.stdout + toStaging.stderr).toBe(0);
    expect(toStaging.stdout).toContain('Environment: staging');
    const toProd = await runCli(['apply', dir], { env: { ...prod.env, WSYNC_ENV: 'prod' } });
    expect(toProd.code, toProd.stdout + toProd.stderr).toBe(0);
    expect(toProd.stdout).toContain('Environment: prod');
    expect(toProd.stdout).toMatch(/Apply complete: .* \(environment prod\)\n/);

    const stagingState = await staging.state();
    const prodState = await prod.state();
    expect(named(stagingState, 'monitors', 'errors')).toMatchObject({ threshold: 5, intervalMinutes: 10, rangeMinutes: 10, description: '5xx of checkout-staging' });
    expect(named(prodState, 'monitors', 'errors')).toMatchObject({ threshold: 2, intervalMinutes: 5, rangeMinutes: 30, description: '5xx of checkout' });
    expect(typeof named(prodState, 'monitors', 'errors')?.threshold).toBe('number');
    expect(named(prodState, 'notifiers', 'pager')).toBeDefined();
    expect(named(stagingState, 'notifiers', 'pager')).toBeUndefined();
    // Each environment keeps its own state.
    expect(existsSync(join(dir, '.wsync', 'staging', 'inventory.json'))).toBe(true);
    expect(existsSync(join(dir, '.wsync', 'prod', 'inventory.json'))).toBe(true);

    // The promotion view, live: what the staging workspace has that prod lacks, and what differs.
    const liveEnv = { WSYNC_URL_STAGING: staging.url, WSYNC_TOKEN_STAGING: staging.token, WSYNC_URL_PROD: prod.url, WSYNC_TOKEN_PROD: prod.token };
    const live = await runCli(['diff', '--live', 'staging', 'prod', dir, '--detailed-exitcode'], { env: liveEnv });
    expect(live.stderr).toBe('');
    expect(live.code).toBe(2);
    expect(live.stdout).toContain('Only in prod (1):\n  Notifier/pager  (prod:notifiers/');
    expect(live.stdout).toMatch(/ {2}Monitor\/errors {2}\(staging:monitors\/[^)]+ \/ prod:monitors\/[^)]+\)\n/);
    expect(live.stdout).toContain('      threshold: 5 -> 2\n');
    expect(live.stdout).toContain('      rangeMinutes: 10 -> 30\n');
    const unconnected = await runCli(['diff', '--live', 'staging', 'prod', dir], { env: { WSYNC_URL_STAGING: staging.url, WSYNC_TOKEN_STAGING: staging.token } });
    expect(unconnected.code).toBe(1);
    expect(unconnected.stderr).toContain('diff: environment prod: no connection of its own');

    for (const [environment, emulator] of [['staging', staging], ['prod', prod]] as const) {
      const again = await runCli(['plan', dir, '--env', environment, '--detailed-exitcode'], { env: emulator.env });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes.');
      const markdown = await runCli(['plan', dir, '--env', environment, '--format', 'markdown'], { env: emulator.env });
      expect(markdown.stdout).toContain(`### wsync plan: environment \`${environment}\``);
      const json = await runCli(['plan', dir, '--env', environment, '--format', 'json'], { env: emulator.env });
      expect(JSON.parse(json.stdout)).toMatchObject({ environment });
    }
  });

  it('a state directory named by flag or variable holds one folder per environment: no environment reads another\'s token secrets', async () => {
    const dir = scratch.tree({
      'wsync.yaml': CONFIG,
      'tokens.yaml': 'apiVersion: wsync/v1\nkind: ApiToken\nmetadata:\n  name: ci\nspec:\n  description: "ci of ${var:team}"\n',
    });
    const shared = join(dir, 'shared-state');
    const toStaging = await runCli(['apply', dir, '--env', 'staging', '--state-dir', shared], { env: staging.env });
    expect(toStaging.code, toStaging.stdout + toStaging.stderr).toBe(0);
    const toProd = await runCli(['apply', dir, '--env', 'prod'], { env: { ...prod.env, WSYNC_STATE_DIR: shared } });
    expect(toProd.code, toProd.stdout + toProd.stderr).toBe(0);
    const stagingSecret = readFileSync(join(shared, 'staging', 'tokens', 'ci'), 'utf8');
    const prodSecret = readFileSync(join(shared, 'prod', 'tokens', 'ci'), 'utf8');
    expect(stagingSecret).not.toBe(prodSecret);
    expect(existsSync(join(shared, 'inventory.json'))).toBe(false);
    for (const [environment, emulator] of [['staging', staging], ['prod', prod]] as const) {
      const again = await runCli(['plan', dir, '--env', environment, '--state-dir', shared, '--detailed-exitcode'], { env: emulator.env });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    }
  });

  it('without --env, plan, apply and run name the environments; an unknown one lists them', async () => {
    const dir = tree();
    for (const command of ['plan', 'apply', 'run']) {
      const result = await runCli([command, dir], { env: staging.env });
      expect(result.code, command).toBe(1);
      expect(result.stderr, command).toContain('wsync.yaml declares the environments staging, prod: choose one with --env NAME (or WSYNC_ENV)');
    }
    const unknown = await runCli(['plan', dir, '--env', 'qa'], { env: staging.env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('plan: --env qa: no such environment; wsync.yaml declares staging, prod\n');
  });

  it('validate checks every environment and says which one a problem belongs to', async () => {
    const dir = tree();
    const valid = await runCli(['validate', dir]);
    expect(valid.code, valid.stdout).toBe(0);
    expect(valid.stdout).toContain('2 environments (staging: 3 resources, prod: 4 resources) in 6 files: valid');
    writeFileSync(join(dir, 'monitors.yaml'), MONITOR.replace('rangeMinutes: 10', 'rangeMinutes: ${var:range}'));
    writeFileSync(join(dir, 'wsync.yaml'), CONFIG.replace('team: checkout-staging }', 'team: checkout-staging, range: 15 }'));
    // prod's overlay writes rangeMinutes, so only staging needs the variable: and staging has it.
    const overlaid = await runCli(['validate', dir]);
    expect(overlaid.code, overlaid.stdout).toBe(0);
    writeFileSync(join(dir, 'wsync.yaml'), CONFIG);
    const broken = await runCli(['validate', dir]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      'monitors.yaml:12:17: Monitor/errors: environment staging: spec.rangeMinutes: ${var:range}: variable "range" is not defined in environment "staging"',
    );
    expect(broken.stdout).not.toContain('environment prod');
    const onlyProd = await runCli(['validate', dir, '--env', 'prod']);
    expect(onlyProd.code, onlyProd.stdout).toBe(0);
  });

  it("an environment's overlay files count toward --max-resources: validate names the environment and its overlays, apply writes nothing", async () => {
    const dir = tree();
    // staging reads 4 documents (wsync.yaml and three resources); prod 6, with its overlay and its own notifier.
    const validate = await runCli(['validate', dir, '--max-resources', '5']);
    expect(validate.code, validate.stdout).toBe(1);
    // The overlays are read first (the base is merged with them as it is read): the base file where reading stopped is named, and why.
    expect(validate.stdout).toMatch(
      /wsync\.yaml:1:1: environment prod: the files declare more than 5 resources: .*\(environment prod's overlay files, read first, count toward it\)\. .*--max-resources/,
    );
    expect(validate.stdout).not.toContain('environment staging:');
    expect((await runCli(['validate', dir, '--env', 'staging', '--max-resources', '5'])).code).toBe(0);
    await prod.clearRequests();
    const apply = await runCli(['apply', dir, '--env', 'prod', '--max-resources', '5'], { env: prod.env });
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain("wsync.yaml:1:1: environment prod: the files declare more than 5 resources");
    expect(await prod.writes()).toEqual([]);
  });

  it('the example tree validates in both its environments', async () => {
    const result = await runCli(['validate', join(EXAMPLES_DIR, '.two-environments')], { env: { WSYNC_PAGERDUTY_ROUTING_KEY: 'example-routing-key' } });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toBe('2 environments (staging: 3 resources, prod: 5 resources) in 7 files: valid\n');
  });

  it('wsync diff shows what only one environment has and each field that differs, with both values', async () => {
    const dir = tree();
    const result = await runCli(['diff', 'staging', 'prod', dir, '--detailed-exitcode']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      [
        'Only in prod (1):',
        '  Notifier/pager  (environments/prod/pager.yaml:1)',
        '',
        'Different (1): staging -> prod',
        '  Monitor/errors  (monitors.yaml:1)',
        '      description: "5xx of checkout-staging" -> "5xx of checkout"',
        '      threshold: 5 -> 2',
        '      intervalMinutes: 10 -> 5',
        '      rangeMinutes: 10 -> 30',
        '      notifiers: ["email"] -> ["email","pager"]',
        '',
        '2 differ, 2 the same.',
        '',
      ].join('\n'),
    );
    const same = await runCli(['diff', 'prod', 'prod', dir, '--detailed-exitcode']);
    expect(same.code).toBe(0);
    expect(same.stdout).toBe('No differences: prod and prod render the same 4 resources.\n');
    const json = JSON.parse((await runCli(['diff', 'staging', 'prod', dir, '--format', 'json'])).stdout) as { onlyIn: unknown[][] };
    expect(json.onlyIn[1]).toEqual([{ kind: 'Notifier', key: 'pager', source: { file: 'environments/prod/pager.yaml', line: 1, column: 1 } }]);
    const unknown = await runCli(['diff', 'staging', 'qa', dir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('diff: qa: no such environment; wsync.yaml declares staging, prod\n');
  });

  it('files named alone in a tree with environments (a pre-commit hook) are checked in every environment, their problems only', async () => {
    const dir = tree();
    writeFileSync(join(dir, 'monitors.yaml'), MONITOR.replace('rangeMinutes: 10', 'rangeMinutes: ${var:range}'));
    writeFileSync(join(dir, 'broken.yaml'), 'apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: broken\nspec: {}\n');
    const result = await runCli(['validate', 'monitors.yaml', 'notifiers.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('monitors.yaml:12:17: Monitor/errors: environment staging: spec.rangeMinutes: ${var:range}');
    expect(result.stdout).not.toContain('broken.yaml');
    const clean = await runCli(['validate', 'notifiers.yaml'], { cwd: dir });
    expect(clean.code, clean.stdout).toBe(0);
  });
});

describe('wsync diff and secret fields', () => {
  const HOOK = (url: string, auth: string) => `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: hook
spec:
  properties:
    customWebhook:
      url: ${url}
      body: '{}'
      headers:
        Authorization: ${auth}
      secretHeaders:
        X-Key: \${env:HOOK_KEY}
`;

  it('never shows a value written in a secret field (a capability URL, a header), only that it differs; placeholders are shown as written', async () => {
    const dir = scratch.tree({
      'wsync.yaml': CONFIG,
      'hook.yaml': HOOK('https://hooks.example.com/staging?key=staging-capability-secret-1', 'Bearer staging-literal-token-1'),
      'environments/prod/hook.yaml': HOOK('https://hooks.example.com/prod?key=prod-capability-secret-2', 'Bearer ${env:PROD_HOOK_TOKEN}').replace('${env:HOOK_KEY}', '${env:PROD_HOOK_KEY}'),
    });
    const text = await runCli(['diff', 'staging', 'prod', dir]);
    const json = await runCli(['diff', 'staging', 'prod', dir, '--format', 'json']);
    for (const result of [text, json]) {
      expect(result.code, result.stderr).toBe(0);
      for (const secret of ['staging-capability-secret-1', 'prod-capability-secret-2', 'staging-literal-token-1']) expect(result.stdout).not.toContain(secret);
    }
    expect(text.stdout).toContain('Notifier/hook  (hook.yaml:1)');
    expect(text.stdout).toContain('      properties.customWebhook.url: "(sensitive)" -> "(sensitive)"');
    expect(text.stdout).toContain('      properties.customWebhook.headers.Authorization: "(sensitive)" -> "(sensitive)"');
    expect(text.stdout).toContain('      properties.customWebhook.secretHeaders.X-Key: "${env:HOOK_KEY}" -> "${env:PROD_HOOK_KEY}"');
  });
});
