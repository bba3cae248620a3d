// The daemon's plan after an edit (docs/incremental.md): the resources of the changed files, the
// live objects read back after the last writes, and the resources that refer to either are planned
// again; every other change, diagnostic and reference check is the last plan's. Anything this does
// not cover (a subset, a base, deletes or held changes, objects created or gone, a kind others
// refer to by id rewritten, a different policy, inventory or secrets) plans the whole again.
import { ByKind } from '../core/by-kind.js';
import { jsonEqual } from '../core/json.js';
import type { Change, Desired, DesiredResource, Diagnostic, Inventory, InventoryEntry, KindName, LiveObject, LiveState, Plan, Policy } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { renamedFrom } from './annotations.js';
import { declaredInputs, specOf } from './declared.js';
import { indexLive, liveWithKey, type LiveEntry, type LiveIndex } from './live-index.js';
import { orderChanges, type Ordered } from './ordering.js';
import { ownershipOf } from './ownership.js';
import { planDeclaredOnce } from './plan-memo.js';
import { checkDeclaredReferences, planOf, secretsText, type PlanContext } from './planner.js';
import { REFERENCED_KINDS, referenceUses, type NameIndex } from './references.js';
import { planUndeclared } from './undeclared.js';

/** The last whole plan and what it was made from (PlanMemo.last). Changed in place by the next plan made from it. */
export interface PlanSnapshot {
  resources: readonly DesiredResource[];
  live: LiveState;
  inventoryEntries: readonly InventoryEntry[];
  hashKey: string;
  policy: Policy;
  secrets: string;
  liveIndex: LiveIndex;
  /** Declared resources by kind and key. */
  declared: ByKind<DesiredResource>;
  /** The plan's change of each declared resource, and of each undeclared live key that has one. */
  changeOf: ByKind<Change>;
  undeclared: ByKind<Change>;
  /** Diagnostics by where they come from: a resource's plan, its reference check, an undeclared key. */
  planDiagnostics: Map<DesiredResource, Diagnostic[]>;
  referenceDiagnostics: Map<DesiredResource, Diagnostic[]>;
  undeclaredDiagnostics: ByKind<Diagnostic[]>;
  /** Who names each (kind, key) in a reference. */
  referrers: ByKind<Set<DesiredResource>>;
  names: NameIndex;
  plan: Plan;
}

/** More keys than this touched (a file holds a few hundred at most), and planning everything costs about the same. */
const MAX_TOUCHED = 2_000;
/** Kinds some reference names: their ids are read as names in other objects' specs. */
const TARGET_KINDS: ReadonlySet<KindName> = new Set(KIND_NAMES.flatMap((kind) => KINDS[kind].references.map((r) => r.target)));
/** Kinds one key of which is declared as two resources (UserRole and User). */
const SHARED_KEY_KINDS: ReadonlySet<KindName> = new Set(
  KIND_NAMES.flatMap((kind) => {
    const whole = KINDS[kind].sameObjectsAs;
    return whole === undefined ? [] : [kind, whole];
  }),
);

interface Rewritten {
  before: LiveEntry;
  after: LiveObject;
}

