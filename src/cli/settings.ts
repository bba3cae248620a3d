import { ConfigError, resolveConnection, type ConnectionFlags } from '../api/connection.js';
import type { ConnectionConfig } from '../api/types.js';
import { formatDiagnostic } from '../core/diagnostics.js';
import { configAsEnv, readWorkspaceConfig } from '../source/config.js';

/** The flags every command that talks to the API shares (strings as commander hands them over). */
export interface SettingsFlags {
  url?: string;
  token?: string;
  tokenFile?: string;
  orgId?: string;
  insecure?: boolean;
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
}

/** The connection part of the flags, typed for resolveConnection (commander gives strings). */
export function connectionFlagsOf(flags: SettingsFlags, timeoutFallback?: number): ConnectionFlags {
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

/** Flags, then environment, then DIR/wsync.yaml (DESIGN.md "Configuration"). Throws ConfigError. */
export function resolveSettings(dir: string, flags: SettingsFlags, env: Record<string, string | undefined>): CommandSettings {
  const { config, diagnostics } = readWorkspaceConfig(dir);
  if (diagnostics.length > 0) throw new ConfigError(diagnostics.map(formatDiagnostic).join('\n'));
  const merged: Record<string, string | undefined> = { ...configAsEnv(config) };
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') merged[key] = value;
  const connection = resolveConnection(connectionFlagsOf(flags, config.timeoutMs), merged);
  const settings: CommandSettings = { connection, env: merged };
  const stateDir = flags.stateDir ?? merged.WSYNC_STATE_DIR;
  if (stateDir) settings.stateDir = stateDir;
  const secretsDir = flags.secretsDir ?? merged.WSYNC_SECRETS_DIR;
  if (secretsDir) settings.secretsDir = secretsDir;
  return settings;
}
