// `wsync run --env A --env B` / `--all-environments`: which environments one daemon syncs, and each
// one's own connection. The URL, org id and token of an environment come from its own variables
// (WSYNC_URL_PROD, WSYNC_TOKEN_FILE_PROD, ...), then the flags and the shared variables; never
// from the tree's wsync.yaml (unless trusted, as for one environment: config-trust.ts).
import { ConfigError } from '../../../api/errors.js';
import { declaredEnvironments } from '../../../source/environments/declared.js';
import { layeredEnvironment } from '../../settings.js';
import type { RunFlags } from './command.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What `--env` (repeatable), `--all-environments` and WSYNC_ENV ask `run` for. */
export interface EnvironmentSelection {
  requested: string[];
  all: boolean;
}

/** The connection variables each environment may have its own of: `NAME_<SUFFIX>`. */
export const PER_ENVIRONMENT_VARIABLES = ['WSYNC_URL', 'WSYNC_TOKEN', 'WSYNC_TOKEN_FILE', 'WSYNC_ORG_ID'] as const;

/** The suffix of an environment's own variables: its name in capitals, anything but A-Z and 0-9 as `_` (prod-eu: PROD_EU). */
export function variableSuffix(environment: string): string {
  return environment.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** The selection from the flags, else from WSYNC_ENV (names split by ","), else WSYNC_ALL_ENVIRONMENTS=1. */
export function selectionOf(flagEnvs: readonly string[] | undefined, allFlag: boolean | undefined, env: Env): EnvironmentSelection {
  const fromEnv = (env.WSYNC_ENV ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');
  const requested = flagEnvs !== undefined && flagEnvs.length > 0 ? [...flagEnvs] : fromEnv;
  const all = allFlag === true || ['1', 'true', 'yes'].includes((env.WSYNC_ALL_ENVIRONMENTS ?? '').trim().toLowerCase());
  if (all && requested.length > 0 && flagEnvs !== undefined && flagEnvs.length > 0) throw new ConfigError('use either --env or --all-environments, not both');
  return { requested: all ? [] : [...new Set(requested)], all };
}

/** The environments to sync: every declared one (--all-environments) or those asked for. */
export function selectedEnvironments(dir: string, selection: EnvironmentSelection, env: Env): string[] {
  if (!selection.all) return selection.requested;
  const names = declaredEnvironments(layeredEnvironment(dir, { ...env }).config).map((e) => e.name);
  if (names.length === 0) throw new ConfigError('--all-environments: wsync.yaml declares no environments');
  return names;
}

/** Refuses two environments whose names give the same variable suffix (eu-west and eu_west). */
export function checkSuffixes(names: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const name of names) {
    const suffix = variableSuffix(name);
    const other = seen.get(suffix);
    if (other !== undefined) throw new ConfigError(`environments ${other} and ${name} would share the variables WSYNC_URL_${suffix}, WSYNC_TOKEN_FILE_${suffix}, ...: rename one`);
    seen.set(suffix, name);
  }
}

/**
 * One environment's view of the flags and the process environment: its own variables in place of
 * the shared ones (and of the flags they settle), its state directory a folder of the shared one.
 * Throws ConfigError when the environment has no connection variable of its own: two workspaces
 * sharing one connection would fight over one workspace.
 */
export function environmentView(name: string, flags: RunFlags, env: Env): { flags: RunFlags; env: Record<string, string | undefined> } {
  const suffix = variableSuffix(name);
  const own = (variable: string): string | undefined => {
    const value = env[`${variable}_${suffix}`];
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  if (PER_ENVIRONMENT_VARIABLES.every((v) => own(v) === undefined)) {
    const names = PER_ENVIRONMENT_VARIABLES.map((v) => `${v}_${suffix}`).join(', ');
    throw new ConfigError(`environment ${name}: no connection of its own; set ${names} (those not set are taken from the flags and WSYNC_URL, WSYNC_TOKEN_FILE, ...)`);
  }
  const viewEnv: Record<string, string | undefined> = { ...env, WSYNC_ENV: name };
  const viewFlags: RunFlags = { ...flags, env: name };
  if (own('WSYNC_URL') !== undefined) {
    viewEnv.WSYNC_URL = own('WSYNC_URL');
    delete viewFlags.url;
  }
  if (own('WSYNC_ORG_ID') !== undefined) {
    viewEnv.WSYNC_ORG_ID = own('WSYNC_ORG_ID');
    delete viewFlags.orgId;
  }
  if (own('WSYNC_TOKEN') !== undefined || own('WSYNC_TOKEN_FILE') !== undefined) {
    viewEnv.WSYNC_TOKEN = own('WSYNC_TOKEN');
    viewEnv.WSYNC_TOKEN_FILE = own('WSYNC_TOKEN_FILE');
    delete viewFlags.token;
    delete viewFlags.tokenFile;
  }
  // A shared state directory (flag or variable) gets the environment's folder where every command's settings are resolved.
  return { flags: viewFlags, env: viewEnv };
}
