import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlToken, notificationTargets, startSuspended, statusAuth } from '../../../src/cli/commands/run/notifications.js';
import { useScratch } from '../../support/tree.js';

const scratch = useScratch('wsync-notify-');
function secretFile(text: string): string {
  return join(scratch.tree({ secret: `${text}\n` }), 'secret');
}

describe('run: notification targets', () => {
  it('takes the webhook and Slack from flags and environment, and wsync.yaml targets with their secrets', () => {
    const hmac = secretFile('hmac-key-from-a-file');
    const targets = notificationTargets(
      { notifyWebhook: 'https://hooks.example.com/wsync', notifyWebhookSecretFile: hmac },
      { WSYNC_NOTIFY_SLACK_URL: 'https://hooks.slack.com/services/T/B/secret', OPS_URL: 'https://ops.example.com/in' },
      { targets: [{ name: 'ops', type: 'webhook', urlEnv: 'OPS_URL', events: ['plan.refused'] }] },
      false,
    );
    expect(targets.map((t) => [t.name, t.type, t.url(), t.secret?.(), t.events])).toEqual([
      ['ops', 'webhook', 'https://ops.example.com/in', undefined, ['plan.refused']],
      ['webhook', 'webhook', 'https://hooks.example.com/wsync', 'hmac-key-from-a-file', undefined],
      ['slack', 'slack', 'https://hooks.slack.com/services/T/B/secret', undefined, undefined],
    ]);
  });

  it('fails at start on what would fail at 3 a.m., never quoting a URL that may be a secret', () => {
    expect(() => notificationTargets({}, {}, { targets: [{ type: 'slack', urlEnv: 'NOPE' }] }, false)).toThrow(
      'wsync.yaml notifications.targets.0.urlEnv: the environment variable NOPE is not set',
    );
    expect(() => notificationTargets({}, { EMPTY: '' }, { targets: [{ type: 'slack', urlEnv: 'EMPTY' }] }, false)).toThrow(
      "wsync.yaml notifications.targets.0.urlEnv: the environment variable EMPTY is set but empty (a CI secret that is not defined (e.g. GitHub's ${{ secrets.NAME }}) reads as empty)",
    );
    expect(() => notificationTargets({}, {}, { targets: [{ type: 'webhook' }] }, false)).toThrow(/exactly one of url, urlFile or urlEnv/);
    expect(() => notificationTargets({ notifyWebhookSecretFile: '/x' }, {}, undefined, false)).toThrow(/no --notify-webhook/);
    expect(() => notificationTargets({ notifySlackUrlFile: secretFile('http://slack.internal/T/B/secret-part') }, {}, undefined, false)).toThrow(
      /^notification target "slack": refusing plain http to slack\.internal; use https/,
    );
    expect(() => notificationTargets({}, { WSYNC_NOTIFY_SLACK_URL: 'not a url secret-part' }, undefined, false)).toThrow('notification target "slack": not a valid URL');
    expect(() =>
      notificationTargets({ notifyWebhook: 'https://a.example.com' }, {}, { targets: [{ type: 'webhook', url: 'https://b.example.com' }] }, false),
    ).toThrow(/"webhook" is configured twice/);
  });
});

describe('run: control token and suspension', () => {
  it('reads the token from a file or the environment, refuses a short one', () => {
    expect(controlToken({}, {})).toBeUndefined();
    expect(controlToken({ controlTokenFile: secretFile('0123456789abcdef-from-file') }, {})?.()).toBe('0123456789abcdef-from-file');
    expect(controlToken({}, { WSYNC_CONTROL_TOKEN: '0123456789abcdef' })?.()).toBe('0123456789abcdef');
    expect(() => controlToken({}, { WSYNC_CONTROL_TOKEN: 'short' })).toThrow(/too short/);
    expect(startSuspended({}, { WSYNC_SUSPEND: '1' })).toBe(true);
    expect(startSuspended({ suspended: true }, {})).toBe(true);
    expect(startSuspended({}, {})).toBe(false);
  });
});

describe('run: a notification URL file changed after start', () => {
  it('is checked again at every read (each delivery reads it): plain http to another host or another scheme is refused', async () => {
    const dir = scratch.tree({ 'slack-url': 'https://hooks.slack.com/services/T/B/first\n' });
    const [slack] = notificationTargets({ notifySlackUrlFile: join(dir, 'slack-url') }, {}, undefined, false);
    expect(slack?.url()).toBe('https://hooks.slack.com/services/T/B/first');
    // The file is rewritten (a new inode and size, as a rotated Secret is).
    await writeFile(join(dir, 'slack-url.new'), 'http://collector.example.net/steal\n');
    await rename(join(dir, 'slack-url.new'), join(dir, 'slack-url'));
    expect(() => slack?.url()).toThrow('notification target "slack": refusing plain http to collector.example.net');
    await writeFile(join(dir, 'slack-url.new'), 'file:///etc/passwd\n');
    await rename(join(dir, 'slack-url.new'), join(dir, 'slack-url'));
    expect(() => slack?.url()).toThrow('only http:// and https:// are supported');
  });
});

describe('run: --status-auth', () => {
  it('is on with the flag or WSYNC_STATUS_AUTH=1, and refuses to start without a control token', () => {
    const token = (): string => 'a-control-token-of-enough-length';
    expect(statusAuth({ statusAuth: true }, {}, token)).toBe(true);
    expect(statusAuth({}, { WSYNC_STATUS_AUTH: '1' }, token)).toBe(true);
    expect(statusAuth({}, {}, token)).toBe(false);
    expect(() => statusAuth({ statusAuth: true }, {}, undefined)).toThrow('--status-auth (WSYNC_STATUS_AUTH) requires the control token');
  });
});
