// planChanges: desired state + live state + inventory + policy -> Plan. Pure: no I/O, no clock.
import { ByKind } from '../core/by-kind.js';
import { sortDiagnostics } from '../core/diagnostics.js';
import { ACTIONS, changeRef, type Action, type Change, type Desired, type DesiredResource, type Diagnostic, type HeldChanges, type Inventory, type KindName, type LiveState, type Plan, type Policy } from '../core/types.js';
import type { Measure } from '../core/phase-times.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { isAbandoned, renamedFrom } from './annotations.js';
import { inventoryWithBase, type BaseRemovals } from './base.js';
import { declaredInputs, planUnavailable, refuseDeclaredTwice, specOf, type DeclaredContext } from './declared.js';
import { fingerprintInputs, withLazyFingerprint } from './fingerprint.js';
import { approveHeld } from './held.js';
import { planIncrementally, type PlanSnapshot } from './incremental.js';
import { describeRename, noteRenameCandidates, type PlannedCreate, type Undeclared } from './renames.js';
import { guardSelfLockout, type SelfIdentity } from './self-lockout.js';
import { indexLive, liveWithKey, type LiveIndex } from './live-index.js';
import { orderChanges, type Ordered } from './ordering.js';
import { applySafetyRules, ownershipOf } from './ownership.js';
import { planDeclaredOnce, type PlanMemo } from './plan-memo.js';
import { checkReferences, nameIndexFrom, referenceUses, type NameIndex, type ReferenceContext } from './references.js';
import { isSelected, unmatchedSelection, type Selection } from './selection.js';
import { planRetired, planUndeclared, withoutRetired, type UndeclaredContext } from './undeclared.js';

export { OBSERVE_REASON } from './declared.js';

/** What the planner is told besides the three states and the policy (all optional: plain values). */
export interface PlanContext {
  /** When the plan is made: a replace with a grace period says until when the old object works. */
  now?: Date;
  /**
   * The issued secrets (API token secrets) wsync holds on disk, as `Kind/key`. When given, an
   * owned object whose secret is not held is regenerated, and one not owned is not adopted.
   */
  heldSecrets?: ReadonlySet<string>;
  /**
   * `Kind/key` of issued secrets whose request a run sent but never saw through (it died): the
   * unowned object of that key is that run's, and is regenerated rather than refused.
   */
  pendingSecrets?: ReadonlySet<string>;
  /** What the base of the change declares and the change removes (`plan --base`). */
  removals?: BaseRemovals;
  /** Plan only these resources (`--target`, `--kind`); nothing is pruned then. */
  selection?: Selection;
  /** What earlier plans computed (the daemon's): work whose inputs have not moved is not done again. */
  memo?: PlanMemo;
  /** Times the reference checks (the caller times the rest). */
  measure?: Measure;
  /** The fingerprint of held changes someone approved (`apply --approve`): lets exactly those through. */
  approve?: string;
  /** The held changes `approve` was made of, when the caller keeps a record of them: a void approval then names what differs. */
  approvedHeld?: HeldChanges;
  /** What is known of the credential wsync runs with: the self-lockout guard holds what would lock it out. */
  self?: SelfIdentity;
}

/** How many of `items` (those `counted`, when given) there are of each kind. */
function countBy<T>(items: Iterable<T>, keyOf: (item: T) => KindName, counted?: (item: T) => boolean): Map<KindName, number> {
  const counts = new Map<KindName, number>();
  for (const item of items) {
    if (counted && !counted(item)) continue;
    const kind = keyOf(item);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/** The declared keys (a key a kind manages a part of, UserRole's, counts for the kind of the whole, User), and the resources declared twice so. */
function declaredKeys(resources: readonly DesiredResource[]): { declared: ByKind<DesiredResource>; declaredTwice: Set<DesiredResource> } {
  const declared = new ByKind<DesiredResource>();
  // The resources of a kind that manages a part of another kind's objects (UserRole): few, looked at again.
  const parts: DesiredResource[] = [];
  // Indexed loops over every resource: a cold `for...of` makes an iterator result per item.
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i] as DesiredResource;
    declared.set(r.kind, r.key, r);
    if (KINDS[r.kind].sameObjectsAs !== undefined) parts.push(r);
  }
  const wholeOf = (r: DesiredResource): KindName => KINDS[r.kind].sameObjectsAs ?? r.kind;
  const declaredTwice = new Set(parts.filter((r) => declared.has(wholeOf(r), r.key)));
  for (const r of parts) if (!declared.has(wholeOf(r), r.key)) declared.set(wholeOf(r), r.key, r);
  return { declared, declaredTwice };
}

