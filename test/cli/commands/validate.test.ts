// End to end: `node bin/wsync.js validate` (build first: npm test does).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderValidation } from '../../../src/cli/commands/validate/report.js';
import { readDesired } from '../../../src/source/index.js';
import { runCli } from '../../support/cli.js';
import { EXAMPLES_DIR } from '../../support/paths.js';
import { useScratch, type Files } from '../../support/tree.js';

const scratch = useScratch('wsync-validate-');
const tree = (files: Files, prefix?: string): string => scratch.tree(files, prefix);

const EXAMPLE_ENV = {
  WSYNC_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/example',
  WSYNC_PAGERDUTY_ROUTING_KEY: 'example-routing-key',
  WSYNC_INCIDENT_WEBHOOK_TOKEN: 'example-token',
};

const notifier = `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: oncall
spec:
  properties:
    email:
      emails: [oncall@example.com]
`;
const monitor = (name: string, extra = ''): string => `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: ${name}
spec:
  type: Threshold
  aplQuery: "['checkout'] | count"
  operator: Above
  threshold: 25
  notifiers: [oncall, pager]
${extra}`;

describe('wsync validate', () => {
  it('passes the examples: exit 0 and a summary line', async () => {
    const result = await runCli(['validate', EXAMPLES_DIR], { env: EXAMPLE_ENV });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The Kubernetes and GitHub files of deploy/ are listed as skipped, with why.
    expect(result.stdout).toContain('deploy/kubernetes/wsync.yaml:35:1: skipped: apiVersion apps/v1, kind Deployment: not a wsync resource\n');
    expect(result.stdout).toMatch(/^(\S+: skipped: [^\n]+\n)+\d+ resources in \d+ files: valid\n$/);
  });

  it('defaults DIR to the working directory', async () => {
    const dir = tree({ 'n.yaml': notifier });
    const result = await runCli(['validate'], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stdout: '1 resource in 1 file: valid\n' });
  });

  it('prints every problem at once as file:line:column: kind/name: message, then the counts; exit 1', async () => {
    const dir = tree({
      'notifiers.yaml': notifier,
      'monitors/a.yaml': monitor('checkout', '  treshold: 3\n  intervalMinutes: 0\n'),
      'monitors/b.yaml': monitor('latency'),
      'monitors/c.yml': 'apiVersion: wsync/v1\nkind: Monitor\nmetadata: {name: broken\n',
    });
    const result = await runCli(['validate', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toContain('monitors/a.yaml:11:3: Monitor/checkout: spec: unknown field "treshold" (did you mean "threshold"?)');
    expect(lines).toContain('monitors/a.yaml:12:3: Monitor/checkout: spec.intervalMinutes: must be >= 1');
    expect(lines).toContain(
      'monitors/b.yaml:10:23: Monitor/latency: warning: spec.notifiers[1]: no Notifier named "pager" is declared in this directory; it must exist live',
    );
    expect(lines.some((l) => l.startsWith('monitors/c.yml:') && l.includes('Monitor/broken'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^4 resources in 4 files: \d+ errors, 1 warning$/);
  });

  it('--format json gives counts and diagnostics for machines', async () => {
    const dir = tree({ 'a.yaml': monitor('checkout', '  treshold: 3\n'), 'ci.yaml': 'on: push\n' });
    const result = await runCli(['validate', dir, '--format', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    // References of a document with errors are checked once it is valid.
    expect(report).toMatchObject({ valid: false, resources: 1, files: 2, skipped: 1, errors: 1, warnings: 0 });
    expect(report.diagnostics).toContainEqual({
      severity: 'error',
      code: 'unknown-field',
      file: 'a.yaml',
      line: 11,
      column: 3,
      kind: 'Monitor',
      name: 'checkout',
      field: 'spec.treshold',
      message: 'spec: unknown field "treshold" (did you mean "threshold"?)',
    });
    const valid = await runCli(['validate', tree({ 'n.yaml': notifier }), '--format=json']);
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, resources: 1, files: 1, skipped: 0, skippedDocuments: [], errors: 0, warnings: 0, diagnostics: [] });
    expect(valid.code).toBe(0);
  });

  it('warnings alone keep exit 0; --quiet prints errors only', async () => {
    const dir = tree({ 'a.yaml': monitor('checkout') });
    const loud = await runCli(['validate', dir]);
    expect(loud.code).toBe(0);
    expect(loud.stdout).toMatch(/1 resource in 1 file: valid \(2 warnings\)\n$/);
    const quiet = await runCli(['validate', dir, '--quiet']);
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
    const broken = await runCli(['validate', tree({ 'a.yaml': monitor('checkout', '  treshold: 1\n') }), '-q']);
    expect(broken.code).toBe(1);
    expect(broken.stdout.trimEnd().split('\n')).toEqual(['a.yaml:11:3: Monitor/checkout: spec: unknown field "treshold" (did you mean "threshold"?)']);
  });

  it('a missing directory is exit 1 with the reason', async () => {
    const result = await runCli(['validate', '/nonexistent/wsync-dir']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('/nonexistent/wsync-dir: no such directory');
  });

  it('an unknown --format is a usage error', async () => {
    const result = await runCli(['validate', '.', '--format', 'yaml']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('yaml');
  });

  it('--secrets-as-written checks the references without the secrets (a fork\'s pull request: empty values)', async () => {
    const examples = EXAMPLES_DIR;
    const empty = Object.fromEntries(Object.keys(EXAMPLE_ENV).map((name) => [name, '']));
    const without = await runCli(['validate', examples], { env: empty });
    expect(without.code).toBe(1);
    const asWritten = await runCli(['validate', examples, '--secrets-as-written'], { env: empty });
    expect(asWritten.stderr).toBe('');
    expect(asWritten).toMatchObject({ code: 0 });
    // A reference that could never work is still an error.
    const dir = tree({ 'n.yaml': 'apiVersion: wsync/v1\nkind: Notifier\nmetadata: {name: s}\nspec:\n  properties:\n    slack: {slackUrl: "${env:not a name}"}\n' });
    const broken = await runCli(['validate', dir, '--secrets-as-written']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('not a valid environment variable name');
  });

  it('reads ${file:} from --secrets-dir or WSYNC_SECRETS_DIR', async () => {
    const secrets = tree({ 'slack-url': 'https://hooks.slack.com/services/T/B/x\n' }, 'wsync-secrets-');
    const dir = tree({
      'n.yaml': 'apiVersion: wsync/v1\nkind: Notifier\nmetadata: {name: s}\nspec:\n  properties:\n    slack: {slackUrl: "${file:slack-url}"}\n',
    });
    expect(await runCli(['validate', dir, '--secrets-dir', secrets])).toMatchObject({ code: 0 });
    expect(await runCli(['validate', dir], { env: { WSYNC_SECRETS_DIR: secrets } })).toMatchObject({ code: 0 });
    const none = await runCli(['validate', dir]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('--secrets-dir');
  });

  it('the built CLI answers exactly as the in-process reader does, for a larger tree', async () => {
    const files: Record<string, string> = { 'notifiers.yaml': notifier };
    for (let i = 0; i < 200; i++) {
      const extra = i % 7 === 0 ? '  treshold: 3\n' : i % 11 === 0 ? '  intervalMinutes: 0\n' : '';
      files[`team-${i % 5}/m-${String(i).padStart(3, '0')}.yaml`] = [monitor(`m-${i}`, extra), monitor(`m-${i}-b`)].join('---\n');
    }
    files['team-1/dup.yaml'] = monitor('m-3');
    const dir = tree(files);
    const cli = await runCli(['validate', dir, '--format', 'json']);
    const inProcess = renderValidation(await readDesired(dir, { env: {} }), { format: 'json' });
    expect(cli.stdout).toBe(inProcess.output);
    expect(cli.code).toBe(inProcess.exitCode);
    const report = JSON.parse(cli.stdout) as { resources: number; errors: number };
    expect(report.resources).toBe(402);
    expect(report.errors).toBeGreaterThan(40);
  });
});

describe('wsync validate never prints a secret', () => {
  const SECRETS = {
    slackUrl: 'https://hooks.slack.com/services/T0SECRET/B0SECRET/slackSecretValue',
    routingKey: 'pd-routing-key-SECRET-1234',
    operator: 'AboveSecretOperator',
    name: 'secret-monitor-name',
    notifierRef: 'secret-notifier-reference',
    notUrl: 'not a url but SECRET-url-value',
    fileToken: 'Bearer file-token-SECRET-5678',
    tricky: 'quote"and\\backslash SECRET',
    multi: '-----BEGIN KEY-----\nMIIsecretline0123456789\n-----END KEY-----',
  };
  const env = {
    SLACK_URL: SECRETS.slackUrl,
    PD_KEY: SECRETS.routingKey,
    OPERATOR: SECRETS.operator,
    NAME: SECRETS.name,
    NOTIFIER: SECRETS.notifierRef,
    NOT_URL: SECRETS.notUrl,
  };

  function secretTree(): { dir: string; secretsDir: string } {
    const secretsDir = tree({ 'webhook/token': `${SECRETS.fileToken}\n`, tricky: SECRETS.tricky, 'key.pem': SECRETS.multi }, 'wsync-secrets-');
    writeFileSync(join(secretsDir, 'unused'), 'x');
    const dir = tree({
      'notifiers.yaml': `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: slack
spec:
  properties:
    slack:
      slackUrl: \${env:SLACK_URL}
      slackChannel: "#oncall"
---
apiVersion: wsync/v1
kind: Notifier
metadata:
  name: pager
spec:
  properties:
    pagerduty:
      routingKey: \${env:PD_KEY}
      token: \${file:tricky}
    slack:
      slackUrl: \${env:NOT_URL}
---
apiVersion: wsync/v1
kind: Notifier
metadata:
  name: hook
spec:
  properties:
    customWebhook:
      url: \${env:NOT_URL}
      body: \${file:key.pem}
      secretHeaders:
        Authorization: \${file:webhook/token}
        X-Key: \${file:key.pem}
      bogus: 1
`,
      'monitors.yaml': `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: \${env:NAME}
spec:
  type: Threshold
  aplQuery: x
  operator: \${env:OPERATOR}
  threshold: 1
  notifiers: ["\${env:NOTIFIER}", "\${env:MISSING}"]
---
apiVersion: wsync/v1
kind: Monitor
metadata:
  name: \${env:NAME}
spec:
  type: MatchEvent
  aplQuery: \${file:webhook/token}
  notifiers: ["\${env:NOTIFIER}"]
  treshold: \${env:PD_KEY}
---
apiVersion: wsync/v1
kind: Monitor
metadata:
  name: valid-one
spec:
  type: MatchEvent
  aplQuery: \${file:webhook/token}
  notifiers: ["\${env:NOTIFIER}"]
`,
    });
    return { dir, secretsDir };
  }

  it('in text, JSON and quiet output, with errors all around the secrets', async () => {
    const { dir, secretsDir } = secretTree();
    const outputs: string[] = [];
    for (const args of [[], ['--format', 'json'], ['--quiet'], ['--format', 'json', '--quiet']]) {
      const result = await runCli(['validate', dir, '--secrets-dir', secretsDir, ...args], { env: env });
      expect(result.code).toBe(1);
      outputs.push(result.stdout, result.stderr);
    }
    const all = outputs.join('\n');
    // The problems are reported...
    expect(all).toContain('unknown field "slackChannel"');
    expect(all).toContain('spec.operator: must be one of');
    expect(all).toContain('environment variable MISSING is not set');
    expect(all).toContain('is also declared at monitors.yaml:1:1');
    expect(all).toContain('unknown field "bogus"');
    expect(all).toContain('no Notifier by this interpolated name');
    // ...and no secret, nor any line of one, nor its JSON-escaped form.
    for (const secret of Object.values(SECRETS)) {
      for (const form of [secret, JSON.stringify(secret).slice(1, -1), ...secret.split('\n').filter((l) => l.length > 12)]) {
        expect(all).not.toContain(form);
      }
    }
  });
});

describe('wsync validate FILE... (as a pre-commit hook passes them)', () => {
  const role = (name: string): string => `apiVersion: wsync/v1\nkind: Role\nmetadata:\n  name: ${name}\nspec: {}\n`;
  const slack = 'apiVersion: wsync/v1\nkind: Notifier\nmetadata: {name: s}\nspec:\n  properties:\n    slack: {slackUrl: "${file:slack-url}"}\n';

  it('reads only the files named, naming them relative to the working directory', async () => {
    const dir = tree({
      'notifiers.yaml': notifier,
      'monitors/a.yaml': monitor('checkout', '  treshold: 3\n'),
      'monitors/broken.yaml': 'apiVersion: wsync/v1\nkind: Monitor\nmetadata: {name: broken\n',
    });
    const result = await runCli(['validate', 'monitors/a.yaml', 'notifiers.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      'monitors/a.yaml:11:3: Monitor/checkout: spec: unknown field "treshold" (did you mean "threshold"?)',
      '2 resources in 2 files: 1 error',
    ]);
    const valid = await runCli(['validate', 'notifiers.yaml', '--format', 'json'], { cwd: dir });
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, resources: 1, files: 1, skipped: 0, skippedDocuments: [], errors: 0, warnings: 0, diagnostics: [] });
  });

  it('names files outside the working directory relative to their common root', async () => {
    const dir = tree({ 'team-a/a.yaml': role('same'), 'team-b/b.yaml': role('same') });
    const result = await runCli(['validate', join(dir, 'team-a', 'a.yaml'), join(dir, 'team-b', 'b.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'team-b/b.yaml:1:1: Role/same: Role "same" is also declared at team-a/a.yaml:1:1\n2 resources in 2 files: 1 error\n',
    );
    const one = await runCli(['validate', join(dir, 'team-a', 'a.yaml')]);
    expect(one).toMatchObject({ code: 0, stdout: '1 resource in 1 file: valid\n' });
  });

  it('mixes files and directories, reading a file reached twice once', async () => {
    const dir = tree({ 'roles/r.yaml': role('r'), 'roles/q.yaml': role('q'), 'n.yaml': notifier });
    const result = await runCli(['validate', 'roles', 'roles/r.yaml', 'n.yaml'], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stdout: '3 resources in 3 files: valid\n' });
  });

  it('a missing file is exit 1 with the reason, and the other files are still checked', async () => {
    const dir = tree({ 'n.yaml': notifier, 'a.yaml': monitor('checkout', '  treshold: 3\n') });
    const result = await runCli(['validate', 'gone.yaml', 'a.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('gone.yaml: no such file\n');
    expect(result.stdout).toContain('a.yaml:11:3: Monitor/checkout: spec: unknown field "treshold"');
  });

  it("reads a directory's wsync.yaml, not a lone file's, and names its problems relative to the root", async () => {
    const secrets = tree({ 'slack-url': 'https://hooks.slack.com/services/T/B/x\n' }, 'wsync-secrets-');
    const dir = tree({
      'ws/wsync.yaml': `secretsDir: ${secrets}\n`,
      'ws/n.yaml': slack,
      'bad/wsync.yaml': 'url: http://127.0.0.1:9/\nprune: true\n',
      'bad/r.yaml': role('r'),
    });
    // wsync.yaml counts as a file read (and skipped: it is no resource).
    expect(await runCli(['validate', 'ws'], { cwd: dir })).toMatchObject({ code: 0, stdout: '1 resource in 2 files: valid\n' });
    const lone = await runCli(['validate', 'ws/n.yaml'], { cwd: dir });
    expect(lone.code).toBe(1);
    expect(lone.stdout).toContain('--secrets-dir');
    expect(await runCli(['validate', 'ws/n.yaml', '--secrets-dir', secrets], { cwd: dir })).toMatchObject({ code: 0 });
    const both = await runCli(['validate', 'ws', 'bad'], { cwd: dir });
    expect(both.code).toBe(1);
    expect(both.stdout).toBe('bad/wsync.yaml:2:1: unknown setting "prune"\n2 resources in 4 files: 1 error\n');
  });
});
