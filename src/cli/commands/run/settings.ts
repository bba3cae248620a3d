// `wsync run` settings: flags, then environment, then DIR/wsync.yaml, checked before the daemon starts.
import { validate as validateCron } from 'node-cron';
import { ConfigError } from '../../../api/errors.js';
import { formatDiagnostic } from '../../../core/diagnostics.js';
import { resolve } from 'node:path';
import type { DaemonConfig } from '../../../daemon/daemon.js';
import type { ReloadedConfig } from '../../../daemon/config.js';
import { parseListen, type ListenAddress } from '../../../daemon/http.js';
import { isLogLevel } from '../../../daemon/logger.js';
import { FreezeWindowError, parseFreezeWindow, type FreezeWindow } from '../../../daemon/freeze.js';
import { defaultStateDir } from '../../../daemon/snapshot.js';
import { CONFIG_FILE } from '../../../source/config.js';
import { treeLimitsOf } from '../../limits.js';
import { resolveRevisionMarks } from '../../revision-marks.js';
import { environmentStateDir } from '../../environment.js';
import { resolveSettings } from '../../settings.js';
import type { RunFlags } from './command.js';
import { controlToken, notificationTargets, startSuspended, statusAuth } from './notifications.js';
import { resolveWriteBack } from './write-back.js';

const DEFAULT_LISTEN = '127.0.0.1:9464';
const DEFAULT_RESYNC = '*/5 * * * *';
const DEFAULT_DEBOUNCE_MS = 200;

export class UsageError extends Error {}

/** What the flags and environment settle; the rest of DaemonConfig (policy, logger, ...) comes later. */
export type Settings = Pick<
  DaemonConfig,
  | 'dir'
  | 'stateDir'
  | 'secretsDir'
  | 'tokenOutputDir'
  | 'listen'
  | 'resync'
  | 'debounceMs'
  | 'concurrency'
  | 'connection'
  | 'limits'
  | 'notifications'
  | 'controlToken'
  | 'statusAuth'
  | 'suspended'
  | 'revisionMarks'
  | 'environment'
  | 'freeze'
  | 'writeBack'
> & { logLevel: string; pretty?: boolean };

function positiveInt(text: string, flag: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag}: "${text}" is not a whole number >= ${min}`);
  return n;
}

/** What the flags, environment and wsync.yaml settle for the daemon (paths relative to `cwd`); throws UsageError or ConfigError. */
export async function settingsFrom(dirArg: string, flags: RunFlags, env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<Settings> {
  const dir = resolve(cwd, dirArg);
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
  if (configured.notificationsRefused) throw new ConfigError(formatDiagnostic(configured.notificationsRefused));
  const stateDirFlag = configured.stateDir;
  const secretsDir = configured.secretsDir;
  const settings: Settings = {
    dir,
    stateDir: stateDirFlag ? resolve(cwd, stateDirFlag) : environmentStateDir(await defaultStateDir(dir), configured.environment),
    listen,
    resync,
    debounceMs: flags.debounce === undefined ? DEFAULT_DEBOUNCE_MS : positiveInt(flags.debounce, '--debounce', 0),
    logLevel,
    connection: configured.connection,
    limits: treeLimitsOf(flags, env),
    suspended: startSuspended(flags, env),
  };
  const targets = notificationTargets(flags, configured.env, configured.notifications, configured.connection.insecure === true);
  if (targets.length > 0) {
    settings.notifications = { targets };
    if (configured.notifications?.timeoutMs !== undefined) settings.notifications.timeoutMs = configured.notifications.timeoutMs;
  }
  const freeze = freezeWindows(flags, env, configured.freeze);
  if (freeze.length > 0) settings.freeze = freeze;
  const token = controlToken(flags, configured.env);
  if (token) settings.controlToken = token;
  if (statusAuth(flags, configured.env, token)) settings.statusAuth = true;
  if (secretsDir) settings.secretsDir = resolve(cwd, secretsDir);
  if (configured.environment !== undefined) settings.environment = configured.environment;
  if (flags.tokenOutputDir) settings.tokenOutputDir = resolve(cwd, flags.tokenOutputDir);
  if (flags.concurrency !== undefined) settings.concurrency = positiveInt(flags.concurrency, '--concurrency', 1);
  if (format !== 'auto') settings.pretty = format === 'pretty';
  // The process's own environment: wsync.yaml never says where a GitHub token goes.
  const marks = resolveRevisionMarks(flags, env, configured.connection.insecure === true);
  if (marks) settings.revisionMarks = marks;
  const writeBack = resolveWriteBack(flags, env, { dir, stateDir: settings.stateDir, cwd }, configured.connection.insecure === true);
  if (writeBack) settings.writeBack = writeBack;
  return settings;
}

/** What SIGHUP reads again (environment, wsync.yaml, token file; the flags stay as started); throws as a start would. */
export function reloadedConfig(dir: string, flags: RunFlags, env: Readonly<Record<string, string | undefined>>): ReloadedConfig {
  const configured = resolveSettings(dir, flags, env);
  return { connection: configured.connection, freeze: freezeWindows(flags, env, configured.freeze) };
}

/** The freeze windows: the flags', else WSYNC_FREEZE's (split by ";"), else wsync.yaml's; a bad one is a UsageError naming where it is. */
function freezeWindows(flags: RunFlags, env: Readonly<Record<string, string | undefined>>, file: { windows: string[]; line: number } | undefined): FreezeWindow[] {
  const given: { text: string; where: string }[] =
    flags.freeze !== undefined && flags.freeze.length > 0
      ? flags.freeze.map((text) => ({ text, where: '--freeze' }))
      : env.WSYNC_FREEZE !== undefined && env.WSYNC_FREEZE.trim() !== ''
        ? env.WSYNC_FREEZE.split(';').map((t) => t.trim()).filter((t) => t !== '').map((text) => ({ text, where: 'WSYNC_FREEZE' }))
        : (file?.windows ?? []).map((text, i) => ({ text, where: `${CONFIG_FILE}:${file?.line ?? 1}: freeze[${i}]` }));
  return given.map(({ text, where }) => {
    try {
      return parseFreezeWindow(text, where);
    } catch (err) {
      throw err instanceof FreezeWindowError ? new UsageError(err.message) : err;
    }
  });
}

export function modeOf(flags: RunFlags): 'enforce' | 'observe' {
  const mode = flags.mode ?? 'enforce';
  if (mode !== 'enforce' && mode !== 'observe') throw new UsageError(`--mode: "${mode}" is not enforce or observe`);
  return mode;
}