/** The declarations that say `wsync/renamed-from: OLD`, by the old key they name. */
function renamedFromBy(resources: readonly DesiredResource[]): ByKind<DesiredResource[]> {
  const out = new ByKind<DesiredResource[]>();
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i] as DesiredResource;
    const old = renamedFrom(r);
    if (old === undefined) continue;
    const fromKey = KINDS[r.kind].keyOf(old, specOf(r));
    const list = out.get(r.kind, fromKey);
    if (list) list.push(r);
    else out.set(r.kind, fromKey, [r]);
  }
  return out;
}

export function planChanges(desired: Desired, allLive: LiveState, inventory: Inventory, policy: Policy, context: PlanContext = {}): Plan {
  const { memo } = context;
  const fast = memo ? planIncrementally(desired, allLive, inventory, policy, context) : undefined;
  if (memo) memo.made[fast ? 'incremental' : 'whole'] += 1;
  return fast ?? planWhole(desired, allLive, inventory, policy, context);
}

/** Every resource and live object planned (what an earlier plan found is reused through the memo). */
function planWhole(desired: Desired, allLive: LiveState, inventory: Inventory, policy: Policy, context: PlanContext): Plan {
  const { memo, measure = (_phase, work) => work() } = context;
  const { live, retired } = withoutRetired(allLive, inventory);
  const liveIndex = indexLive(live, memo);
  const ownership = ownershipOf(inventoryWithBase(inventory, context.removals, liveIndex), memo);
  const diagnostics: Diagnostic[] = [];
  const { declared, declaredTwice } = declaredKeys(desired.resources);
  const declaredContext: DeclaredContext = {
    live,
    renames: { liveIndex, ownership, declared, renamedFromBy: renamedFromBy(desired.resources) },
    matchesOf: (kind, key) => liveWithKey(liveIndex, kind, key),
    ownerOf: (kind, id) => ownership.entryFor(kind, id),
    policy,
    hashKey: inventory.hashKey,
    ...context,
  };
  const undeclaredContext: UndeclaredContext = {
    ownership,
    policy,
    removed: new Set((context.removals?.resources ?? []).map((r) => changeRef(r.kind, r.key))),
    baseLabel: context.removals?.label ?? 'the base',
    diagnostics,
    ...(context.now ? { now: context.now } : {}),
  };
  const snapshot = memo ? newSnapshot(desired, allLive, inventory, policy, context, liveIndex) : undefined;
  const { selection } = context;
  const planned = selection ? desired.resources.filter((r) => isSelected(selection, r)) : desired.resources;
  if (selection) diagnostics.push(...unmatchedSelection(selection, desired.resources));
  const items: Ordered[] = [];
  const changeOf = new ByKind<Change>();
  const reportedAddOns = new Set<string>();
  const creates: PlannedCreate[] = [];
  /** Old keys of the owned objects renamed in place (`wsync/renamed-from`): not undeclared. */
  const renamedAway = new ByKind<true>();
  for (let i = 0; i < planned.length; i++) {
    const resource = planned[i] as DesiredResource;
    const before = diagnostics.length;
    const unavailable = live.unavailable?.[resource.kind];
    const change = declaredTwice.has(resource)
      ? refuseDeclaredTwice(resource, diagnostics)
      : unavailable !== undefined
        ? planUnavailable(resource, unavailable, reportedAddOns, diagnostics)
        : planDeclaredOnce(resource, declaredInputs(resource, declaredContext), diagnostics, memo);
    if (change.renamedFrom !== undefined) renamedAway.set(resource.kind, change.renamedFrom, true);
    describeRename(change);
    items.push({ change, removal: false });
    changeOf.set(resource.kind, resource.key, change);
    if (change.action === 'create') creates.push({ resource, spec: specOf(resource), change, hashKey: inventory.hashKey });
    if (snapshot && diagnostics.length > before) snapshot.planDiagnostics.set(resource, diagnostics.slice(before));
  }

  // A subset never prunes: what lies outside it is not looked at.
  const undeclared: Undeclared[] = [];
  for (const kind of selection ? [] : KIND_NAMES) {
    const perKey = liveIndex.byKey.get(kind);
    // Keys first: most are declared, and their entries are not needed here.
    for (const key of perKey?.keys() ?? []) {
      if (declared.has(kind, key) || renamedAway.has(kind, key)) continue;
      const entries = perKey?.get(key) ?? [];
      const before = diagnostics.length;
      const change = planUndeclared(kind, entries, undeclaredContext);
      if (snapshot && diagnostics.length > before) snapshot.undeclaredDiagnostics.set(kind, key, diagnostics.slice(before));
      if (!change) continue;
      items.push({ change, removal: true });
      const entry = change.id === undefined ? undefined : liveIndex.byId.get(kind, change.id);
      const owner = entry && ownership.entryFor(kind, entry.object.id);
      if (entry && owner) undeclared.push({ entry, owner, change });
    }
  }
  if (creates.length > 0 && undeclared.length > 0) noteRenameCandidates(creates, undeclared);

  const changes = items.map((i) => i.change);
  const refusals = applySafetyRules({
    changes,
    policy,
    counts: () => ({
      liveCount: countBy(liveIndex.entries, (e) => e.kind),
      desiredCount: countBy(desired.resources, (r) => r.kind),
      ownedCount: countBy(liveIndex.entries, (e) => e.kind, (e) => ownership.entryFor(e.kind, e.object.id) !== undefined),
    }),
  });
  // Before the held fingerprint is made: what would lock wsync out is held, never approvable.
  const lockouts = guardSelfLockout(changes, liveIndex, context.self, policy);
  const { held, approval } = approveHeld(changes, liveIndex, inventory.hashKey, context.approve, context.approvedHeld);
  if (approval?.released === true) refusals.length = 0;
  refusals.push(...lockouts);

  // Housekeeping of wsync's own replaced objects, outside the delete budget (applied above).
  const housekeeping: Change[] = [];
  for (const { object, until } of retired) {
    const change = planRetired(object, until, undeclaredContext);
    if (change) housekeeping.push(change);
  }
  refusals.push(...guardSelfLockout(housekeeping, liveIndex, context.self, policy));
  items.push(...housekeeping.map((change) => ({ change, removal: true })));

  // References are checked last: they need to know which targets this plan creates or deletes.
  measure('references', () => {
    const names = nameIndexFrom(desired, liveIndex);
    const deleted = new Set(changes.filter((c) => c.action === 'delete' && c.id).map((c) => `${c.kind}/${c.id}`));
    diagnostics.push(...checkAllReferences(planned, { names, changeOf, deleted, live, keepUses: snapshot !== undefined }, snapshot));
  });

  const ordered = orderChanges(items);
  const plan = planOf(ordered, diagnostics, refusals, desired, live, liveIndex, { ...(held ? { held } : {}), ...(approval ? { approval } : {}) });
  if (memo) memo.last = snapshot?.complete({ plan, declared, changeOf, items, retired: retired.length > 0 });
  return plan;
}

