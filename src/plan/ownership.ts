// What wsync owns, what prune may delete, and the safety rules that hold deletes back.
import type { Change, Inventory, InventoryEntry, KindName, Policy } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import type { PlanMemo } from './plan-memo.js';

export class Ownership {
  /** Kind, then id: no key string is built per lookup (the planner asks for every live object). */
  private readonly byKind = new Map<KindName, Map<string, InventoryEntry>>();

  constructor(inventory: Inventory) {
    for (const entry of inventory.entries) {
      let byId = this.byKind.get(entry.kind);
      if (!byId) this.byKind.set(entry.kind, (byId = new Map()));
      byId.set(entry.id, entry);
    }
  }

  /** The inventory entry of a live object, when wsync created or adopted it. */
  entryFor(kind: KindName, id: string): InventoryEntry | undefined {
    return this.byKind.get(kind)?.get(id);
  }
}

/** The ownership of `inventory`, the memo's when its entries are the very ones of the last plan. */
export function ownershipOf(inventory: Inventory, memo: PlanMemo | undefined): Ownership {
  if (memo?.lastOwnership?.entries === inventory.entries) return memo.lastOwnership.ownership;
  const ownership = new Ownership(inventory);
  if (memo) memo.lastOwnership = { entries: inventory.entries, ownership };
  return ownership;
}

/** Why an undeclared live object is deleted, or undefined when it is left alone. */
export function pruneReason(kind: KindName, entry: InventoryEntry | undefined, policy: Policy): string | undefined {
  if (!KINDS[kind].remove) return undefined;
  // A kind the service also makes objects of is never authoritative (the CLI refuses it too).
  const authoritative = policy.pruneAll.includes(kind) && KINDS[kind].serviceMade === undefined;
  if (entry) {
    if (entry.pruneDisabled) return undefined;
    if (policy.prune || authoritative) return 'owned by wsync and no longer declared';
    return undefined;
  }
  return authoritative ? `not declared and ${kind} is authoritative (--prune=all:${kind})` : undefined;
}

/** Why prune must leave an object of this kind alone: its deletion needs an opt-in that was not given. */
export function missingDeletionOptIn(module: KindModule, policy: Policy): string | undefined {
  if (module.deletionOptIn === undefined || (policy.allowDeletion ?? []).includes(module.kind)) return undefined;
  return module.deletionOptIn;
}

export interface SafetyInput {
  changes: Change[];
  policy: Policy;
  /** What the rules weigh the deletes against: counted only for a plan that deletes (most plans do not). */
  counts: () => SafetyCounts;
}

export interface SafetyCounts {
  /** Live objects per kind (all of them, owned or not): the base of the delete ratio. */
  liveCount: ReadonlyMap<KindName, number>;
  /** Declared resources per kind. */
  desiredCount: ReadonlyMap<KindName, number>;
  /** Owned live objects per kind. */
  ownedCount: ReadonlyMap<KindName, number>;
}

/**
 * A kind with at most this many owned objects may lose one per plan whatever the ratio: 1 of 3
 * notifiers is 33 %, and nothing in it says "mistake" (Argo CD and Flux have no ratio at all).
 * The absolute budget (--max-deletes) still counts it.
 */
export const SMALL_KIND = 5;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The delete budget and the empty-set rule. Deletes they forbid become `refused` (in place, so the
 * plan still shows everything: "held" to people) and each violated rule adds one sentence to the
 * refusals. Apply carries out the rest of the plan and holds these.
 */
export function applySafetyRules(input: SafetyInput): string[] {
  const { changes, policy } = input;
  const refusals: string[] = [];
  const deletes = changes.filter((c) => c.action === 'delete');
  if (deletes.length === 0) return refusals;
  const counts = input.counts();

  const perKind = new Map<KindName, Change[]>();
  for (const change of deletes) {
    const list = perKind.get(change.kind);
    if (list) list.push(change);
    else perKind.set(change.kind, [change]);
  }

  const overBudget: string[] = [];
  if (deletes.length > policy.maxDeletes) {
    overBudget.push(
      `Refusing to delete ${plural(deletes.length, 'object')}: more than --max-deletes ${policy.maxDeletes}. ` +
        'Re-run with --force-deletes to delete them anyway, or raise --max-deletes.',
    );
  }
  for (const [kind, list] of perKind) {
    const live = counts.liveCount.get(kind) ?? list.length;
    const ratio = list.length / Math.max(live, 1);
    const smallKind = list.length === 1 && (counts.ownedCount.get(kind) ?? 0) <= SMALL_KIND;
    if (ratio > policy.maxDeleteRatio && !smallKind) {
      overBudget.push(
        `Refusing to delete ${list.length} of ${live} live ${kind} objects (${Math.round(ratio * 100)}%): ` +
          `more than --max-delete-ratio ${policy.maxDeleteRatio}. ` +
          'Re-run with --force-deletes to delete them anyway, or raise --max-delete-ratio.',
      );
    }
  }
  if (overBudget.length > 0 && !policy.allowOverBudget) {
    refusals.push(...overBudget);
    for (const change of deletes) refuse(change, 'over the delete budget');
  }

  if (!policy.allowEmpty) {
    for (const [kind, list] of perKind) {
      const owned = counts.ownedCount.get(kind) ?? 0;
      if ((counts.desiredCount.get(kind) ?? 0) > 0 || owned === 0) continue;
      refusals.push(
        `Refusing to delete every owned ${kind}: no ${kind} is declared, and ${plural(owned, `owned ${kind} object`)} ` +
          `${owned === 1 ? 'exists' : 'exist'} live. If the files really should declare none, re-run with --allow-empty.`,
      );
      for (const change of list) refuse(change, `no ${kind} is declared (--allow-empty)`);
    }
  }
  holdBelowHeld(deletes);
  return refusals;
}

/**
 * Deletes run from the highest level down: an object of a lower level (a notifier) may still be
 * referenced by a held one above it (a monitor). Held deletes keep everything below them, so the
 * rest of the plan never removes what a held object needs.
 */
function holdBelowHeld(deletes: readonly Change[]): void {
  const held = deletes.filter((c) => c.action === 'refused');
  const top = held.reduce<Change | undefined>((max, c) => (max === undefined || c.level > max.level ? c : max), undefined);
  if (top === undefined) return;
  for (const change of deletes) {
    if (change.action === 'delete' && change.level < top.level) refuse(change, `${top.kind}/${top.key} is held, and it may still reference this`);
  }
}

/** A held change: apply leaves it alone and applies the rest of the plan (docs/design.md). */
function refuse(change: Change, why: string): void {
  if (change.action !== 'refused') change.heldFrom = { action: change.action, ...(change.reason === undefined ? {} : { reason: change.reason }) };
  change.reason = change.action === 'refused' ? `${change.reason ?? ''}, ${why}` : `${change.reason ?? 'delete'}; held: ${why}`;
  change.action = 'refused';
}
