// DIR/wsync.yaml is part of the tree, and a pull request's author controls the tree: were its `url`
// trusted, `wsync plan` in CI would send the workspace token to whatever server the PR names. So
// the settings that decide where the token goes, over what, for which organization and which token
// it is come from flags and the environment; the file's value is refused unless one of those sets
// the same setting (then it wins and the file's is unused), or the operator says the tree is
// trusted (--trust-config, WSYNC_TRUST_CONFIG=1: a daemon on a reviewed branch, a laptop).
import type { Diagnostic } from '../core/types.js';
import type { WorkspaceConfig } from '../generated/spec-types.js';
import { CONFIG_FILE } from '../source/config.js';
import type { ConnectionFlags } from './connection.js';

/** What the command line and the environment say, as far as trust goes. */
export type TrustedSources = Pick<ConnectionFlags, 'url' | 'token' | 'tokenFile' | 'orgId' | 'insecure'> & { trustConfig?: boolean };

type RoutingKey = 'url' | 'orgId' | 'tokenFile' | 'insecure';

interface RoutingSetting {
  key: RoutingKey;
  /** Whether a flag or the environment settles this setting (so the file's value is not used). */
  settledBy: (flags: TrustedSources, env: Record<string, string | undefined>) => boolean;
  /** What refusing the file's value means, and what to set instead. */
  refusal: string;
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
): Diagnostic[] {
  if (trustsConfig(flags, env)) return [];
  const problems: Diagnostic[] = [];
  for (const setting of ROUTING) {
    const value = config[setting.key];
    // `insecure: false` only narrows what is allowed: harmless whoever wrote it.
    if (value === undefined || value === false || setting.settledBy(flags, env)) continue;
    const at = positions[setting.key] ?? { line: 1, column: 1 };
    problems.push({ severity: 'error', code: 'config', file: CONFIG_FILE, ...at, field: setting.key, message: `${setting.key}: ${setting.refusal}` });
  }
  return problems;
}

function given(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}
