// `${file:}` and `${env:}` can never copy wsync's own credentials (the API token, the control
// token, the webhook's signing key, the Slack URL) into an object: a notifier would send them on.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConnection } from '../../src/cli/connection.js';
import { controlToken, notificationTargets } from '../../src/cli/commands/run/notifications.js';
import { readDesired } from '../../src/source/index.js';
import { useScratch } from '../support/tree.js';
import { webhookNotifierYaml } from '../support/yaml.js';

const scratch = useScratch('wsync-own-credentials-');

const API_TOKEN = 'xaat-0123456789abcdef-api-token';
const CONTROL_TOKEN = 'control-token-0123456789abcdef';
const WEBHOOK_KEY = 'webhook-signing-key-0123456789';
const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/secretpart';

/** A notifier that sends `header` to any URL: where a stolen credential would go. */
const hook = (header: string): string => webhookNotifierYaml('hook', header);

/** The secrets directory the tree may read, holding wsync's own credential files too (as a careless mount would). */
function secrets(): string {
  const dir = scratch.tree({
    'wsync/token': `${API_TOKEN}\n`,
    'wsync/control-token': `${CONTROL_TOKEN}\n`,
    'wsync/webhook-key': `${WEBHOOK_KEY}\n`,
    'wsync/slack-url': `${SLACK_URL}\n`,
    'team/ok': 'an-ordinary-secret-value',
  });
  mkdirSync(join(dir, 'aliases'));
  return dir;
}

/** The credentials read as `wsync run` reads them from its flags (src/cli), which records them. */
function readCredentials(dir: string): void {
  resolveConnection({ url: 'http://127.0.0.1:1', tokenFile: join(dir, 'wsync/token') }, {});
  controlToken({ controlTokenFile: join(dir, 'wsync/control-token') }, {});
  notificationTargets(
    { notifyWebhook: 'https://example.com/wsync', notifyWebhookSecretFile: join(dir, 'wsync/webhook-key'), notifySlackUrlFile: join(dir, 'wsync/slack-url') },
    {},
    undefined,
    false,
  );
}

const CASES = [
  { file: 'wsync/token', what: 'the API token', value: API_TOKEN },
  { file: 'wsync/control-token', what: 'the control token', value: CONTROL_TOKEN },
  { file: 'wsync/webhook-key', what: "the webhook's signing key", value: WEBHOOK_KEY },
  { file: 'wsync/slack-url', what: 'the Slack webhook URL', value: SLACK_URL },
] as const;

async function readTree(text: string, secretsDir: string, env: Record<string, string> = {}) {
  const dir = scratch.tree({ 'hook.yaml': text });
  return readDesired(dir, { secretsDir, env });
}

function expectRefused(desired: Awaited<ReturnType<typeof readTree>>, message: RegExp, value: string): void {
  expect(desired.resources).toEqual([]);
  expect(desired.diagnostics).toEqual([
    expect.objectContaining({
      severity: 'error',
      code: 'interpolation',
      file: 'hook.yaml',
      line: 11,
      field: 'spec.properties.customWebhook.secretHeaders.Authorization',
      message: expect.stringMatching(message),
    }),
  ]);
  expect(JSON.stringify(desired)).not.toContain(value);
}

describe("wsync's own credentials", () => {
  const dir = secrets();
  readCredentials(dir);

  for (const c of CASES) {
    it(`${c.what}: its file, a link to it and a copy of it are refused, naming file:line and field, never the value`, async () => {
      expectRefused(await readTree(hook(`"Bearer \${file:${c.file}}"`), dir), new RegExp(`the file is ${c.what}, wsync's own credential`), c.value);
      // A link inside the secrets directory resolves to the same file.
      const alias = `aliases/${c.file.replace('/', '-')}`;
      symlinkSync(join(dir, c.file), join(dir, alias));
      expectRefused(await readTree(hook(`\${file:${alias}}`), dir), new RegExp(`the file is ${c.what}`), c.value);
      // Another file with the same value (the Secret mounted twice).
      writeFileSync(join(dir, `${alias}.copy`), `${c.value}\n`);
      expectRefused(await readTree(hook(`\${file:${alias}.copy}`), dir), new RegExp(`the value holds ${c.what}`), c.value);
    });

    it(`${c.what}: an \${env:} of any name holding it is refused`, async () => {
      expectRefused(await readTree(hook('"Bearer ${env:INNOCENT_NAME}"'), dir, { INNOCENT_NAME: c.value }), new RegExp(`the value holds ${c.what}`), c.value);
      // Inside a longer value too.
      expectRefused(await readTree(hook('"${env:INNOCENT_NAME}"'), dir, { INNOCENT_NAME: `prefix ${c.value} suffix` }), new RegExp(`the value holds ${c.what}`), c.value);
    });
  }

  it('other secrets of the directory and the environment are read as before', async () => {
    const desired = await readTree(hook('"${file:team/ok} ${env:OTHER}"'), dir, { OTHER: 'another-value' });
    expect(desired.diagnostics).toEqual([]);
    expect(desired.resources).toHaveLength(1);
  });
});

describe('credential files named by the environment', () => {
  it('are refused even where no command has read them (wsync validate)', async () => {
    // Values no command of this file has read: only the environment names these files.
    const dir = scratch.tree({
      token: 'env-named-api-token',
      control: 'env-named-control',
      key: 'env-named-key',
      slack: 'https://hooks.slack.com/env-named',
      github: 'ghp_envNamedGitHubToken',
    });
    for (const [name, file, what] of [
      ['WSYNC_TOKEN_FILE', 'token', 'the API token'],
      ['WSYNC_CONTROL_TOKEN_FILE', 'control', 'the control token'],
      ['WSYNC_NOTIFY_WEBHOOK_SECRET_FILE', 'key', "the webhook's signing key"],
      ['WSYNC_NOTIFY_SLACK_URL_FILE', 'slack', 'the Slack webhook URL'],
      ['WSYNC_GITHUB_TOKEN_FILE', 'github', 'the GitHub token'],
    ] as const) {
      expectRefused(await readTree(hook(`\${file:${file}}`), dir, { [name]: join(dir, file) }), new RegExp(`the file is ${what}`), 'env-named');
      // Without the variable, the same file is an ordinary secret.
      expect((await readTree(hook(`\${file:${file}}`), dir, {})).diagnostics).toEqual([]);
    }
  });

  it('an ${env:} of another name holding the value of WSYNC_TOKEN (or the other three) is refused', async () => {
    const dir = scratch.tree({});
    for (const [name, what] of [
      ['WSYNC_TOKEN', 'the API token'],
      ['WSYNC_CONTROL_TOKEN', 'the control token'],
      ['WSYNC_NOTIFY_WEBHOOK_SECRET', "the webhook's signing key"],
      ['WSYNC_NOTIFY_SLACK_URL', 'the Slack webhook URL'],
      ['WSYNC_GITHUB_TOKEN', 'the GitHub token'],
    ] as const) {
      const env = { [name]: `env-given-${name}`, MY_HEADER: `env-given-${name}` };
      expectRefused(await readTree(hook('${env:MY_HEADER}'), dir, env), new RegExp(`the value holds ${what}`), 'env-given');
    }
  });
});
