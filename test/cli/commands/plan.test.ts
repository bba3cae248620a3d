// `wsync plan` end to end: the real CLI against the real emulator over 127.0.0.1.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { startTestEmulator, TEST_TOKEN, useTestEmulator } from '../../support/emulator.js';
import { copyExamples, removeDir, useScratch } from '../../support/tree.js';
import { DEMO_SEED_FILE } from '../../support/paths.js';
import { DEMO_SECRETS } from '../../support/workspace.js';

const scratch = useScratch('wsync-plan-');

const KINDS_IN_EXAMPLES = ['Dataset', 'Role', 'Notifier', 'User', 'Group', 'Monitor', 'StarredQuery', 'VirtualField', 'Annotation', 'View', 'ApiToken', 'Dashboard'];

interface PlanJson {
  version: number;
  changes: { kind: string; key: string; action: string; diffs: { path: string; before?: unknown; after?: unknown; sensitive?: boolean }[] }[];
  summary: Record<string, number>;
  fingerprint: { desired: string; live: string };
}

describe('wsync plan against the emulator', () => {
  // An empty workspace: the examples declare their own datasets.
  const emulator = useTestEmulator();
  let tree: string;
  let stateDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    tree = await copyExamples(await scratch.dir());
    stateDir = join(tree, '..', 'state');
    env = { ...emulator.env, ...DEMO_SECRETS };
  });

  it('plans every kind of config-examples as creates against an empty workspace, without writing', async () => {
    await emulator.clearRequests();
    const result = await runCli(['plan', tree, '--state-dir', stateDir, '--detailed-exitcode', '--stats'], { env });
    expect(result.stderr).toMatch(/stats: \d+ API requests/);
    expect(result.code).toBe(2);
    for (const kind of KINDS_IN_EXAMPLES) expect(result.stdout).toMatch(new RegExp(`\\+ create\\s+${kind}/`));
    expect(result.stdout).toContain('Plan: 22 to create, 0 to update, 0 to delete, 0 to adopt.');

    const requests = await emulator.requests();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    // One list call per kind (and per dataset in play), never one GET per object.
    const perObject = requests.filter((r) =>
      /\/v2\/(datasets|notifiers|monitors|rbac\/roles|rbac\/groups|users|vfields|tokens|annotations|apl-starred-queries|views)\/[^?]/.test(r.path),
    );
    expect(perObject).toEqual([]);
    expect(requests.length).toBeLessThanOrEqual(13);
    expect(Number(/stats: (\d+) API requests/.exec(result.stderr)?.[1])).toBe(requests.length);
  });

  it('writes a versioned JSON plan with --out and prints markdown for pull requests', async () => {
    const out = join(tree, '..', 'plan.json');
    const json = await runCli(['plan', tree, '--state-dir', stateDir, '--format', 'json', '--out', out], { env });
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout) as PlanJson;
    expect(plan.version).toBe(1);
    expect(plan.fingerprint.desired).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(plan);
    expect(new Set(plan.changes.map((c) => c.kind))).toEqual(new Set(KINDS_IN_EXAMPLES));

    const md = await runCli(['plan', tree, '--state-dir', stateDir, '--format', 'markdown'], { env });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('| kind |');
    expect(md.stdout).toContain('<details>');
  });

  it('reports no changes (exit 0 with --detailed-exitcode) once the workspace matches', async () => {
    const applied = await runCli(['apply', tree, '--state-dir', stateDir], { env });
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    await emulator.clearRequests();
    const result = await runCli(['plan', tree, '--state-dir', stateDir, '--detailed-exitcode'], { env });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('No changes. The workspace matches the files.');
    expect((await emulator.writes()).length).toBe(0);
  });

  it('shows the exact field diff of an object changed by hand', async () => {
    const monitors = await emulator.ok<Record<string, unknown>[]>('GET', '/v2/monitors');
    const monitor = monitors.find((m) => m.name === 'checkout-error-rate');
    expect(monitor).toBeDefined();
    const { id, createdAt: _c, createdBy: _b, updatedAt: _u, ...body } = monitor as Record<string, unknown>;
    await emulator.ok('PUT', `/v2/monitors/${String(id)}`, {
      ...body,
      threshold: 40,
      notifierIds: (body.notifierIds as string[]).slice(0, 1),
    });
    const roles = await emulator.ok<Record<string, unknown>[]>('GET', '/v2/rbac/roles');
    const role = roles.find((r) => r.name === 'sre') as Record<string, unknown>;
    await emulator.ok('PUT', `/v2/rbac/roles/${String(role.id)}`, { ...role, id: undefined, description: 'edited by hand' });

    const text = await runCli(['plan', tree, '--state-dir', stateDir, '--detailed-exitcode', '--no-color'], { env });
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/~ update\s+Monitor\/checkout-error-rate/);
    expect(text.stdout).toContain('threshold: 40 -> 25');
    // A list shows the elements it gained and lost (the JSON plan keeps both whole values).
    expect(text.stdout).toContain('notifiers: 1 added\n          + "oncall-pagerduty"\n');
    expect(text.stdout).toContain('description: "edited by hand" -> "Site reliability engineers manage monitors and notifiers."');
    expect(text.stdout).toContain('Plan: 0 to create, 2 to update, 0 to delete, 0 to adopt.');

    const json = await runCli(['plan', tree, '--state-dir', stateDir, '--format', 'json'], { env });
    const plan = JSON.parse(json.stdout) as PlanJson;
    const update = plan.changes.find((c) => c.key === 'checkout-error-rate');
    expect(update?.action).toBe('update');
    expect(update?.diffs).toContainEqual({ path: 'threshold', before: 40, after: 25 });
    // Everything else is unchanged: no perpetual diff from server defaults or blanked secrets.
    expect(plan.changes.filter((c) => c.action !== 'noop').map((c) => c.key).sort()).toEqual(['checkout-error-rate', 'sre']);
  });

  it('fails with the file and line of a reference that resolves nowhere, before reading anything', async () => {
    await writeFile(
      join(tree, 'monitors', 'broken.yaml'),
      'apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: orphan\nspec:\n  type: MatchEvent\n  aplQuery: "x"\n  notifiers:\n    - oncall-slack\n    - no-such-notifier\n',
    );
    try {
      const result = await runCli(['plan', tree, '--state-dir', stateDir, '--detailed-exitcode'], { env });
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toMatch(/monitors\/broken\.yaml:10:\d+: Monitor\/orphan: .*no Notifier named "no-such-notifier"/);
    } finally {
      await removeDir(join(tree, 'monitors', 'broken.yaml'));
    }
  });

  it('refuses bad connection settings with a clear message and exit 1', async () => {
    const noUrl = await runCli(['plan', tree], { env: { ...DEMO_SECRETS, WSYNC_TOKEN: TEST_TOKEN } });
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toContain('WSYNC_URL');
    const remoteHttp = await runCli(['plan', tree, '--url', 'http://example.com'], { env: { ...DEMO_SECRETS, WSYNC_TOKEN: TEST_TOKEN } });
    expect(remoteHttp.code).toBe(1);
    expect(remoteHttp.stderr).toMatch(/insecure/);
  });
});

