import type { Command } from 'commander';
import { formatDuration, parseDuration } from '../core/duration.js';
import { DEFAULT_POLICY, DEFAULT_ROTATION_GRACE_MS, type KindName, type Policy } from '../core/types.js';
import { KIND_NAMES, KINDS, parseKindName } from '../kinds/index.js';

export interface PolicyFlags {
  prune?: boolean;
  pruneAll?: string[];
  allowDelete?: string[];
  allowDataLoss?: string[];
  maxDeletes?: string;
  maxDeleteRatio?: string;
  forceDeletes?: boolean;
  allowEmpty?: boolean;
  adopt?: boolean;
  mode?: string;
  tokenRotationGrace?: string;
  allowSelfLockout?: boolean;
  selfTokenId?: string;
}

/** commander: a repeatable option's values, in order. */
export function collect(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? (previous as string[]) : []), value];
}

/** The safety flags of docs/design.md, shared by plan (which shows what apply would refuse), apply and run. */
export function addPolicyOptions(cmd: Command): Command {
  return cmd
    .option('--prune', 'delete owned objects that are no longer declared', false)
    .option(
      '--prune-all <KIND>',
      'declare KIND authoritative: also delete its unowned objects that are not declared (spelled --prune=all:KIND too); repeatable',
      collect,
    )
    .option('--max-deletes <n>', 'hold every delete of a plan deleting more objects than this', String(DEFAULT_POLICY.maxDeletes))
    .option(
      '--max-delete-ratio <r>',
      "hold the deletes of a kind when they are more than this share of its live objects (a kind of 5 or fewer owned objects may lose one)",
      String(DEFAULT_POLICY.maxDeleteRatio),
    )
    .option('--force-deletes', 'let a plan over the delete budget through', false)
    .option('--allow-empty', 'let a kind with owned objects be pruned to nothing', false)
    .option(
      '--allow-delete <KIND>',
      'let prune delete objects of KIND, a kind whose deletion destroys more than the object (Dataset: all of its data); repeatable',
      collect,
    )
    .option(
      '--allow-data-loss <KIND>',
      'let an update of KIND that destroys data go through (Dataset: a lowered retention deletes older events); repeatable',
      collect,
    )
    .option('--no-adopt', 'refuse instead of adopting unowned live objects that match a declared key')
    .option(
      '--token-rotation-grace <duration>',
      'how long the old API token keeps working after a regenerate, e.g. 48h, 1h30m, 0s (annotation wsync/rotation-grace overrides it)',
      formatDuration(DEFAULT_ROTATION_GRACE_MS),
    )
    .option(
      '--self-token-id <id>',
      'the id of the API token wsync runs with, when it did not create it: never deleted or regenerated (see --allow-self-lockout)',
    )
    .option(
      '--allow-self-lockout',
      "let a plan delete or regenerate wsync's own API token, demote or delete the user it runs as, or leave no owner",
      false,
    );
}

export class PolicyFlagError extends Error {}

/**
 * `--prune=all:KIND` (docs/design.md's spelling) becomes `--prune --prune-all KIND` before commander
 * parses: an option with an optional value would swallow the DIR in `apply --prune DIR`.
 */
export function expandPruneSpellings(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    const match = /^--prune=(.*)$/.exec(arg);
    if (!match) {
      out.push(arg);
      continue;
    }
    const value = match[1] ?? '';
    if (value.startsWith('all:')) out.push('--prune', '--prune-all', value.slice(4));
    else if (value === 'true') out.push('--prune');
    else throw new PolicyFlagError(`--prune=${value}: expected --prune or --prune=all:KIND`);
  }
  return out;
}

function parseKinds(values: string[], flag = '--prune-all'): KindName[] {
  return values.map((value) => {
    const kind = parseKindName(value);
    if (!kind) throw new PolicyFlagError(`${flag} ${value}: unknown kind "${value}"`);
    const serviceMade = KINDS[kind].serviceMade;
    if (flag === '--prune-all' && serviceMade !== undefined) throw new PolicyFlagError(`--prune=all:${kind} is not allowed: ${serviceMade}`);
    return kind;
  });
}

/** Kinds named by --allow-delete: only kinds whose deletion needs the opt-in (a typo must not pass silently). */
function parseDeletionOptIns(values: string[]): KindName[] {
  const kinds = [...new Set(parseKinds(values, '--allow-delete'))];
  for (const kind of kinds) {
    if (KINDS[kind].deletionOptIn === undefined) {
      const needing = KIND_NAMES.filter((k) => KINDS[k].deletionOptIn !== undefined).join(', ');
      throw new PolicyFlagError(`--allow-delete ${kind}: deleting a ${kind} needs no opt-in (--prune is enough); kinds that need one: ${needing}`);
    }
  }
  return kinds;
}

/** Kinds named by --allow-data-loss: only kinds with updates that destroy data (a typo must not pass silently). */
function parseDataLossOptIns(values: string[]): KindName[] {
  const kinds = [...new Set(parseKinds(values, '--allow-data-loss'))];
  for (const kind of kinds) {
    if (KINDS[kind].dataLoss === undefined) {
      const having = KIND_NAMES.filter((k) => KINDS[k].dataLoss !== undefined).join(', ');
      throw new PolicyFlagError(`--allow-data-loss ${kind}: no update of a ${kind} destroys data; kinds whose updates can: ${having}`);
    }
  }
  return kinds;
}

function parseNumber(text: string | undefined, flag: string, fallback: number, max?: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (max !== undefined && n > max)) {
    throw new PolicyFlagError(`${flag}: "${text}" is not a number from 0${max !== undefined ? ` to ${max}` : ''}`);
  }
  return n;
}

function parseGrace(text: string | undefined): number {
  if (text === undefined) return DEFAULT_ROTATION_GRACE_MS;
  const ms = parseDuration(text);
  if (ms === undefined) throw new PolicyFlagError(`--token-rotation-grace: "${text}" is not a duration such as 24h, 1h30m, 90m or 0s`);
  return ms;
}

export function policyFromFlags(flags: PolicyFlags, mode: Policy['mode'] = 'enforce'): Policy {
  const pruneAll = [...new Set(parseKinds(flags.pruneAll ?? []))];
  return {
    // An authoritative kind is pruned, so --prune-all implies --prune.
    prune: flags.prune === true || pruneAll.length > 0,
    pruneAll,
    maxDeletes: Math.floor(parseNumber(flags.maxDeletes, '--max-deletes', DEFAULT_POLICY.maxDeletes)),
    maxDeleteRatio: parseNumber(flags.maxDeleteRatio, '--max-delete-ratio', DEFAULT_POLICY.maxDeleteRatio, 1),
    allowOverBudget: flags.forceDeletes === true,
    allowEmpty: flags.allowEmpty === true,
    adopt: flags.adopt !== false,
    mode,
    allowDeletion: parseDeletionOptIns(flags.allowDelete ?? []),
    allowDataLoss: parseDataLossOptIns(flags.allowDataLoss ?? []),
    rotationGraceMs: parseGrace(flags.tokenRotationGrace),
    ...(flags.allowSelfLockout === true ? { allowSelfLockout: true } : {}),
    ...(flags.selfTokenId !== undefined && flags.selfTokenId.trim() !== '' ? { selfTokenId: flags.selfTokenId.trim() } : {}),
  };
}
