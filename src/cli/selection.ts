// `--target KIND/NAME` (repeatable, `*` and `?` allowed in NAME) and `--kind KIND` (repeatable):
// plan and apply a subset of the files (src/plan/selection.ts).
import type { Command } from 'commander';
import type { KindName } from '../core/types.js';
import { KIND_NAMES, parseKindName } from '../kinds/index.js';
import type { Selection, TargetPattern } from '../plan/index.js';
import { collect, PolicyFlagError } from './policy.js';

export interface SelectionFlags {
  target?: string[];
  kind?: string[];
}

/** `verb` says what the command does to the subset: plan (and apply), pull. */
export function addSelectionOptions(cmd: Command, verb = 'plan'): Command {
  return cmd
    .option('--target <KIND/NAME>', `${verb} only this resource (NAME may hold * and ?); repeatable; references are still checked, nothing is pruned`, collect)
    .option('--kind <KIND>', `${verb} only the resources of this kind; repeatable (--kinds A,B too)`, collect);
}

/**
 * `--kinds A,B` (and `--kinds=A,B`) is `--kind A --kind B`: one spelling for every command that
 * takes kinds, the other accepted. Rewritten before commander parses, like --prune=all:KIND.
 */
export function expandKindLists(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const inline = /^--kinds=(.*)$/s.exec(arg);
    if (arg !== '--kinds' && !inline) {
      out.push(arg);
      continue;
    }
    const list = inline ? inline[1]! : argv[++i];
    if (list === undefined) throw new PolicyFlagError('--kinds: name at least one kind, e.g. --kinds Monitor,Notifier');
    const kinds = list.split(',').map((part) => part.trim()).filter((part) => part !== '');
    if (kinds.length === 0) throw new PolicyFlagError('--kinds: name at least one kind, e.g. --kinds Monitor,Notifier');
    for (const kind of kinds) out.push('--kind', kind);
  }
  return out;
}

function kindOf(text: string, flag: string): KindName {
  const kind = parseKindName(text);
  if (kind === undefined) throw new PolicyFlagError(`${flag}: "${text}" is not a kind (${KIND_NAMES.join(', ')})`);
  return kind;
}

/** The selection the flags make, or undefined for everything. Throws PolicyFlagError. */
export function selectionFromFlags(flags: SelectionFlags): Selection | undefined {
  if (!flags.target?.length && !flags.kind?.length) return undefined;
  const targets: TargetPattern[] = (flags.target ?? []).map((text) => {
    const slash = text.indexOf('/');
    if (slash <= 0 || slash === text.length - 1) throw new PolicyFlagError(`--target: "${text}" is not KIND/NAME (e.g. Monitor/checkout-errors, Notifier/oncall-*)`);
    return { kind: kindOf(text.slice(0, slash), '--target'), name: text.slice(slash + 1), text };
  });
  return { targets, kinds: (flags.kind ?? []).map((text) => kindOf(text, '--kind')) };
}

/** One line saying what a subset leaves out, for stderr. */
export function selectionNote(selection: Selection): string {
  const what = [...selection.targets.map((t) => `--target ${t.text}`), ...selection.kinds.map((k) => `--kind ${k}`)].join(' ');
  return `a subset of the files (${what}): nothing else is planned, and nothing is pruned`;
}
