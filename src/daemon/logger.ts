import { pino, type Logger, type LevelWithSilent } from 'pino';
import PinoPretty from 'pino-pretty';
import { safeMessage } from '../core/safe-text.js';

export type { Logger };

export const LOG_LEVELS: readonly LevelWithSilent[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export function isLogLevel(value: string): value is LevelWithSilent {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export interface LoggerOptions {
  level: LevelWithSilent;
  /** Human-readable lines instead of JSON; the default is whether stdout is a terminal. */
  pretty?: boolean;
  /** Where lines go instead of stdout (file descriptor 1): a test's buffer when the daemon runs in it. */
  destination?: { write(text: string): unknown };
  /** Fields every line carries (`env`: the environment the daemon syncs). */
  bindings?: Record<string, string>;
}

/**
 * pino, JSON to stdout, one line per event; pretty (pino-pretty, in this thread) on a TTY.
 * Writes are synchronous: a daemon logs little, and a line must not be lost when it exits.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const pretty = opts.pretty ?? process.stdout.isTTY === true;
  const base = {
    level: opts.level,
    base: { pid: process.pid, ...opts.bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const own = opts.destination === undefined || opts.destination === process.stdout ? undefined : opts.destination;
  const stream = own && { write: (text: string): void => void own.write(text) };
  if (pretty) {
    return pino(
      base,
      PinoPretty({
        colorize: true,
        sync: true,
        translateTime: 'SYS:HH:MM:ss.l',
        hideObject: true,
        ignore: 'pid,hostname',
        messageFormat: prettyMessage,
        ...(stream ? { destination: stream as NodeJS.WritableStream } : {}),
      }),
    );
  }
  return pino(base, stream ?? pino.destination({ dest: 1, sync: true }));
}

const HIDDEN = new Set(['env', 'level', 'time', 'pid', 'hostname', 'msg']);

/** A field as terminal text: what it quotes from the files or the API cannot run escape sequences. */
function text(value: unknown): string {
  return safeMessage(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
}

/** One readable line per event on a terminal; the JSON fields stay the same. */
export function prettyMessage(log: Record<string, unknown>): string {
  const environment = log.env === undefined ? '' : `[${text(log.env)}] `;
  return environment + plainMessage(log);
}

function plainMessage(log: Record<string, unknown>): string {
  const at = log.revision ? ` @${text(log.revision)}` : '';
  if (log.msg === 'reconcile') {
    const counts = ['created', 'updated', 'deleted', 'failed', 'drift'].map((k) => `${k} ${text(log[k] ?? 0)}`).join(', ');
    const error = log.error ? `: ${text(log.error)}` : '';
    return `reconcile ${text(log.result)} (${text(log.trigger)}${at}) ${counts}, ${text(log.duration_ms)} ms${error}`;
  }
  if (log.msg === 'change') {
    const id = log.id ? ` ${text(log.id)}` : '';
    const message = log.message ? `: ${text(log.message)}` : '';
    return `${text(log.outcome)}: ${text(log.action)} ${text(log.kind)}/${text(log.key)}${id}${at}${message}`;
  }
  const extra = Object.entries(log)
    .filter(([k, v]) => !HIDDEN.has(k) && v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${text(v)}`)
    .join(' ');
  return extra ? `${text(log.msg)} ${extra}` : text(log.msg);
}