/** The plan from the memo's last one, or undefined when this one must be planned whole. */
export function planIncrementally(desired: Desired, live: LiveState, inventory: Inventory, policy: Policy, context: PlanContext): Plan | undefined {
  const memo = context.memo;
  const last = memo?.last;
  if (!memo || !last) return undefined;
  // Consumed: from here on it is changed in place, and a plan made whole makes the next one.
  memo.last = undefined;
  if (context.selection || context.removals || context.approve !== undefined) return undefined;
  if (policy !== last.policy || inventory.hashKey !== last.hashKey || inventory.entries !== last.inventoryEntries) return undefined;
  if (secretsText(context.heldSecrets, context.pendingSecrets) !== last.secrets || !sameListing(last.live, live)) return undefined;
  const rewritten = rewrittenObjects(last.live, live, last.liveIndex);
  if (rewritten === undefined) return undefined;
  const index = rewritten.length === 0 ? last.liveIndex : indexLive(live, memo);
  if (rewritten.some(({ before }) => index.byId.get(before.kind, before.object.id)?.key !== before.key)) return undefined;
  const edit = editedResources(desired, last);
  if (edit === undefined) return undefined;

  const touched = new ByKind<true>();
  for (const r of [...edit.changed, ...edit.removed]) touched.set(r.kind, r.key, true);
  for (const { before } of rewritten) touched.set(before.kind, before.key, true);
  const edited = [...edit.changed, ...edit.removed];
  if (touched.size > MAX_TOUCHED || edited.some((r) => SHARED_KEY_KINDS.has(r.kind) || renamedFrom(r) !== undefined)) return undefined;

  const declaredNow = (kind: KindName, key: string): DesiredResource | undefined => edit.changedByKey.get(kind, key) ?? (edit.removedByKey.has(kind, key) ? undefined : last.declared.get(kind, key));
  const planned = planTouched(touched, declaredNow, index, live, inventory, policy, context);
  if (planned === undefined) return undefined;

  memo.lastIndex = { live, index };
  const reorder = record(last, edit, planned);
  const measure = context.measure ?? ((_phase, work) => work());
  const moved = measure('references', () => recheckReferences(last, edit, touched, declaredNow, live));
  const changes = reorder ? ordered(desired, last) : inPlace(last.plan.changes, [...planned.replaced, ...moved]);
  const diagnostics = [...last.planDiagnostics.values(), ...last.undeclaredDiagnostics.values(), ...last.referenceDiagnostics.values()].flat();
  const plan = planOf(changes, diagnostics, [], desired, live, index);
  Object.assign(last, { resources: desired.resources, live, liveIndex: index, plan });
  memo.last = last;
  return plan;
}

/** Whether the live state was listed alike: the same kinds and datasets, nothing unavailable, the same query access. */
function sameListing(a: LiveState, b: LiveState): boolean {
  if (Object.keys(b.unavailable ?? {}).length > 0) return false;
  return jsonEqual(a.listedKinds, b.listedKinds) && jsonEqual(a.listedDatasets, b.listedDatasets) && jsonEqual(a.queryAccess ?? null, b.queryAccess ?? null);
}

/** The live objects read again in place (same kind, same id, another object); undefined when objects came or went or moved. */
function rewrittenObjects(before: LiveState, after: LiveState, index: LiveIndex): Rewritten[] | undefined {
  const out: Rewritten[] = [];
  for (const kind of KIND_NAMES) {
    const a = before.objects[kind];
    const b = after.objects[kind];
    if (a === b) continue;
    if (a === undefined || b === undefined || a.length !== b.length) return undefined;
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as LiveObject;
      const y = b[i] as LiveObject;
      if (x === y) continue;
      const entry = index.byId.get(kind, x.id);
      // A kind others name by id: a new reading may move the names in their specs.
      if (x.id !== y.id || TARGET_KINDS.has(kind) || entry === undefined) return undefined;
      out.push({ before: entry, after: y });
    }
  }
  return out.length > MAX_TOUCHED ? undefined : out;
}

interface Edit {
  /** Resources that are not the last plan's objects (their file changed). */
  changed: DesiredResource[];
  changedByKey: ByKind<DesiredResource>;
  /** The last plan's resources no longer declared as they were (removed, or read again). */
  removed: DesiredResource[];
  removedByKey: ByKind<DesiredResource>;
}

function editedResources(desired: Desired, last: PlanSnapshot): Edit | undefined {
  const changed: DesiredResource[] = [];
  const changedByKey = new ByKind<DesiredResource>();
  let kept = 0;
  for (const r of desired.resources) {
    if (last.declared.get(r.kind, r.key) === r) {
      kept++;
      continue;
    }
    if (changedByKey.has(r.kind, r.key)) return undefined;
    changed.push(r);
    changedByKey.set(r.kind, r.key, r);
  }
  if (changed.length > MAX_TOUCHED) return undefined;
  const removed: DesiredResource[] = [];
  const removedByKey = new ByKind<DesiredResource>();
  if (kept < last.resources.length) {
    const current = new Set(desired.resources);
    for (const r of last.resources) {
      if (current.has(r)) continue;
      removed.push(r);
      removedByKey.set(r.kind, r.key, r);
    }
  }
  return { changed, changedByKey, removed, removedByKey };
}

