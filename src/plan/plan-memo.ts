// What the last plans computed, kept by the daemon between reconciles so that a plan after a
// one-file edit redoes only the work whose inputs moved. A declared resource's change is keyed by
// the very resource object (the file cache hands back the same objects while a file is unchanged)
// and by its `DeclaredInputs`, the parameters of planDeclared, each compared below; a live object's
// reading by the object and its id lookups. So a reuse gives exactly what computing again gives
// (test/plan/incremental.property.test.ts holds it to that).
import { jsonEqual } from '../core/json.js';
import type { Change, DesiredResource, Diagnostic, InventoryEntry, KindName, LiveObject, LiveState } from '../core/types.js';
import { planDeclared, type DeclaredInputs } from './declared.js';
import type { PlanSnapshot } from './incremental.js';
import type { LiveEntry, LiveIndex } from './live-index.js';
import type { Ownership } from './ownership.js';

/** A live object seen through its kind module, and the id lookups the reading made. */
export interface MemoizedEntry {
  entry: LiveEntry;
  lookups: [kind: KindName, id: string, key: string | undefined][];
}

/** One declared resource's change and diagnostics, and the inputs they were planned from. */
export interface MemoizedChange {
  inputs: DeclaredInputs;
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
  /** The last whole plan and what it was made from: an edit plans only what it touches (plan/incremental.ts). */
  last: PlanSnapshot | undefined;
  /** How many plans were made whole, and how many from the last one. */
  readonly made = { whole: 0, incremental: 0 };
}

/** The inventory hands out fresh copies of its entries: compared by what they hold. */
function sameOwner(a: InventoryEntry | undefined, b: InventoryEntry | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return a.kind === b.kind && a.key === b.key && a.id === b.id && a.pruneDisabled === b.pruneDisabled && a.retiredUntil === b.retiredUntil && jsonEqual(a.secretHashes, b.secretHashes);
}

function sameEntries(a: readonly LiveEntry[], b: readonly LiveEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * How each input is compared: a new member of DeclaredInputs does not compile until it is here.
 * The time is the one input not compared: a change that read it (a replace with a grace period)
 * is never kept.
 */
const SAME: { [K in keyof DeclaredInputs]: (a: DeclaredInputs[K], b: DeclaredInputs[K]) => boolean } = {
  matches: sameEntries,
  // A rename is planned against another key's object: planned afresh each time.
  rename: (a, b) => a.type === 'none' && b.type === 'none',
  owner: sameOwner,
  listed: (a, b) => a === b,
  policy: (a, b) => a === b,
  hashKey: (a, b) => a === b,
  secret: (a, b) => a.held === b.held && a.pending === b.pending,
  unseen: (a, b) => a === b,
  now: () => true,
};

export function sameInputs(a: DeclaredInputs, b: DeclaredInputs): boolean {
  for (const key of Object.keys(SAME) as (keyof DeclaredInputs)[]) {
    if (!(SAME[key] as (x: unknown, y: unknown) => boolean)(a[key], b[key])) return false;
  }
  return true;
}

/** planDeclared, or its result for the same resource and inputs. The memo's copy is never handed out: changes are amended later. */
export function planDeclaredOnce(resource: DesiredResource, inputs: DeclaredInputs, diagnostics: Diagnostic[], memo: PlanMemo | undefined): Change {
  const known = memo?.changes.get(resource);
  if (known && sameInputs(known.inputs, inputs)) {
    if (known.diagnostics.length > 0) diagnostics.push(...known.diagnostics);
    return { ...known.change };
  }
  const before = diagnostics.length;
  const change = planDeclared(resource, inputs, diagnostics);
  // A replace with a grace period says until when, from the time of the plan: planned afresh each time.
  if (memo && change.grace === undefined) memo.changes.set(resource, { inputs, change: { ...change }, diagnostics: diagnostics.slice(before) });
  return change;
}
