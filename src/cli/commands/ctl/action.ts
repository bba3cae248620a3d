import { callDaemon, parseDaemonUrl, type ControlReply, type ControlVerb } from '../../../api/control-client.js';
import { ConfigError } from '../../../api/errors.js';
import { tokenFileReader } from '../../../api/token-source.js';
import { parseHeldFingerprint } from '../../../core/held-fingerprint.js';
import { safeLine } from '../../../core/safe-text.js';
import { parseListen } from '../../../daemon/http.js';
import type { CommandIo } from '../../io.js';
import type { CtlFlags } from './command.js';

const DEFAULT_DAEMON = 'http://127.0.0.1:9464';

function daemonUrl(flags: CtlFlags, env: Record<string, string | undefined>): string {
  if (flags.daemon) return flags.daemon;
  if (env.WSYNC_DAEMON_URL) return env.WSYNC_DAEMON_URL;
  if (!env.WSYNC_LISTEN) return DEFAULT_DAEMON;
  // The daemon's own setting (the same environment in its container); all interfaces include loopback.
  let listen: ReturnType<typeof parseListen>;
  try {
    listen = parseListen(env.WSYNC_LISTEN);
  } catch (err) {
    throw new ConfigError(`WSYNC_LISTEN: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { host, port } = listen;
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function token(flags: CtlFlags, env: Record<string, string | undefined>): string | undefined {
  const file = flags.controlTokenFile ?? env.WSYNC_CONTROL_TOKEN_FILE;
  if (file) return tokenFileReader(file, '--control-token-file')();
  return env.WSYNC_CONTROL_TOKEN || undefined;
}

function tokenIfReadable(flags: CtlFlags, env: Record<string, string | undefined>): string | undefined {
  try {
    return token(flags, env);
  } catch {
    return undefined;
  }
}

/** The fingerprint `wsync ctl approve` needs. */
function approveArgument(argument: string | undefined): string {
  if (argument === undefined) throw new ConfigError('approve needs the fingerprint of the held changes: wsync ctl approve held-XXXXXXXXXXXX-XXXXXXXXXXXX (wsync ctl status shows it)');
  try {
    return parseHeldFingerprint(argument);
  } catch (err) {
    throw new ConfigError(`approve: ${(err as Error).message}`);
  }
}

const text = (v: unknown): string => safeLine(v === null || v === undefined ? '–' : String(v));

function statusText(body: Record<string, unknown>): string {
  const last = body.last as Record<string, unknown> | null | undefined;
  const rows: [string, string][] = [
    ['ready', body.ready ? 'yes' : 'no'],
    ['suspended', body.suspended ? `yes, since ${text(body.suspendedSince)}: nothing is written` : 'no'],
    ['mode', text(body.mode)],
    ['directory', text(body.dir)],
    ['revision', text(body.revision)],
    ['last reconcile', last ? `${text(last.result)} (${text(last.trigger)}, ${text(last.startedAt)}, ${text(last.durationMs)} ms)${last.message ? `: ${text(last.message)}` : ''}` : 'none yet'],
    ['last success', text(body.lastSuccessAt)],
    ['pending drift', text(body.pendingDrift)],
    ['freeze', freezeText(body.freeze)],
    ['held', typeof body.degraded === 'string' ? heldText(body) : 'none'],
    ['approval', approvalText(body.approval)],
    ['reconciling now', body.running ? 'yes' : 'no'],
    ['next retry', text(body.nextRetryAt)],
  ];
  return rows.map(([k, v]) => `${k.padEnd(16)}${v}\n`).join('');
}

function freezeText(freeze: unknown): string {
  if (freeze === null || typeof freeze !== 'object') return 'no windows';
  const { windows, active } = freeze as { windows?: unknown; active?: Record<string, unknown> | null };
  const list = Array.isArray(windows) ? windows.map((w) => text(w)).join('; ') : '';
  if (active === null || active === undefined) return `not now (windows: ${list})`;
  return `yes, until ${text(active.until)} (${text(active.window)}): nothing is written; wsync ctl reconcile --override-freeze writes once`;
}

function heldText(body: Record<string, unknown>): string {
  const fingerprint = typeof body.heldFingerprint === 'string' ? body.heldFingerprint : undefined;
  return `${text(body.degraded)}${fingerprint === undefined ? '' : ` (approve exactly these: wsync ctl approve ${text(fingerprint)})`}`;
}

function approvalText(approval: unknown): string {
  if (approval === null || typeof approval !== 'object') return 'none';
  const { fingerprint, at } = approval as Record<string, unknown>;
  return `${text(fingerprint)} (given ${text(at)}): applied by the next reconcile that writes`;
}

function actionText(verb: ControlVerb, body: Record<string, unknown>): string {
  if (verb === 'approve') {
    const changes = Array.isArray(body.changes) ? body.changes.map((c) => text(c)).join(', ') : '';
    return `approved ${text(body.fingerprint)}: a reconcile runs now and applies exactly the ${text(body.held)} held change(s) (${changes}) unless what is held changes first\n`;
  }
  if (verb === 'suspend') return 'suspended: reconciles plan and report drift, nothing is written until `wsync ctl resume`\n';
  if (verb === 'resume') return 'resumed: a reconcile that writes runs now\n';
  if (body.overrideFreeze === true) return 'reconcile requested, overriding the freeze: that one reconcile writes even inside a freeze window\n';
  return body.suspended ? 'reconcile requested (suspended: it plans and reports only)\n' : 'reconcile requested: it runs as soon as the one in flight (if any) ends\n';
}

/**
 * The environments' sections of a daemon that syncs several (`environments` in its answer): the one
 * --env names, or every one; null for a daemon of one workspace; a message when --env names none.
 */
function environmentsShown(verb: ControlVerb, body: Record<string, unknown>, env: string | undefined): [string, Record<string, unknown>][] | null | string {
  const sections = body.environments;
  if (sections === null || typeof sections !== 'object') {
    // A daemon of one workspace refuses an action for another environment itself.
    if (verb !== 'status' || env === undefined || body.env === env) return null;
    return `--env ${safeLine(env)}: the daemon syncs ${typeof body.env === 'string' ? `environment ${text(body.env)}` : 'a tree without environments'}`;
  }
  const all = Object.entries(sections as Record<string, Record<string, unknown>>);
  if (env === undefined) return all;
  const chosen = all.filter(([name]) => name === env);
  return chosen.length > 0 ? chosen : `--env ${safeLine(env)}: the daemon syncs no such environment (it syncs ${all.map(([n]) => text(n)).join(', ')})`;
}

/** `wsync ctl VERB`: 0 when the daemon did it, 1 otherwise (refused, unreachable). */
export async function runCtl(verb: string, flags: CtlFlags, io: CommandIo, argument?: string): Promise<number> {
  const { env } = io;
  const v = verb as ControlVerb;
  let reply: ControlReply;
  try {
    const base = parseDaemonUrl(daemonUrl(flags, env), flags.insecure === true);
    const timeoutMs = flags.timeout === undefined ? 5000 : Number(flags.timeout);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new ConfigError(`--timeout: "${flags.timeout}" is not a positive number of milliseconds`);
    // Status sends the token when it has one (a daemon with --status-auth asks for it), and needs none.
    const secret = v === 'status' ? tokenIfReadable(flags, env) : token(flags, env);
    if (v !== 'status' && secret === undefined) throw new ConfigError(`${v} needs the control token: --control-token-file FILE or WSYNC_CONTROL_TOKEN`);
    const fingerprint = v === 'approve' ? approveArgument(argument) : undefined;
    if (v !== 'approve' && argument !== undefined) throw new ConfigError(`${v} takes no argument (got "${argument}")`);
    if (flags.overrideFreeze === true && v !== 'reconcile') throw new ConfigError(`--override-freeze goes with reconcile, not ${v}`);
    reply = await callDaemon(base, v, secret, timeoutMs, {
      ...(fingerprint === undefined ? {} : { argument: fingerprint }),
      ...(flags.env === undefined ? {} : { env: flags.env }),
      overrideFreeze: flags.overrideFreeze === true,
    });
  } catch (err) {
    const message = err instanceof ConfigError ? err.message : `the daemon did not answer: ${err instanceof Error ? err.message : String(err)}`;
    io.stderr.write(`ctl: ${safeLine(message)}\n`);
    return 1;
  }
  if (reply.status !== 200) {
    const why = reply.status === 401 ? 'the control token was not accepted' : text(reply.body.error ?? `HTTP ${reply.status}`);
    io.stderr.write(`ctl ${v}: refused (HTTP ${reply.status}): ${why}\n`);
    return 1;
  }
  const shown = environmentsShown(v, reply.body, flags.env);
  if (typeof shown === 'string') {
    io.stderr.write(`ctl ${v}: ${shown}\n`);
    return 1;
  }
  if (flags.format === 'json') io.stdout.write(`${JSON.stringify(shown === null ? reply.body : flags.env !== undefined && v === 'status' ? shown[0]?.[1] : reply.body)}\n`);
  else if (shown === null) io.stdout.write(v === 'status' ? statusText(reply.body) : actionText(v, reply.body));
  else io.stdout.write(shown.map(([name, body]) => `${v === 'status' ? `${'environment'.padEnd(16)}${text(name)}\n` : `${text(name)}: `}${v === 'status' ? statusText(body) : actionText(v, body)}`).join(v === 'status' ? '\n' : ''));
  return 0;
}