interface Planned {
  /** New changes by key; undefined: the key has none now. */
  changes: ByKind<{ change: Change | undefined; declared: boolean; diagnostics: Diagnostic[] }>;
  /** [old, new] for each change that took the place of one of the same key and side. */
  replaced: [Change, Change][];
}

/** The touched keys planned again, declared or not; undefined when one plans a delete, a hold or a time (the whole plan then). */
function planTouched(
  touched: ByKind<true>,
  declaredNow: (kind: KindName, key: string) => DesiredResource | undefined,
  index: LiveIndex,
  live: LiveState,
  inventory: Inventory,
  policy: Policy,
  context: PlanContext,
): Planned | undefined {
  const ownership = ownershipOf(inventory, context.memo);
  const declaredContext = {
    ...context,
    live,
    // A touched resource that renames has bailed out already: nothing is declared under an old name.
    renames: { liveIndex: index, ownership, declared: { has: () => false } },
    matchesOf: (kind: KindName, key: string) => liveWithKey(index, kind, key),
    ownerOf: (kind: KindName, id: string) => ownership.entryFor(kind, id),
    policy,
    hashKey: inventory.hashKey,
  };
  const changes: Planned['changes'] = new ByKind();
  for (const kind of KIND_NAMES) {
    for (const key of touched.keys(kind)) {
      const diagnostics: Diagnostic[] = [];
      const resource = declaredNow(kind, key);
      const undeclaredContext = { ownership, policy, removed: new Set<string>(), baseLabel: 'the base', diagnostics };
      const change = resource
        ? planDeclaredOnce(resource, declaredInputs(resource, declaredContext), diagnostics, context.memo)
        : planUndeclared(kind, liveWithKey(index, kind, key), undeclaredContext);
      if (change && (change.action === 'delete' || change.action === 'refused' || change.grace !== undefined)) return undefined;
      // A create and an owned object no longer declared may be one renamed ("renamed?"): that pairs keys, planned whole.
      if (change && (change.action === 'create' || (!resource && change.owned))) return undefined;
      // A member's role changes: the self-lockout guard weighs every owner (src/plan/self-lockout.ts), planned whole.
      const member = KINDS[kind].memberRole;
      if (change && member !== undefined && change.diffs.some((d) => d.path === member.field)) return undefined;
      changes.set(kind, key, { change, declared: resource !== undefined, diagnostics });
    }
  }
  return { changes, replaced: [] };
}

/** The touched keys' new changes and diagnostics into the snapshot; whether the plan's order must be made again. */
function record(last: PlanSnapshot, edit: Edit, planned: Planned): boolean {
  let reorder = false;
  for (const r of edit.removed) {
    last.planDiagnostics.delete(r);
    if (last.declared.get(r.kind, r.key) === r) last.declared.delete(r.kind, r.key);
  }
  for (const r of edit.changed) last.declared.set(r.kind, r.key, r);
  for (const kind of KIND_NAMES) {
    for (const key of planned.changes.keys(kind)) {
      const now = planned.changes.get(kind, key);
      if (now === undefined) continue;
      const side = now.declared ? last.changeOf : last.undeclared;
      const other = now.declared ? last.undeclared : last.changeOf;
      const before = side.get(kind, key);
      if (other.has(kind, key)) {
        other.delete(kind, key);
        reorder = true;
      }
      if (now.change === undefined) {
        if (before !== undefined) reorder = true;
        side.delete(kind, key);
      } else {
        if (before === undefined) reorder = true;
        else planned.replaced.push([before, now.change]);
        side.set(kind, key, now.change);
      }
      const resource = now.declared ? last.declared.get(kind, key) : undefined;
      if (resource && now.diagnostics.length > 0) last.planDiagnostics.set(resource, now.diagnostics);
      else if (resource) last.planDiagnostics.delete(resource);
      if (!now.declared && now.diagnostics.length > 0) last.undeclaredDiagnostics.set(kind, key, now.diagnostics);
      else last.undeclaredDiagnostics.delete(kind, key);
    }
  }
  return reorder;
}

