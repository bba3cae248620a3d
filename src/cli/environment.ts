// `--env NAME` (WSYNC_ENV): which environment of wsync.yaml a command renders, and where its state lives.
import { join } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../api/errors.js';
import { declaredEnvironments } from '../source/environments/declared.js';
import { environmentChoiceProblem } from '../source/environments/render.js';
import type { WorkspaceConfig } from '../generated/spec-types.js';

export interface EnvironmentFlags {
  env?: string;
}

export function addEnvironmentOption(cmd: Command, what = 'the environment of wsync.yaml to use: its vars and the overlays in environments/NAME/ (env WSYNC_ENV); needed when wsync.yaml declares environments'): Command {
  return cmd.option('--env <name>', what);
}

/** The environment the flag or WSYNC_ENV names, if any. */
export function requestedEnvironment(flags: EnvironmentFlags, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const requested = flags.env ?? env.WSYNC_ENV;
  return requested === undefined || requested === '' ? undefined : requested;
}

/**
 * The environment a command renders: the one asked for, which the config must declare; none when
 * the config declares none. Throws ConfigError naming the environments otherwise.
 */
export function chosenEnvironment(config: WorkspaceConfig, requested: string | undefined): string | undefined {
  const problem = environmentChoiceProblem(declaredEnvironments(config), requested);
  if (problem !== undefined) throw new ConfigError(problem);
  return requested;
}

/** An environment's own state directory under `base` (DIR/.wsync/NAME): inventories and leases never mix. */
export function environmentStateDir(base: string, environment: string | undefined): string {
  return environment === undefined ? base : join(base, environment);
}
