// A subset of the files to plan and apply (`--target KIND/NAME`, `--kind KIND`), as every peer offers
// (Terraform -target, grizzly -t, Argo CD selective sync). References of a selected resource are
// still checked; one to a declared resource that is neither selected nor live cannot be applied
// alone and is an error. Prune never runs on a subset: nothing outside it is deleted.
import type { DesiredResource, Diagnostic, KindName } from '../core/types.js';

export interface TargetPattern {
  kind: KindName;
  /** The name (or natural key) pattern: `*` any run of characters, `?` one. */
  name: string;
  /** As written, for messages. */
  text: string;
}

export interface Selection {
  targets: readonly TargetPattern[];
  kinds: readonly KindName[];
}

function globRegExp(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 'su');
}

function matchesTarget(target: TargetPattern, resource: Pick<DesiredResource, 'kind' | 'name' | 'key'>): boolean {
  if (target.kind !== resource.kind) return false;
  const re = globRegExp(target.name);
  return re.test(resource.name) || re.test(resource.key);
}

/** Whether the selection takes this resource: its kind is selected, or a target matches it. */
export function isSelected(selection: Selection, resource: Pick<DesiredResource, 'kind' | 'name' | 'key'>): boolean {
  return selection.kinds.includes(resource.kind) || selection.targets.some((t) => matchesTarget(t, resource));
}

/** Targets and kinds that select nothing the files declare: a typo must not plan "no changes". */
export function unmatchedSelection(selection: Selection, resources: readonly DesiredResource[]): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const target of selection.targets) {
    if (resources.some((r) => matchesTarget(target, r))) continue;
    problems.push({ severity: 'error', code: 'selection', message: `--target ${target.text} matches no declared resource` });
  }
  for (const kind of selection.kinds) {
    if (resources.some((r) => r.kind === kind)) continue;
    problems.push({ severity: 'error', code: 'selection', message: `--kind ${kind}: no ${kind} is declared` });
  }
  return problems;
}