/** The references of every resource planned checked (and kept in the snapshot); their diagnostics. */
function checkAllReferences(planned: readonly DesiredResource[], inputs: ReferenceInputs, snapshot: SnapshotBuilder | undefined): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < planned.length; i++) {
    const resource = planned[i] as DesiredResource;
    const check = checkDeclaredReferences(resource, inputs);
    if (check === undefined) continue;
    if (check.diagnostics.length > 0) diagnostics.push(...check.diagnostics);
    snapshot?.recordCheck(resource, check.diagnostics);
  }
  if (snapshot) snapshot.names = inputs.names;
  return diagnostics;
}

/** What the reference check of a declared resource reads besides it. */
export interface ReferenceInputs {
  names: NameIndex;
  changeOf: ByKind<Change>;
  deleted: ReadonlySet<string>;
  live: LiveState;
  /** Keep each spec's reference uses for the next plan (ReferenceContext.keepUses): only a plan with a memo has one. */
  keepUses?: boolean;
}

/** The reference check's view of `inputs`, made once per inputs (a plan checks every resource with the same). */
const CONTEXTS = new WeakMap<ReferenceInputs, ReferenceContext>();

function referenceContextOf(inputs: ReferenceInputs): ReferenceContext {
  let context = CONTEXTS.get(inputs);
  if (!context) {
    context = {
      names: inputs.names,
      changeFor: (kind, key) => inputs.changeOf.get(kind, key),
      deleted: inputs.deleted,
      unavailable: (kind) => inputs.live.unavailable?.[kind],
      ...(inputs.keepUses === false ? { keepUses: false } : {}),
    };
    CONTEXTS.set(inputs, context);
  }
  return context;
}

/** The resource's references checked, and the changes they must wait for set on its change; undefined for an abandoned one. */
export function checkDeclaredReferences(resource: DesiredResource, inputs: ReferenceInputs): { diagnostics: Diagnostic[]; dependsOn: string[] } | undefined {
  // An abandoned object is never written: what it refers to is no longer wsync's business.
  if (isAbandoned(resource)) return undefined;
  const check = checkReferences(resource, specOf(resource), referenceContextOf(inputs));
  const change = inputs.changeOf.get(resource.kind, resource.key);
  if (change) change.dependsOn = check.dependsOn;
  return check;
}

