import { ConfigError } from '../../../api/errors.js';
import { Daemon } from '../../../daemon/daemon.js';
import { createLogger, type Logger } from '../../../daemon/logger.js';
import { PolicyFlagError, policyFromFlags } from '../../policy.js';
import { packageVersion } from '../../../util/package-version.js';
import type { CommandIo } from '../../io.js';
import type { RunFlags } from './command.js';
import { resolve } from 'node:path';
import type { DaemonConfig } from '../../../daemon/config.js';
import type { Policy } from '../../../core/types.js';
import { selectedEnvironments, type EnvironmentSelection } from './workspaces.js';
import { modeOf, reloadedConfig, settingsFrom, UsageError, type Settings } from './settings.js';

/** A daemon of one environment, or of several (MultiDaemon). */
export interface Stoppable {
  stop(reason: string): Promise<void>;
  reload(): void;
}

/** SIGTERM must end the process within 10 s; leave a margin for the last log lines. */
const SHUTDOWN_DEADLINE_MS = 9_000;

/**
 * Handles SIGTERM/SIGINT (stop) and SIGHUP (reload) — from the very start, so a signal that lands
 * while the daemon is still starting is not lost — and resolves with the exit code once stopped.
 */
export function untilStopped(starting: Promise<Stoppable | null>, log: Logger, io: CommandIo): Promise<number> {
  let done: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => (done = resolve));
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
  const onReload = (): void => void starting.then((daemon) => daemon?.reload());
  io.signals.on('SIGTERM', onStop);
  io.signals.on('SIGINT', onStop);
  io.signals.on('SIGHUP', onReload);
  // A daemon that could not start has nothing to wait for.
  void starting.then((daemon) => {
    if (daemon === null) done(1);
  });
  return stopped.finally(() => {
    // A command run in a test's process leaves no listener behind.
    if (io.process) return;
    io.signals.off('SIGTERM', onStop);
    io.signals.off('SIGINT', onStop);
    io.signals.off('SIGHUP', onReload);
  });
}

/** `wsync run DIR`: returns the exit code once stopped by a signal. */
export async function runDaemon(dirArg: string, flags: RunFlags, io: CommandIo, selection: EnvironmentSelection = { requested: [], all: false }): Promise<number> {
  let environments: string[];
  try {
    environments = selectedEnvironments(resolve(io.cwd, dirArg), selection, io.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`run: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  if (environments.length > 1) {
    const { runMultiDaemon } = await import('./multi.js');
    return runMultiDaemon(dirArg, flags, io, environments);
  }
  const single = environments[0] === undefined ? flags : { ...flags, env: environments[0] };
  const { env } = io;
  let settings: Settings;
  let policy;
  try {
    settings = await settingsFrom(dirArg, single, env, io.cwd);
    policy = policyFromFlags(single, modeOf(single));
  } catch (err) {
    if (isStartError(err)) {
      io.stderr.write(`run: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const log = runLogger(settings, io);
  const starting = Daemon.start({
    ...daemonConfigOf(settings, policy, log, env),
    // Flags are fixed for the life of the process; environment, wsync.yaml and token file are read again.
    reloadConfig: () => reloadedConfig(settings.dir, single, io.env),
  }).catch((err: unknown) => {
    log.fatal({ err: err instanceof Error ? err.message : String(err) }, 'could not start');
    return null;
  });
  return untilStopped(starting, log, io);
}

/** A refusal to start that is the operator's to fix (exit 1 with the message), not a fault. */
export function isStartError(err: unknown): err is Error {
  return err instanceof UsageError || err instanceof ConfigError || err instanceof PolicyFlagError;
}

/** The daemon's logger (JSON lines, or pretty on a terminal), each line naming the environment. */
export function runLogger(settings: Settings, io: CommandIo, environment = settings.environment): Logger {
  const log = createLogger({
    level: settings.logLevel as Parameters<typeof createLogger>[0]['level'],
    pretty: settings.pretty ?? io.stdout.isTTY === true,
    destination: io.stdout,
    ...(environment === undefined ? {} : { bindings: { env: environment } }),
  });
  // A rejected promise somewhere in a library must not end the loop; it is logged instead (a
  // process-wide hook: only when the daemon is the whole process).
  io.process?.on('unhandledRejection', (reason) => {
    log.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection');
  });
  return log;
}

/** The daemon's configuration from what the flags, environment and wsync.yaml settled (reloadConfig aside). */
export function daemonConfigOf(settings: Settings, policy: Policy, log: Logger, env: Record<string, string | undefined>): Omit<DaemonConfig, 'reloadConfig'> {
  return {
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
    logger: log,
    notifications: settings.notifications,
    controlToken: settings.controlToken,
    statusAuth: settings.statusAuth,
    suspended: settings.suspended,
    version: packageVersion(),
    revisionMarks: settings.revisionMarks,
    ...(settings.freeze === undefined ? {} : { freeze: settings.freeze }),
    ...(settings.environment === undefined ? {} : { environment: settings.environment }),
    writeBack: settings.writeBack,
  };
}