describe('wsync plan under faults and rate limits', () => {
  it('still makes the same plan, within the retry budget', async () => {
    const emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE, seed: 7 });
    const tree = await copyExamples(await scratch.dir());
    const env = { ...emulator.env, ...DEMO_SECRETS };
    try {
      const clean = await runCli(['plan', tree, '--format', 'json'], { env });
      expect(clean.code).toBe(0);
      await emulator.faults({ faultRate: 0.3, resetRate: 0.15, latencyMs: [0, 20], rateLimit: 4, rateWindowSeconds: 1 });
      await emulator.clearRequests();
      const faulty = await runCli(['plan', tree, '--format', 'json', '--stats'], { env });
      // The client gives up on a request past its retry budget, and plan would then exit 1.
      expect(faulty.code, faulty.stderr).toBe(0);
      const strip = (text: string) => (JSON.parse(text) as PlanJson).changes.map((c) => [c.kind, c.key, c.action, c.diffs]);
      expect(strip(faulty.stdout)).toEqual(strip(clean.stdout));
      const requests = await emulator.requests();
      // The faults really happened, and every list still got through.
      expect(requests.some((r) => r.status >= 500 || r.status === 0)).toBe(true);
      expect(requests.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(10);
      expect(requests.filter((r) => r.status === 429).length).toBeLessThanOrEqual(2);
    } finally {
      await emulator.close();
    }
  });
});

