// Where the API is and how to authenticate: the connection flags, then the environment.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ConfigError } from '../api/errors.js';
import { constantToken, ownCredential, tokenFileReader } from '../api/token-source.js';
import type { ConnectionConfig } from '../api/types.js';
import { parseApiUrl } from '../api/url.js';
import { EMPTY_SECRET } from '../source/interpolate/interpolate.js';

export interface ConnectionFlags {
  url?: string;
  token?: string;
  tokenFile?: string;
  orgId?: string;
  insecure?: boolean;
  /** Per-attempt timeout in milliseconds. */
  timeout?: number;
}

/** Adds the connection flags to a command, so plan, apply, run and export share them. */
export function addConnectionOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--url <url>', 'API root, e.g. https://api.axiom.co (env WSYNC_URL)'))
    .addOption(new Option('--token <token>', 'API token (env WSYNC_TOKEN); prefer --token-file'))
    .addOption(new Option('--token-file <path>', 'file holding the API token, re-read when it changes (env WSYNC_TOKEN_FILE)'))
    .addOption(new Option('--org-id <id>', 'organization id sent as X-Axiom-Org-Id, for personal tokens (env WSYNC_ORG_ID)'))
    .addOption(new Option('--insecure', 'allow plain http:// to a host that is not loopback (env WSYNC_INSECURE=1)'))
    .addOption(new Option('--timeout <ms>', 'timeout of each HTTP attempt in milliseconds (default 30000)').argParser(parseTimeout));
}

/** For commands that read DIR/wsync.yaml: let its url, orgId, tokenFile and insecure count (config-trust.ts). */
export function addTrustConfigOption(cmd: Command): Command {
  return cmd.addOption(
    new Option('--trust-config', "use DIR/wsync.yaml's url, orgId, tokenFile and insecure; never where a pull request's files are planned (env WSYNC_TRUST_CONFIG=1)"),
  );
}

function parseTimeout(value: string): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0) throw new InvalidArgumentError('expected a positive number of milliseconds');
  return ms;
}

/**
 * Flags, then environment (WSYNC_URL, WSYNC_TOKEN, WSYNC_TOKEN_FILE, WSYNC_ORG_ID, WSYNC_INSECURE=1).
 * Throws ConfigError with a message that says what to set.
 */
export function resolveConnection(flags: ConnectionFlags, env: Record<string, string | undefined>): ConnectionConfig {
  const url = nonEmpty(flags.url) ?? nonEmpty(env.WSYNC_URL);
  if (url === undefined) throw new ConfigError('no API URL: set --url or WSYNC_URL');
  const insecure = flags.insecure === true || isTrue(env.WSYNC_INSECURE);
  parseApiUrl(url, insecure);

  const config: ConnectionConfig = { url, token: tokenSource(flags, env) };
  const orgId = nonEmpty(flags.orgId) ?? nonEmpty(env.WSYNC_ORG_ID);
  if (orgId !== undefined) config.orgId = orgId;
  if (insecure) config.insecure = true;
  if (flags.timeout !== undefined) {
    if (!Number.isFinite(flags.timeout) || flags.timeout <= 0) {
      throw new ConfigError('--timeout must be a positive number of milliseconds');
    }
    config.timeoutMs = flags.timeout;
  }
  return config;
}

/** The API token, recorded as wsync's own credential (never a value of a resource). */
function tokenSource(flags: ConnectionFlags, env: Record<string, string | undefined>): () => string {
  const flagToken = nonEmpty(flags.token);
  const flagFile = nonEmpty(flags.tokenFile);
  if (flagToken !== undefined && flagFile !== undefined) {
    throw new ConfigError('use either --token or --token-file, not both');
  }
  const what = 'the API token';
  if (flagToken !== undefined) return ownCredential(what, constantToken(flagToken));
  if (flagFile !== undefined) return ownCredential(what, tokenFileReader(flagFile, '--token-file'), flagFile);
  const envToken = nonEmpty(env.WSYNC_TOKEN);
  if (envToken !== undefined) return ownCredential(what, constantToken(envToken));
  const envFile = nonEmpty(env.WSYNC_TOKEN_FILE);
  if (envFile !== undefined) return ownCredential(what, tokenFileReader(envFile, 'WSYNC_TOKEN_FILE'), envFile);
  const empty = ['WSYNC_TOKEN', 'WSYNC_TOKEN_FILE'].filter((name) => env[name] !== undefined);
  const why = empty.length === 0 ? '' : ` (${empty.join(' and ')} ${empty.length === 1 ? 'is' : 'are'} set but empty: ${EMPTY_SECRET})`;
  throw new ConfigError(`no API token${why}: set --token, --token-file, WSYNC_TOKEN or WSYNC_TOKEN_FILE`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes'].includes(value.trim().toLowerCase());
}