/** The plan of changes in their order: the summary counted, the diagnostics sorted, the fingerprint made when read. */
export function planOf(
  ordered: Change[],
  diagnostics: Diagnostic[],
  refusals: string[],
  desired: Desired,
  live: LiveState,
  liveIndex: LiveIndex,
  approvals: Pick<Plan, 'held' | 'approval'> = {},
): Plan {
  const summary = Object.fromEntries(ACTIONS.map((a) => [a, 0])) as Record<Action, number>;
  for (const change of ordered) summary[change.action] += 1;
  return withLazyFingerprint({ version: 1, changes: ordered, diagnostics: sortDiagnostics(diagnostics), refusals, summary, ...approvals }, () =>
    fingerprintInputs(desired, live, liveIndex),
  );
}

function newSnapshot(desired: Desired, live: LiveState, inventory: Inventory, policy: Policy, context: PlanContext, liveIndex: LiveIndex): SnapshotBuilder {
  return new SnapshotBuilder(desired, live, inventory, policy, context, liveIndex);
}

/** Collects, while a whole plan is made, what the next plan needs to plan only what an edit touched. */
class SnapshotBuilder {
  readonly planDiagnostics = new Map<DesiredResource, Diagnostic[]>();
  readonly referenceDiagnostics = new Map<DesiredResource, Diagnostic[]>();
  readonly undeclaredDiagnostics = new ByKind<Diagnostic[]>();
  readonly referrers = new ByKind<Set<DesiredResource>>();
  names: NameIndex | undefined;

  constructor(
    private readonly desired: Desired,
    private readonly live: LiveState,
    private readonly inventory: Inventory,
    private readonly policy: Policy,
    private readonly context: PlanContext,
    private readonly liveIndex: LiveIndex,
  ) {}

  recordCheck(resource: DesiredResource, diagnostics: Diagnostic[]): void {
    if (diagnostics.length > 0) this.referenceDiagnostics.set(resource, diagnostics);
    for (const use of referenceUses(resource.kind, specOf(resource))) {
      let set = this.referrers.get(use.reference.target, use.key);
      if (!set) this.referrers.set(use.reference.target, use.key, (set = new Set()));
      set.add(resource);
    }
  }

  /** The snapshot, or undefined when the plan is of a kind the next one cannot build on (a subset, a base, held or deleted changes). */
  complete(made: { plan: Plan; declared: ByKind<DesiredResource>; changeOf: ByKind<Change>; items: Ordered[]; retired: boolean }): PlanSnapshot | undefined {
    const { plan } = made;
    const c = this.context;
    if (c.selection || c.removals || c.approve !== undefined || made.retired || this.names === undefined) return undefined;
    if (this.inventory.entries.some((e) => e.retiredUntil !== undefined)) return undefined;
    // A rename, and a probable one ("renamed?"), pair two keys: planned whole.
    if (this.desired.resources.some((r) => renamedFrom(r) !== undefined)) return undefined;
    if (plan.changes.some((change) => change.renamedFrom !== undefined || change.renameCandidate !== undefined)) return undefined;
    if (plan.refusals.length > 0 || plan.held || plan.changes.some((change) => change.action === 'delete' || change.action === 'refused' || change.grace)) return undefined;
    if (Object.keys(this.live.unavailable ?? {}).length > 0) return undefined;
    const undeclared = new ByKind<Change>();
    for (const item of made.items) if (item.removal) undeclared.set(item.change.kind, item.change.key, item.change);
    return {
      resources: this.desired.resources,
      live: this.live,
      inventoryEntries: this.inventory.entries,
      hashKey: this.inventory.hashKey,
      policy: this.policy,
      secrets: secretsText(c.heldSecrets, c.pendingSecrets),
      liveIndex: this.liveIndex,
      declared: made.declared,
      changeOf: made.changeOf,
      undeclared,
      planDiagnostics: this.planDiagnostics,
      referenceDiagnostics: this.referenceDiagnostics,
      undeclaredDiagnostics: this.undeclaredDiagnostics,
      referrers: this.referrers,
      names: this.names,
      plan,
    };
  }
}

/** The issued secrets held and pending, as one comparable text. */
export function secretsText(held: ReadonlySet<string> | undefined, pending: ReadonlySet<string> | undefined): string {
  const text = (set: ReadonlySet<string> | undefined): string => (set === undefined ? '-' : [...set].sort().join('\n'));
  return `${text(held)}\u0000${text(pending)}`;
}