describe('plan never shows a secret', () => {
  it('keeps every secret field of every kind out of text, json, markdown, --out, stats and errors', async () => {
    const emulator = await startTestEmulator({ seedFile: DEMO_SEED_FILE });
    const dir = await scratch.dir('wsync-plan-secrets-');
    const secrets: Record<string, string> = {
      S_SLACK: 'https://hooks.slack.example/SECRET-slack-7f3a',
      S_DISCORD: 'SECRET-discord-token-91bc',
      S_DISCORD_HOOK: 'https://discord.example/api/webhooks/SECRET-dwh-55aa',
      S_TEAMS: 'https://teams.example/webhook/SECRET-teams-2d2d',
      S_OPSGENIE: 'SECRET-opsgenie-key-8e8e',
      S_PD_ROUTING: 'SECRET-pd-routing-4c4c',
      S_PD_TOKEN: 'SECRET-pd-token-6b6b',
      S_HEADER: 'SECRET-header-value-1a1a',
      S_OTHER_HEADER: 'SECRET-second-header-3c3c',
    };
    const channels: Record<string, unknown> = {
      slack: { slackUrl: '${env:S_SLACK}' },
      discord: { discordChannel: '123', discordToken: '${env:S_DISCORD}' },
      discordWebhook: { discordWebhookUrl: '${env:S_DISCORD_HOOK}' },
      microsoftTeams: { microsoftTeamsUrl: '${env:S_TEAMS}' },
      opsgenie: { apiKey: '${env:S_OPSGENIE}', isEU: true },
      pagerduty: { routingKey: '${env:S_PD_ROUTING}', token: '${env:S_PD_TOKEN}' },
      customWebhook: {
        url: 'https://hooks.example/x',
        body: '{}',
        secretHeaders: { Authorization: 'Bearer ${env:S_HEADER}', 'X-Other': '${env:S_OTHER_HEADER}' },
      },
    };
    const docs = Object.entries(channels).map(
      ([channel, config]) =>
        `apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: n-${channel}\nspec:\n  properties:\n    ${channel}: ${JSON.stringify(config)}\n`,
    );
    docs.push('apiVersion: wsync/v1\nkind: ApiToken\nmetadata:\n  name: t\nspec:\n  description: token\n');
    await mkdir(join(dir, 'tree'), { recursive: true });
    await writeFile(join(dir, 'tree', 'all.yaml'), docs.join('---\n'));
    const env = { ...emulator.env, ...secrets };
    const state = join(dir, 'state');
    const outputs: string[] = [];
    const run = async (args: string[]) => {
      const r = await runCli(args, { env });
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    try {
      for (const format of ['text', 'json', 'markdown']) {
        expect((await run(['plan', join(dir, 'tree'), '--state-dir', state, '--format', format, '--stats'])).code).toBe(0);
      }
      expect((await run(['apply', join(dir, 'tree'), '--state-dir', state])).code).toBe(0);
      // Rotate every secret: the plan says "changed" without saying to what.
      const rotated = Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, `${v}-rotated`]));
      Object.assign(env, rotated);
      for (const format of ['text', 'json', 'markdown']) {
        const r = await run(['plan', join(dir, 'tree'), '--state-dir', state, '--format', format, '--out', join(dir, 'plan.json')]);
        expect(r.code).toBe(0);
        outputs.push(await readFile(join(dir, 'plan.json'), 'utf8'));
      }
      expect(outputs.join('\n')).toContain('sensitive');
      // An error nearby: the run fails, and still says nothing secret.
      await writeFile(join(dir, 'tree', 'bad.yaml'), 'apiVersion: wsync/v1\nkind: Monitor\nmetadata: {name: m}\nspec: {type: Nope}\n');
      expect((await run(['plan', join(dir, 'tree'), '--state-dir', state])).code).toBe(1);
      const all = outputs.join('\n');
      for (const value of [...Object.values(secrets), ...Object.values(rotated)]) expect(all).not.toContain(value);
      const inventory = await readFile(join(state, 'inventory.json'), 'utf8');
      for (const value of Object.values(secrets)) expect(inventory).not.toContain(value);
    } finally {
      await emulator.close();
    }
  });
});
