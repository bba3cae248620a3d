// `wsync run` notification targets and control token: flags, then environment, then wsync.yaml.
import { ConfigError } from '../../../api/errors.js';
import { constantToken, ownCredential, tokenFileReader } from '../../../api/token-source.js';
import { parseWebhookUrl } from '../../../api/webhook.js';
import type { NotificationTarget } from '../../../daemon/notify/dispatcher.js';
import type { WorkspaceConfig } from '../../../generated/spec-types.js';
import { EMPTY_SECRET } from '../../../source/interpolate/interpolate.js';

export interface NotifyFlags {
  notifyWebhook?: string;
  notifyWebhookSecretFile?: string;
  notifySlackUrlFile?: string;
  controlTokenFile?: string;
  suspended?: boolean;
  statusAuth?: boolean;
}

type Env = Record<string, string | undefined>;
type ConfiguredTarget = NonNullable<NonNullable<WorkspaceConfig['notifications']>['targets']>[number];

/**
 * A secret from a file (re-read when it changes) or from a value; undefined when neither is given.
 * Recorded as wsync's own credential, `credential` naming it, so the tree can never copy it.
 */
function secretFrom(
  credential: string,
  file: { path: string | undefined; what: string },
  value: { text: string | undefined; what: string },
): (() => string) | undefined {
  if (file.path) return ownCredential(credential, tokenFileReader(file.path, file.what), file.path);
  if (value.text !== undefined && value.text !== '') return ownCredential(credential, constantToken(value.text));
  return undefined;
}

function fromEnv(credential: string, env: Env, name: string | undefined, what: string): (() => string) | undefined {
  if (name === undefined) return undefined;
  const value = env[name];
  if (value === undefined) throw new ConfigError(`${what}: the environment variable ${name} is not set`);
  if (value === '') throw new ConfigError(`${what}: the environment variable ${name} is set but empty (${EMPTY_SECRET})`);
  return ownCredential(credential, constantToken(value));
}

function configuredTarget(t: ConfiguredTarget, index: number, env: Env): NotificationTarget {
  const what = `wsync.yaml notifications.targets.${index}`;
  const sources = [t.url, t.urlFile, t.urlEnv].filter((s) => s !== undefined);
  if (sources.length !== 1) throw new ConfigError(`${what}: give exactly one of url, urlFile or urlEnv`);
  const urlOf = `the URL of notification target ${index}`;
  const url = t.url !== undefined ? constantToken(t.url) : (secretFrom(urlOf, { path: t.urlFile, what: `${what}.urlFile` }, { text: undefined, what }) ?? fromEnv(urlOf, env, t.urlEnv, `${what}.urlEnv`));
  const target: NotificationTarget = { name: t.name ?? t.type, type: t.type, url: url as () => string };
  const keyOf = `the signing key of notification target ${index}`;
  const secret = t.secretFile !== undefined ? ownCredential(keyOf, tokenFileReader(t.secretFile, `${what}.secretFile`), t.secretFile) : fromEnv(keyOf, env, t.secretEnv, `${what}.secretEnv`);
  if (secret) target.secret = secret;
  if (t.events) target.events = [...t.events];
  return target;
}

/** Every target, checked now (files readable, URLs https or loopback) so a typo fails at start, not at 3 a.m. */
export function notificationTargets(flags: NotifyFlags, env: Env, config: WorkspaceConfig['notifications'], insecure: boolean): NotificationTarget[] {
  const targets = (config?.targets ?? []).map((t, i) => configuredTarget(t, i, env));
  const webhookUrl = flags.notifyWebhook ?? env.WSYNC_NOTIFY_WEBHOOK_URL;
  if (webhookUrl) {
    const target: NotificationTarget = { name: 'webhook', type: 'webhook', url: constantToken(webhookUrl) };
    const secret = secretFrom(
      "the webhook's signing key",
      { path: flags.notifyWebhookSecretFile ?? env.WSYNC_NOTIFY_WEBHOOK_SECRET_FILE, what: '--notify-webhook-secret-file' },
      { text: env.WSYNC_NOTIFY_WEBHOOK_SECRET, what: 'WSYNC_NOTIFY_WEBHOOK_SECRET' },
    );
    if (secret) target.secret = secret;
    targets.push(target);
  } else if (flags.notifyWebhookSecretFile) {
    throw new ConfigError('--notify-webhook-secret-file: there is no --notify-webhook to sign for');
  }
  const slackUrl = secretFrom(
    'the Slack webhook URL',
    { path: flags.notifySlackUrlFile ?? env.WSYNC_NOTIFY_SLACK_URL_FILE, what: '--notify-slack-url-file' },
    { text: env.WSYNC_NOTIFY_SLACK_URL, what: 'WSYNC_NOTIFY_SLACK_URL' },
  );
  if (slackUrl) targets.push({ name: 'slack', type: 'slack', url: slackUrl });
  const names = new Set<string>();
  for (const t of targets) {
    if (names.has(t.name)) throw new ConfigError(`notification target "${t.name}" is configured twice: give each a name of its own`);
    names.add(t.name);
    // At every read, not only now: a URL file is read again at each delivery, and whatever it
    // holds then must pass the same https-or-loopback rule (the delivery fails otherwise).
    const read = t.url;
    t.url = () => {
      const url = read();
      parseWebhookUrl(url, `notification target "${t.name}"`, insecure);
      return url;
    };
    t.url();
  }
  return targets;
}

const MIN_CONTROL_TOKEN = 16;

/** The control token (file, re-read when it changes, or value); undefined: the control endpoints are off. */
export function controlToken(flags: NotifyFlags, env: Env): (() => string) | undefined {
  const token = secretFrom(
    'the control token',
    { path: flags.controlTokenFile ?? env.WSYNC_CONTROL_TOKEN_FILE, what: '--control-token-file' },
    { text: env.WSYNC_CONTROL_TOKEN, what: 'WSYNC_CONTROL_TOKEN' },
  );
  if (token && token().length < MIN_CONTROL_TOKEN) throw new ConfigError(`the control token is too short: use at least ${MIN_CONTROL_TOKEN} random characters`);
  return token;
}

/** --status-auth (WSYNC_STATUS_AUTH=1): it needs the control token it asks for. */
export function statusAuth(flags: NotifyFlags, env: Env, token: (() => string) | undefined): boolean {
  const on = flags.statusAuth === true || ['1', 'true', 'yes'].includes((env.WSYNC_STATUS_AUTH ?? '').toLowerCase());
  if (on && token === undefined) {
    throw new ConfigError('--status-auth (WSYNC_STATUS_AUTH) requires the control token for the status page, but none is configured: give --control-token-file or WSYNC_CONTROL_TOKEN');
  }
  return on;
}

export function startSuspended(flags: NotifyFlags, env: Env): boolean {
  return flags.suspended === true || ['1', 'true', 'yes'].includes((env.WSYNC_SUSPEND ?? '').toLowerCase());
}