/**
 * The references of the touched resources, of those that name a touched key, and of those whose
 * check found something (its "did you mean" reads every key of a kind) checked again. Returns
 * [old, new] for each untouched change whose order of writes moved.
 */
function recheckReferences(
  last: PlanSnapshot,
  edit: Edit,
  touched: ByKind<true>,
  declaredNow: (kind: KindName, key: string) => DesiredResource | undefined,
  live: LiveState,
): [Change, Change][] {
  for (const r of edit.removed) forgetUses(last, r);
  const recheck = new Set<DesiredResource>(last.referenceDiagnostics.keys());
  for (const kind of KIND_NAMES) {
    for (const key of touched.keys(kind)) {
      const resource = declaredNow(kind, key);
      if (resource) recheck.add(resource);
      for (const referrer of last.referrers.get(kind, key) ?? []) recheck.add(referrer);
      if (!REFERENCED_KINDS.has(kind)) continue;
      if (resource) last.names.declare(kind, key);
      else last.names.undeclare(kind, key);
    }
  }
  const moved: [Change, Change][] = [];
  const changeOf = last.changeOf;
  for (const resource of recheck) {
    if (declaredNow(resource.kind, resource.key) !== resource) continue;
    const before = changeOf.get(resource.kind, resource.key);
    // A change of the last plan is not amended in place: a copy is checked, and kept when its order of writes moved.
    const copy = before && !touched.has(resource.kind, resource.key) ? { ...before } : undefined;
    if (copy) changeOf.set(resource.kind, resource.key, copy);
    const check = checkDeclaredReferences(resource, { names: last.names, changeOf, deleted: new Set(), live });
    if (copy && before) {
      if (jsonEqual(copy.dependsOn, before.dependsOn)) changeOf.set(resource.kind, resource.key, before);
      else moved.push([before, copy]);
    }
    forgetUses(last, resource);
    if (check === undefined) continue;
    if (check.diagnostics.length > 0) last.referenceDiagnostics.set(resource, check.diagnostics);
    for (const use of referenceUses(resource.kind, specOf(resource))) {
      let set = last.referrers.get(use.reference.target, use.key);
      if (!set) last.referrers.set(use.reference.target, use.key, (set = new Set()));
      set.add(resource);
    }
  }
  return moved;
}

/** A resource's references and reference diagnostics forgotten (it is gone, or about to be checked again). */
function forgetUses(last: PlanSnapshot, resource: DesiredResource): void {
  last.referenceDiagnostics.delete(resource);
  for (const use of referenceUses(resource.kind, specOf(resource))) last.referrers.get(use.reference.target, use.key)?.delete(resource);
}

/** The last plan's changes with some replaced in their places (the same key, so the same place). */
function inPlace(changes: readonly Change[], replaced: readonly [Change, Change][]): Change[] {
  const out = [...changes];
  for (const [before, after] of replaced) {
    const at = out.indexOf(before);
    if (at >= 0) out[at] = after;
  }
  return out;
}

/** Every change in the plan's order, made again (a key gained or lost its change). */
function ordered(desired: Desired, last: PlanSnapshot): Change[] {
  const items: Ordered[] = [];
  for (const r of desired.resources) {
    const change = last.changeOf.get(r.kind, r.key);
    if (change) items.push({ change, removal: false });
  }
  for (const kind of KIND_NAMES) for (const key of last.undeclared.keys(kind)) items.push({ change: last.undeclared.get(kind, key) as Change, removal: true });
  return orderChanges(items);
}
