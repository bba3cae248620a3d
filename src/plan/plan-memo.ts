// What the last plans computed, kept by the daemon between reconciles so that a plan after a
// one-file edit redoes only the work whose inputs moved. Every entry is keyed by the very objects
// it was computed from (a resource the file cache handed back, a live object the live cache kept)
// and checked against the other inputs, so a reuse gives exactly what computing again gives (the
// property test test/plan/incremental.property.test.ts holds it to that).
import { jsonEqual } from '../core/json.js';
import type { Change, DesiredResource, Diagnostic, InventoryEntry, KindName, LiveObject, LiveState, Policy } from '../core/types.js';
import type { LiveEntry, LiveIndex } from './live-index.js';
import type { Ownership } from './ownership.js';

/** A live object seen through its kind module, and the id lookups the reading made. */
export interface MemoizedEntry {
  entry: LiveEntry;
  lookups: [kind: KindName, id: string, key: string | undefined][];
}

/** One declared resource's change and diagnostics, and what they were planned from. */
export interface MemoizedChange {
  matches: readonly LiveEntry[];
  owner: InventoryEntry | undefined;
  /** Whether the kind, and its dataset, were listed. */
  listed: string;
  policy: Policy;
  hashKey: string;
  /** Whether the resource's issued secret is held and pending (PlanContext.heldSecrets, pendingSecrets). */
  secrets: string;
  change: Change;
  diagnostics: Diagnostic[];
}

export class PlanMemo {
  readonly entries = new WeakMap<LiveObject, MemoizedEntry>();
  readonly changes = new WeakMap<DesiredResource, MemoizedChange>();
  /** The last live state indexed, and its index (the planner's, reused by apply). */
  lastIndex: { live: LiveState; index: LiveIndex } | undefined;
  /** The ownership of the last inventory's entries: the state hands out the same array until an entry changes. */
  lastOwnership: { entries: readonly InventoryEntry[]; ownership: Ownership } | undefined;
}

/** The inventory hands out fresh copies of its entries: compared by what they hold. */
function sameOwner(a: InventoryEntry | undefined, b: InventoryEntry | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return a.kind === b.kind && a.key === b.key && a.id === b.id && a.pruneDisabled === b.pruneDisabled && a.retiredUntil === b.retiredUntil && jsonEqual(a.secretHashes, b.secretHashes);
}

export function sameChangeInputs(memo: MemoizedChange, now: Omit<MemoizedChange, 'change' | 'diagnostics'>): boolean {
  return (
    sameOwner(memo.owner, now.owner) &&
    memo.listed === now.listed &&
    memo.policy === now.policy &&
    memo.hashKey === now.hashKey &&
    memo.secrets === now.secrets &&
    sameEntries(memo.matches, now.matches)
  );
}

function sameEntries(a: readonly LiveEntry[], b: readonly LiveEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
