// The one path every setting takes: flags, then the environment, then DIR/wsync.yaml (docs/design.md
// "Configuration"), except where the token goes: the file alone never decides that (config-trust.ts).
// What the layers below receive is the typed result, never the flags.
import { ConfigError } from '../api/errors.js';
import type { ConnectionConfig } from '../api/types.js';
import { formatDiagnostic, sortDiagnostics } from '../core/diagnostics.js';
import type { Diagnostic } from '../core/types.js';
import type { WorkspaceConfig } from '../generated/spec-types.js';
import { configAsEnv, readWorkspaceConfig, type WorkspaceConfigResult } from '../source/config.js';
import { untrustedNotifications, untrustedRouting } from './config-trust.js';
import { resolveConnection, type ConnectionFlags } from './connection.js';
import { chosenEnvironment, environmentStateDir, requestedEnvironment, type EnvironmentFlags } from './environment.js';

/** The flags every command that talks to the API shares (strings as commander hands them over). */
export interface SettingsFlags extends EnvironmentFlags {
  url?: string;
  token?: string;
  tokenFile?: string;
  orgId?: string;
  insecure?: boolean;
  /** Take url, orgId, tokenFile and insecure from DIR/wsync.yaml too (the tree is trusted). */
  trustConfig?: boolean;
  timeout?: string | number;
  stateDir?: string;
  secretsDir?: string;
}

export interface CommandSettings {
  connection: ConnectionConfig;
  /** Flag, WSYNC_STATE_DIR or wsync.yaml; undefined leaves the command's own default. */
  stateDir?: string;
  secretsDir?: string;
  /** The environment with wsync.yaml's settings filled in underneath it. */
  env: Record<string, string | undefined>;
  /** wsync.yaml's notification targets (paths made absolute); only `run` uses them. */
  notifications?: WorkspaceConfig['notifications'];
  /** Why wsync.yaml's notification targets are not used (the tree is not trusted); `run` refuses to start on it. */
  notificationsRefused?: Diagnostic;
  /** The environment of wsync.yaml rendered (--env, WSYNC_ENV); undefined on a tree without environments. */
  environment?: string;
  /** wsync.yaml's freeze windows and the line of its `freeze` key; only `run` uses them. */
  freeze?: { windows: string[]; line: number };
}

export interface LayeredEnvironment {
  /** The environment with wsync.yaml's settings filled in underneath it (empty values dropped). */
  env: Record<string, string | undefined>;
  /** wsync.yaml's timeout, which has no environment variable. */
  timeoutMs?: number;
  notifications?: WorkspaceConfig['notifications'];
  /** Problems of wsync.yaml, naming its line and field. */
  diagnostics: Diagnostic[];
  /** wsync.yaml's own settings and where they are. */
  config: WorkspaceConfig;
  positions: WorkspaceConfigResult['positions'];
}

/** The environment over DIR/wsync.yaml; without a DIR (export writes one), the environment alone. */
export function layeredEnvironment(dir: string | undefined, env: Record<string, string | undefined>): LayeredEnvironment {
  const { config, diagnostics, positions } = dir === undefined ? { config: {}, diagnostics: [], positions: {} } : readWorkspaceConfig(dir);
  const merged: Record<string, string | undefined> = { ...configAsEnv(config) };
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') merged[key] = value;
  const layered: LayeredEnvironment = { env: merged, diagnostics, config, positions };
  if (config.timeoutMs !== undefined) layered.timeoutMs = config.timeoutMs;
  if (config.notifications !== undefined) layered.notifications = config.notifications;
  return layered;
}

/** The connection part of the flags, typed for resolveConnection (commander gives strings). */
function connectionFlagsOf(flags: SettingsFlags, timeoutFallback?: number): ConnectionFlags {
  const timeout = flags.timeout ?? timeoutFallback;
  return {
    url: flags.url,
    token: flags.token,
    tokenFile: flags.tokenFile,
    orgId: flags.orgId,
    insecure: flags.insecure,
    timeout: timeout === undefined ? undefined : Number(timeout),
  };
}

/** Flags, then environment, then DIR/wsync.yaml when DIR is given. Throws ConfigError. */
export function resolveSettings(
  dir: string | undefined,
  flags: SettingsFlags,
  env: Record<string, string | undefined>,
): CommandSettings {
  const layered = layeredEnvironment(dir, env);
  if (layered.diagnostics.length > 0) throw new ConfigError(layered.diagnostics.map(formatDiagnostic).join('\n'));
  const refused = untrustedRouting(layered.config, layered.positions, flags, env, dir);
  if (refused.length > 0) throw new ConfigError(sortDiagnostics(refused).map(formatDiagnostic).join('\n'));
  const merged = layered.env;
  const connection = resolveConnection(connectionFlagsOf(flags, layered.timeoutMs), merged);
  const settings: CommandSettings = { connection, env: merged };
  const environment = dir === undefined ? requestedEnvironment(flags, env) : chosenEnvironment(layered.config, requestedEnvironment(flags, env));
  if (environment !== undefined) settings.environment = environment;
  const notificationsRefused = untrustedNotifications(layered.config, layered.positions, flags, env);
  if (notificationsRefused) settings.notificationsRefused = notificationsRefused;
  else if (layered.notifications !== undefined) settings.notifications = layered.notifications;
  // Only narrows what the daemon does (it writes less): no trust needed, as with `insecure: false`.
  if (layered.config.freeze !== undefined) settings.freeze = { windows: layered.config.freeze, line: layered.positions.freeze?.line ?? 1 };
  const stateDir = flags.stateDir ?? merged.WSYNC_STATE_DIR;
  // Whatever names it (flag, variable, wsync.yaml), a state directory holds every environment's,
  // one folder each: two environments in one inventory would hand one's token secrets to the other.
  if (stateDir) settings.stateDir = environmentStateDir(stateDir, environment);
  const secretsDir = flags.secretsDir ?? merged.WSYNC_SECRETS_DIR;
  if (secretsDir) settings.secretsDir = secretsDir;
  return settings;
}
