import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { TEST_TOKEN } from '../support/emulator.js';
import { monitorYaml } from '../support/yaml.js';

const env = useDaemonSuite();

const ALL = ['create', 'read', 'update', 'delete'];
const caps = { notifiers: ALL, monitors: ALL };
// The monitor is seen only by a token that may query its dataset (docs/wire-contract.md "What the token cannot see").
const MONITOR_QUERY = { app: { query: ['read'] } };
const SECRET_A = 'wsync-rotation-secret-aaaaaaaaaaaa';
const SECRET_B = 'wsync-rotation-secret-bbbbbbbbbbbb';
const SLACK_URL = 'https://hooks.slack.example/services/T000/B000/very-secret-webhook-path';

function slackNotifierYaml(): string {
  return `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: rotation-slack
spec:
  properties:
    slack:
      slackUrl: \${env:ROTATION_SLACK_URL}
`;
}

async function replaceFile(path: string, text: string): Promise<void> {
  await writeFile(`${path}.tmp`, text, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

describe('configuration', () => {
  it('re-reads a rotated --token-file without a restart, reloads on SIGHUP, and never logs a secret', async () => {
    await env.emulator.seed({
      tokens: [
        { name: 'rotation-a', orgCapabilities: caps, datasetCapabilities: MONITOR_QUERY, token: SECRET_A },
        { name: 'rotation-b', orgCapabilities: caps, datasetCapabilities: MONITOR_QUERY, token: SECRET_B },
      ],
    });
    const tokens = await env.emulator.ok<{ id: string; name: string }[]>('GET', '/v2/tokens');
    const tokenA = tokens.find((t) => t.name === 'rotation-a');
    expect(tokenA).toBeDefined();

    const dir = join(env.tmp, 'rotation');
    const secrets = join(env.tmp, 'rotation-secrets');
    await mkdir(dir);
    await mkdir(secrets);
    const tokenFile = join(secrets, 'token');
    await replaceFile(tokenFile, `${SECRET_A}\n`);
    await writeFile(join(dir, 'n.yaml'), slackNotifierYaml());
    await writeFile(join(dir, 'm.yaml'), monitorYaml('rotation-monitor', 1, 'rotation-slack'));

    const d = env.start([dir, '--resync', 'off', '--debounce', '50', '--token-file', tokenFile], {
      WSYNC_TOKEN: '',
      ROTATION_SLACK_URL: SLACK_URL,
    });
    const { url } = await d.ready({ result: 'applied' });

    // Token A is revoked: the next reconcile fails (and says why, without the token).
    expect((await env.emulator.call('DELETE', `/v2/tokens/${tokenA?.id ?? ''}`)).status).toBe(204);
    let mark = d.mark;
    await writeFile(join(dir, 'm.yaml'), monitorYaml('rotation-monitor', 2, 'rotation-slack'));
    const failed = await d.waitReconcile(mark, { trigger: 'change' });
    // An edit reuses the live read (docs/incremental.md), so the write is the first request to be
    // refused: the reconcile failed rather than erred, and says why.
    expect(failed.result).toBe('failed');
    expect(String(failed.error)).toMatch(/401/);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // The token file is rotated: the retry after the backoff picks it up; no restart.
    mark = d.mark;
    await replaceFile(tokenFile, `${SECRET_B}\n`);
    const recovered = await d.waitReconcile(mark, { result: 'applied' });
    expect(recovered.updated).toBe(1);
    const monitors = (await env.emulator.state()).monitors ?? [];
    expect(monitors.find((m) => m.name === 'rotation-monitor')?.threshold).toBe(2);

    // SIGHUP: configuration re-read, then a reconcile.
    mark = d.mark;
    d.child.kill('SIGHUP');
    await d.waitFor((l) => l.msg === 'configuration re-read', { from: mark, what: 'configuration re-read' });
    await d.waitReconcile(mark, { trigger: 'sighup', result: 'applied' });

    // Nothing printed or served carries a secret: the bearer tokens, the admin token, the Slack URL.
    const page = await (await fetch(`${url}/`)).text();
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(await d.signal('SIGTERM')).toBe(0);
    const everything = [d.lines.map((l) => JSON.stringify(l)).join('\n'), d.stderr, page, metrics].join('\n');
    for (const secret of [SECRET_A, SECRET_B, TEST_TOKEN, SLACK_URL, 'very-secret-webhook-path']) {
      expect(everything.includes(secret), secret).toBe(false);
    }
  });

  it('refuses bad flags with a clear message before it starts', async () => {
    const bad = env.start([env.tmp, '--resync', 'every minute']);
    expect(await bad.waitExit()).toBe(1);
    expect(bad.stderr).toMatch(/--resync: "every minute" is not a cron expression/);
    const noUrl = env.start([env.tmp], { WSYNC_URL: '' });
    expect(await noUrl.waitExit()).toBe(1);
    expect(noUrl.stderr).toMatch(/no API URL/);
  });
});
