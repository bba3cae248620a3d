// DIR/wsync.yaml is part of the tree, and a pull request's author controls the tree: were its `url`
// trusted, `wsync plan` in CI would send the workspace token to whatever server the PR names. So
// the settings that decide where the token goes, over what, for which organization and which token
// it is come from flags and the environment; the file's value is refused unless one of those sets
// the same setting (then it wins and the file's is unused), or the operator says the tree is
// trusted (--trust-config, WSYNC_TRUST_CONFIG=1: a daemon on a reviewed branch, a laptop).
// The same holds for what leaves the machine or is read from it on the file's word: a secrets
// directory outside the tree, and the daemon's notification targets (where events go, which local
// files and variables hold their URLs and keys).
import { isAbsolute, relative, resolve } from 'node:path';
import type { Diagnostic } from '../core/types.js';
import type { WorkspaceConfig } from '../generated/spec-types.js';
import { CONFIG_FILE } from '../source/config.js';
import type { ConnectionFlags } from './connection.js';

/** What the command line and the environment say, as far as trust goes. */
export type TrustedSources = Pick<ConnectionFlags, 'url' | 'token' | 'tokenFile' | 'orgId' | 'insecure'> & { trustConfig?: boolean; secretsDir?: string };

type RoutingKey = 'url' | 'orgId' | 'tokenFile' | 'insecure' | 'secretsDir';

interface RoutingSetting {
  key: RoutingKey;
  /** Whether a flag or the environment settles this setting (so the file's value is not used). */
  settledBy: (flags: TrustedSources, env: Record<string, string | undefined>) => boolean;
  /** What refusing the file's value means, and what to set instead. */
  refusal: string;
  /** A value that is harmless whoever wrote it (default: only absent and `false`); `treeDir` holds wsync.yaml. */
  harmless?: (value: unknown, treeDir: string | undefined) => boolean;
}

const WHY = 'which is part of the tree (a pull request can change it)';
const TRUST = 'or pass --trust-config (WSYNC_TRUST_CONFIG=1) where the tree is trusted';

const ROUTING: readonly RoutingSetting[] = [
  {
    key: 'url',
    settledBy: (f, env) => given(f.url) || given(env.WSYNC_URL),
    refusal: `the API URL is named only by ${CONFIG_FILE}, ${WHY}, so the token is not sent there: set --url or WSYNC_URL, ${TRUST}`,
  },
  {
    key: 'tokenFile',
    settledBy: (f, env) => given(f.token) || given(f.tokenFile) || given(env.WSYNC_TOKEN) || given(env.WSYNC_TOKEN_FILE),
    refusal: `the token file is named only by ${CONFIG_FILE}, ${WHY}, so no token is read from it: set --token-file or WSYNC_TOKEN_FILE, ${TRUST}`,
  },
  {
    key: 'orgId',
    settledBy: (f, env) => given(f.orgId) || given(env.WSYNC_ORG_ID),
    refusal: `the organization is named only by ${CONFIG_FILE}, ${WHY}, so the token is not used for it: set --org-id or WSYNC_ORG_ID, ${TRUST}`,
  },
  {
    key: 'insecure',
    settledBy: (f, env) => f.insecure === true || given(env.WSYNC_INSECURE),
    refusal: `plain http is allowed only by ${CONFIG_FILE}, ${WHY}, so the token is not sent unencrypted on its word: pass --insecure or set WSYNC_INSECURE=1, ${TRUST}`,
  },
  {
    key: 'secretsDir',
    settledBy: (f, env) => given(f.secretsDir) || given(env.WSYNC_SECRETS_DIR),
    refusal: `a secrets directory outside the tree is named only by ${CONFIG_FILE}, ${WHY}, so no \${file:} secret is read from it: set --secrets-dir or WSYNC_SECRETS_DIR, ${TRUST}`,
    // Inside the tree, the files are the tree's own: the change shows them to its reviewer.
    harmless: (value, treeDir) => typeof value === 'string' && treeDir !== undefined && isWithin(resolve(treeDir), resolve(treeDir, value)),
  },
];

/** Whether the environment tells wsync to trust DIR/wsync.yaml's connection settings. */
export function trustsConfig(flags: TrustedSources, env: Record<string, string | undefined>): boolean {
  return flags.trustConfig === true || ['1', 'true', 'yes'].includes((env.WSYNC_TRUST_CONFIG ?? '').trim().toLowerCase());
}

/**
 * The refusals of the file's token-routing settings that neither a flag nor the environment
 * settles: one error per setting, naming its line. Empty when the file is trusted.
 */
export function untrustedRouting(
  config: WorkspaceConfig,
  positions: Partial<Record<keyof WorkspaceConfig, { line: number; column: number }>>,
  flags: TrustedSources,
  env: Record<string, string | undefined>,
  /** The directory of wsync.yaml (a path the file names inside it is the tree's own). */
  treeDir?: string,
): Diagnostic[] {
  if (trustsConfig(flags, env)) return [];
  const problems: Diagnostic[] = [];
  for (const setting of ROUTING) {
    const value = config[setting.key];
    // `insecure: false` only narrows what is allowed: harmless whoever wrote it.
    if (value === undefined || value === false || setting.harmless?.(value, treeDir) === true || setting.settledBy(flags, env)) continue;
    const at = positions[setting.key] ?? { line: 1, column: 1 };
    problems.push({ severity: 'error', code: 'config', file: CONFIG_FILE, ...at, field: setting.key, message: `${setting.key}: ${setting.refusal}` });
  }
  return problems;
}

/**
 * The refusal of the file's notification targets, for the daemon (the only command that sends
 * them): undefined when there are none or the tree is trusted. Flags and the environment
 * (--notify-webhook, --notify-slack-url-file) name targets without trust.
 */
export function untrustedNotifications(
  config: WorkspaceConfig,
  positions: Partial<Record<keyof WorkspaceConfig, { line: number; column: number }>>,
  flags: TrustedSources,
  env: Record<string, string | undefined>,
): Diagnostic | undefined {
  if ((config.notifications?.targets ?? []).length === 0 || trustsConfig(flags, env)) return undefined;
  const at = positions.notifications ?? { line: 1, column: 1 };
  const message =
    `notifications: targets named only by ${CONFIG_FILE}, ${WHY}, would send the workspace's events where the change says ` +
    `and read the files and variables it names: use --notify-webhook / --notify-slack-url-file (or their WSYNC_NOTIFY_* variables), ${TRUST}`;
  return { severity: 'error', code: 'config', file: CONFIG_FILE, ...at, field: 'notifications', message };
}

/** Whether `path` is `dir` or below it (both absolute; by their names, as the tree's files are reviewed by name). */
function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function given(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}
