import { pino, type Logger, type LevelWithSilent } from 'pino';
import PinoPretty from 'pino-pretty';

export type { Logger };

export const LOG_LEVELS: readonly LevelWithSilent[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export function isLogLevel(value: string): value is LevelWithSilent {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export interface LoggerOptions {
  level: LevelWithSilent;
  /** Human-readable lines instead of JSON; the default is whether stdout is a terminal. */
  pretty?: boolean;
}

/**
 * pino, JSON to stdout, one line per event; pretty (pino-pretty, in this thread) on a TTY.
 * Writes are synchronous: a daemon logs little, and a line must not be lost when it exits.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const pretty = opts.pretty ?? process.stdout.isTTY === true;
  const base = {
    level: opts.level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (pretty) {
    return pino(base, PinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  }
  return pino(base, pino.destination({ dest: 1, sync: true }));
}
