// The base of a change (a pull request's target branch). A pull request's job has no inventory: the
// daemon that applies the base keeps it. What the base declares and the change no longer declares is
// what that daemon owns and will delete once the change lands (with its --prune and delete budget),
// so the planner counts those objects as owned, and marks their changes as made by the change.
import { changeRef, type Inventory, type InventoryEntry, type KindName } from '../core/types.js';
import { liveWithKey, type LiveIndex } from './live-index.js';

/** A resource the base declares and the change removes. */
export interface RemovedResource {
  kind: KindName;
  key: string;
  /** The base declared it with `wsync/prune: disabled`: the daemon never deletes it. */
  pruneDisabled: boolean;
}

export interface BaseRemovals {
  /** How the base is named in reasons: `main`, `the base directory`. */
  label: string;
  resources: readonly RemovedResource[];
}

/** The base's resources that `head` no longer declares. */
export function removedByChange(base: readonly RemovedResource[], head: readonly { kind: KindName; key: string }[]): RemovedResource[] {
  const declared = new Set(head.map((r) => changeRef(r.kind, r.key)));
  return base.filter((r) => !declared.has(changeRef(r.kind, r.key)));
}

/**
 * The inventory as the daemon applying the base would hold it: each removed resource that exists
 * live (exactly once) is owned, as the daemon created or adopted it.
 */
export function inventoryWithBase(inventory: Inventory, removals: BaseRemovals | undefined, live: LiveIndex): Inventory {
  if (!removals) return inventory;
  const known = new Set(inventory.entries.map((e) => `${e.kind}\u0000${e.id}`));
  const added: InventoryEntry[] = [];
  for (const removed of removals.resources) {
    const matches = liveWithKey(live, removed.kind, removed.key);
    const [match] = matches;
    if (!match || matches.length > 1 || known.has(`${removed.kind}\u0000${match.object.id}`)) continue;
    added.push({ kind: removed.kind, key: removed.key, id: match.object.id, ...(removed.pruneDisabled ? { pruneDisabled: true } : {}) });
  }
  return added.length === 0 ? inventory : { ...inventory, entries: [...inventory.entries, ...added] };
}
