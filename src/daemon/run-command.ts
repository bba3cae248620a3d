import { validate as validateCron } from 'node-cron';
import { resolve } from 'node:path';
import { ConfigError } from '../api/connection.js';
import { treeLimitsOf, type LimitFlags } from '../cli/limit-options.js';
import { PolicyFlagError, policyFromFlags, type PolicyFlags } from '../cli/policy-options.js';
import { resolveSettings, type SettingsFlags } from '../cli/settings.js';
import { Daemon, type DaemonConfig } from './daemon.js';
import { parseListen, type ListenAddress } from './http.js';
import { createLogger, isLogLevel, type Logger } from './logger.js';
import { defaultStateDir } from './snapshot.js';

export interface RunFlags extends PolicyFlags, SettingsFlags, LimitFlags {
  tokenOutputDir?: string;
  listen?: string;
  resync?: string;
  debounce?: string;
  mode?: string;
  concurrency?: string;
  logLevel?: string;
  logFormat?: string;
}

export const DEFAULT_LISTEN = '127.0.0.1:9464';
export const DEFAULT_RESYNC = '*/5 * * * *';
export const DEFAULT_DEBOUNCE_MS = 200;
/** SIGTERM must end the process within 10 s; leave a margin for the last log lines. */
export const SHUTDOWN_DEADLINE_MS = 9_000;

class UsageError extends Error {}

/** What the flags and environment settle; the rest of DaemonConfig (policy, logger, ...) comes later. */
type Settings = Pick<
  DaemonConfig,
  'dir' | 'stateDir' | 'secretsDir' | 'tokenOutputDir' | 'listen' | 'resync' | 'debounceMs' | 'concurrency' | 'connection' | 'limits'
> & { logLevel: string; pretty?: boolean };

function positiveInt(text: string, flag: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag}: "${text}" is not a whole number >= ${min}`);
  return n;
}

async function settingsFrom(dirArg: string, flags: RunFlags, env: Record<string, string | undefined>): Promise<Settings> {
  const dir = resolve(dirArg);
  const listenText = flags.listen ?? env.WSYNC_LISTEN ?? DEFAULT_LISTEN;
  let listen: ListenAddress;
  try {
    listen = parseListen(listenText);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const resyncText = (flags.resync ?? env.WSYNC_RESYNC ?? DEFAULT_RESYNC).trim();
  const resync = ['off', 'never', 'none', ''].includes(resyncText) ? null : resyncText;
  if (resync !== null && !validateCron(resync)) {
    throw new UsageError(`--resync: "${resyncText}" is not a cron expression (five fields, or six with seconds first), nor "off"`);
  }
  const logLevel = flags.logLevel ?? env.WSYNC_LOG_LEVEL ?? 'info';
  if (!isLogLevel(logLevel)) throw new UsageError(`--log-level: "${logLevel}" is not one of trace, debug, info, warn, error, fatal, silent`);
  const format = flags.logFormat ?? 'auto';
  if (!['auto', 'json', 'pretty'].includes(format)) throw new UsageError(`--log-format: "${format}" is not one of auto, json, pretty`);
  // Flags, then environment, then DIR/wsync.yaml.
  const configured = resolveSettings(dir, flags, env);
  const stateDirFlag = configured.stateDir;
  const secretsDir = configured.secretsDir;
  const settings: Settings = {
    dir,
    stateDir: stateDirFlag ? resolve(stateDirFlag) : await defaultStateDir(dir),
    listen,
    resync,
    debounceMs: flags.debounce === undefined ? DEFAULT_DEBOUNCE_MS : positiveInt(flags.debounce, '--debounce', 0),
    logLevel,
    connection: configured.connection,
    limits: treeLimitsOf(flags, env),
  };
  if (secretsDir) settings.secretsDir = resolve(secretsDir);
  if (flags.tokenOutputDir) settings.tokenOutputDir = resolve(flags.tokenOutputDir);
  if (flags.concurrency !== undefined) settings.concurrency = positiveInt(flags.concurrency, '--concurrency', 1);
  if (format !== 'auto') settings.pretty = format === 'pretty';
  return settings;
}

function modeOf(flags: RunFlags): 'enforce' | 'observe' {
  const mode = flags.mode ?? 'enforce';
  if (mode !== 'enforce' && mode !== 'observe') throw new UsageError(`--mode: "${mode}" is not enforce or observe`);
  return mode;
}

/**
 * Handles SIGTERM/SIGINT (stop) and SIGHUP (reload) — from the very start, so a signal that lands
 * while the daemon is still starting is not lost — and resolves with the exit code once stopped.
 */
function untilStopped(starting: Promise<Daemon | null>, log: Logger): Promise<number> {
  return new Promise<number>((done) => {
    let signalled = false;
    const onStop = (signal: NodeJS.Signals): void => {
      if (signalled) {
        log.warn({ signal }, 'second signal: exiting now');
        done(1);
        return;
      }
      signalled = true;
      const deadline = setTimeout(() => {
        log.error(
          { deadline_ms: SHUTDOWN_DEADLINE_MS },
          'shutdown deadline passed with a request still in flight; the next start lists live state again and adopts what it created',
        );
        done(1);
      }, SHUTDOWN_DEADLINE_MS);
      deadline.unref();
      starting
        .then((daemon) => daemon?.stop(signal))
        .then(
          () => {
            clearTimeout(deadline);
            done(0);
          },
          (err: unknown) => {
            clearTimeout(deadline);
            log.error({ err: err instanceof Error ? err.message : String(err) }, 'shutdown failed');
            done(1);
          },
        );
    };
    process.on('SIGTERM', onStop);
    process.on('SIGINT', onStop);
    process.on('SIGHUP', () => void starting.then((daemon) => daemon?.reload()));
    // A daemon that could not start has nothing to wait for.
    void starting.then((daemon) => {
      if (daemon === null) done(1);
    });
  });
}

/** `wsync run DIR`: returns the exit code once stopped by a signal. */
export async function runDaemon(dirArg: string, raw: Record<string, unknown>): Promise<number> {
  const flags = raw as RunFlags;
  const env = process.env;
  let settings: Settings;
  let policy;
  try {
    settings = await settingsFrom(dirArg, flags, env);
    policy = policyFromFlags(flags, modeOf(flags));
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof PolicyFlagError) {
      process.stderr.write(`run: ${err.message}\n`);
      return 1;
    }
    throw err;
  }

  const log = createLogger({ level: settings.logLevel as Parameters<typeof createLogger>[0]['level'], pretty: settings.pretty });
  // A rejected promise somewhere in a library must not end the loop; it is logged instead.
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection');
  });
  const starting = Daemon.start({
    dir: settings.dir,
    stateDir: settings.stateDir,
    secretsDir: settings.secretsDir,
    limits: settings.limits,
    tokenOutputDir: settings.tokenOutputDir,
    listen: settings.listen,
    resync: settings.resync,
    debounceMs: settings.debounceMs,
    policy,
    concurrency: settings.concurrency,
    env,
    connection: settings.connection,
    // Flags are fixed for the life of the process; environment, wsync.yaml and token file are read again.
    reloadConnection: () => resolveSettings(settings.dir, flags, process.env).connection,
    logger: log,
  }).catch((err: unknown) => {
    log.fatal({ err: err instanceof Error ? err.message : String(err) }, 'could not start');
    return null;
  });
  return untilStopped(starting, log);
}
