import { Option, type Command } from 'commander';
import { DEFAULT_POLICY, type KindName, type Policy } from '../core/types.js';
import { parseKindName } from '../kinds/index.js';

export interface PolicyFlags {
  prune?: boolean | string[];
  pruneAll?: string[];
  maxDeletes?: string;
  maxDeleteRatio?: string;
  forceDeletes?: boolean;
  allowEmpty?: boolean;
  adopt?: boolean;
  mode?: string;
}

function collect(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? (previous as string[]) : []), value];
}

/** The safety flags of DESIGN.md, shared by plan (which shows what apply would refuse), apply and run. */
export function addPolicyOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--prune [all:KIND]', 'delete owned objects no longer declared; all:KIND also deletes unowned ones of KIND')
        .preset('true')
        .argParser(collect),
    )
    .option('--prune-all <KIND>', 'declare KIND authoritative (same as --prune=all:KIND); repeatable', collect)
    .option('--max-deletes <n>', 'refuse a plan deleting more objects than this', String(DEFAULT_POLICY.maxDeletes))
    .option(
      '--max-delete-ratio <r>',
      "refuse a plan deleting more than this share of a kind's live objects",
      String(DEFAULT_POLICY.maxDeleteRatio),
    )
    .option('--force-deletes', 'let a plan over the delete budget through', false)
    .option('--allow-empty', 'let a kind with owned objects be pruned to nothing', false)
    .option('--no-adopt', 'refuse instead of adopting unowned live objects that match a declared key');
}

export class PolicyFlagError extends Error {}

function parseKinds(values: string[]): KindName[] {
  return values.map((value) => {
    const kind = parseKindName(value);
    if (!kind) throw new PolicyFlagError(`--prune=all:${value}: unknown kind "${value}"`);
    return kind;
  });
}

function parseNumber(text: string | undefined, flag: string, fallback: number, max?: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (max !== undefined && n > max)) {
    throw new PolicyFlagError(`${flag}: "${text}" is not a number from 0${max !== undefined ? ` to ${max}` : ''}`);
  }
  return n;
}

export function policyFromFlags(flags: PolicyFlags, mode: Policy['mode'] = 'enforce'): Policy {
  const pruneValues = Array.isArray(flags.prune) ? flags.prune : [];
  const pruneAllSpecs = pruneValues.filter((v) => v.startsWith('all:')).map((v) => v.slice(4));
  const other = pruneValues.filter((v) => !v.startsWith('all:') && v !== 'true');
  if (other.length > 0) throw new PolicyFlagError(`--prune=${other[0]}: expected --prune or --prune=all:KIND`);
  return {
    prune: flags.prune !== undefined && flags.prune !== false,
    pruneAll: [...new Set(parseKinds([...pruneAllSpecs, ...(flags.pruneAll ?? [])]))],
    maxDeletes: Math.floor(parseNumber(flags.maxDeletes, '--max-deletes', DEFAULT_POLICY.maxDeletes)),
    maxDeleteRatio: parseNumber(flags.maxDeleteRatio, '--max-delete-ratio', DEFAULT_POLICY.maxDeleteRatio, 1),
    allowOverBudget: flags.forceDeletes === true,
    allowEmpty: flags.allowEmpty === true,
    adopt: flags.adopt !== false,
    mode,
  };
}
