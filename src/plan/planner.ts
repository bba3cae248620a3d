// planChanges: desired state + live state + inventory + policy -> Plan. Pure: no I/O, no clock.
import { ByKind } from '../core/by-kind.js';
import { sortDiagnostics } from '../core/diagnostics.js';
import { formatDuration } from '../core/duration.js';
import { matchesPattern, pointerSegments } from '../core/json-paths.js';
import {
  ACTIONS,
  changeRef,
  type Action,
  type Change,
  type Desired,
  type DesiredResource,
  type Diagnostic,
  type FieldDiff,
  type Inventory,
  type JsonObject,
  type InventoryEntry,
  type KindName,
  type LiveObject,
  type LiveState,
  type Plan,
  type PlanFingerprint,
  type Policy,
} from '../core/types.js';
import type { Measure } from '../core/phase-times.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import { planAbandoned } from './abandon.js';
import { ignoredFields, isAbandoned, isIssuedSecretHeldElsewhere, isObserved, mayDetachUnlisted, renamedFrom, rotationGraceMs } from './annotations.js';
import { describeRename, nameDiff, noteRenameCandidates, RENAMED_FROM_POINTER, renameSourceOf, type PlannedCreate, type Undeclared } from './renames.js';
import { droppedUnlistedIds, unlistedDropMessage } from './unlisted-ids.js';
import { inventoryWithBase, type BaseRemovals } from './base.js';
import { compareSpecs } from './compare.js';
import { dataLossOf } from './data-loss.js';
import { mayBeUnseen } from './unseen.js';
import { fingerprintInputs, specPointer } from './fingerprint.js';
import { approveHeld } from './held.js';
import { indexLive, liveWithKey, type LiveEntry, type LiveIndex } from './live-index.js';
import { orderChanges, type Ordered } from './ordering.js';
import { applySafetyRules, missingDeletionOptIn, ownershipOf, pruneReason, type Ownership } from './ownership.js';
import { sameChangeInputs, type PlanMemo } from './plan-memo.js';
import { checkReferences, nameIndexFrom } from './references.js';
import { isSelected, unmatchedSelection, type Selection } from './selection.js';

export const OBSERVE_REASON = 'observe mode: drift reported, not applied';
const SECRET_UNKNOWN_REASON = 'sensitive value not known; will be written';

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
}

interface Context extends PlanContext {
  live: LiveState;
  /** Add-ons whose absence has been reported: one error per add-on, however many resources need it. */
  reportedAddOns: Set<string>;
  liveIndex: LiveIndex;
  ownership: Ownership;
  inventory: Inventory;
  policy: Policy;
  diagnostics: Diagnostic[];
  /** `Kind/key` of the resources the change removes, and how the base is named. */
  removed: Set<string>;
  baseLabel: string;
  /** Every declared key (a key a kind manages a part of counts for the whole's kind too). */
  declared: ByKind<true>;
  /** Old keys of the owned objects renamed in place (`wsync/renamed-from`): not undeclared. */
  renamedAway: ByKind<true>;
}

function isServiceManaged(module: KindModule, entry: LiveEntry): boolean {
  return module.managedByService?.(entry.object.raw) ?? false;
}

function ambiguityReason(entries: readonly LiveEntry[]): string {
  const ids = entries.map((e) => e.object.id).join(', ');
  return `ambiguous: ${entries.length} live objects have this key (ids ${ids}); resolve by hand`;
}

/** `{ reason }` joined from the reasons given, or nothing (so no `reason: undefined` member). */
function reasons(...given: (string | undefined)[]): { reason?: string } {
  const present = given.filter((r): r is string => r !== undefined && r !== '');
  return present.length > 0 ? { reason: present.join('; ') } : {};
}

function missingReason(module: KindModule, resource: DesiredResource, spec: DesiredResource['spec']): string {
  if (module.missingReason) return module.missingReason(resource.name, spec);
  if (module.datasetOf) return `${module.kind} "${resource.name}" does not exist in dataset "${module.datasetOf(spec)}" yet`;
  return `${module.kind} objects cannot be created through the API`;
}

/** Whether the resource's kind, and its dataset, were listed: what planDeclared checks first. */
function listedState(resource: DesiredResource, live: LiveState): string {
  if (!live.listedKinds.includes(resource.kind)) return 'kind not listed';
  const module = KINDS[resource.kind];
  if (!module.datasetOf) return 'listed';
  const dataset = module.datasetOf(module.normalize?.(resource.spec) ?? resource.spec);
  return (live.listedDatasets[resource.kind] ?? []).includes(dataset) ? 'listed' : 'dataset not listed';
}

/** Whether the issued secret of the resource is held and pending: planDeclared asks only for kinds that have one. */
function issuedSecretState(resource: DesiredResource, ctx: Context): string {
  if (KINDS[resource.kind].issuedSecret === undefined) return '';
  const ref = changeRef(resource.kind, resource.key);
  return `${ctx.heldSecrets?.has(ref) ?? '-'} ${ctx.pendingSecrets?.has(ref) ?? '-'}`;
}

/** planDeclared, or its result for the same inputs from the memo. The memo's copy is never handed out: changes are amended later. */
function planDeclaredOnce(resource: DesiredResource, ctx: Context, memo: PlanMemo | undefined): Change {
  // A kind the workspace cannot list reports its add-on once per plan, whichever resource comes first.
  if (!memo || ctx.live.unavailable?.[resource.kind] !== undefined) return planDeclared(resource, ctx);
  const matches = liveWithKey(ctx.liveIndex, resource.kind, resource.key);
  // What the token may query is checked afresh at each read: a create it may hide is not memoized,
  // nor a rename, which is planned against another key's object.
  if (matches.length === 0 && (KINDS[resource.kind].listedOnlyIfQueryable || renamedFrom(resource) !== undefined)) return planDeclared(resource, ctx);
  const [first] = matches;
  const inputs = {
    matches,
    owner: first && matches.length === 1 ? ctx.ownership.entryFor(resource.kind, first.object.id) : undefined,
    listed: listedState(resource, ctx.live),
    policy: ctx.policy,
    hashKey: ctx.inventory.hashKey,
    secrets: issuedSecretState(resource, ctx),
  };
  const known = memo.changes.get(resource);
  if (known && sameChangeInputs(known, inputs)) {
    if (known.diagnostics.length > 0) ctx.diagnostics.push(...known.diagnostics);
    return { ...known.change };
  }
  const before = ctx.diagnostics.length;
  const change = planDeclared(resource, ctx);
  // A replace with a grace period says until when, from the time of the plan: planned afresh each time.
  if (change.grace === undefined) memo.changes.set(resource, { ...inputs, change: { ...change }, diagnostics: ctx.diagnostics.slice(before) });
  return change;
}

/** A resource whose key is also declared as the kind it manages a part of (UserRole and User of one email). */
function refuseDeclaredTwice(resource: DesiredResource, ctx: Context): Change {
  const module = KINDS[resource.kind];
  const whole = module.sameObjectsAs ?? resource.kind;
  const message =
    `${resource.kind} "${resource.key}" is also declared as a ${whole}: one object, two owners. ` +
    `Keep the ${whole} (it sets the role too) or the ${resource.kind}, not both`;
  const { file, line, column } = resource.source;
  ctx.diagnostics.push({ severity: 'error', code: 'declared-twice', kind: resource.kind, name: resource.name, message, file, line, column });
  return {
    kind: resource.kind,
    key: resource.key,
    name: resource.name,
    action: 'refused',
    reason: `also declared as a ${whole} (see the error)`,
    diffs: [],
    source: resource.source,
    dependsOn: [],
    level: module.level,
    owned: false,
  };
}

function planDeclared(resource: DesiredResource, ctx: Context): Change {
  const module = KINDS[resource.kind];
  const spec = module.normalize?.(resource.spec) ?? resource.spec;
  const change: Change = {
    kind: resource.kind,
    key: resource.key,
    name: resource.name,
    action: 'noop',
    diffs: [],
    source: resource.source,
    dependsOn: [],
    level: module.level,
    owned: false,
  };
  const skip = (reason: string): Change => ({ ...change, action: 'skipped', reason });
  const located = (pointer: string): Pick<Diagnostic, 'file' | 'line' | 'column'> => {
    const at = resource.locations[pointer] ?? resource.source;
    return { file: at.file, line: at.line, column: at.column };
  };

  const unavailable = ctx.live.unavailable?.[resource.kind];
  if (unavailable !== undefined) {
    const addOn = module.addOn ?? resource.kind;
    const message = `${addOn} is not available on this workspace (${unavailable}), or the token may not read it`;
    if (!ctx.reportedAddOns.has(addOn)) {
      ctx.reportedAddOns.add(addOn);
      const kinds = addOnKinds(addOn).join(' and ');
      ctx.diagnostics.push({
        severity: 'error',
        code: 'add-on-unavailable',
        kind: resource.kind,
        name: resource.name,
        message: `${message}: this tree declares ${kinds} resources, which need it. Enable ${addOn} for the workspace, use a token that may read it, or remove them.`,
        ...located(''),
      });
    }
    return skip(`needs ${addOn}, which this workspace does not offer (see the error)`);
  }
  if (!ctx.live.listedKinds.includes(resource.kind)) {
    const message = `${resource.kind} objects were not read from the workspace, so this resource cannot be planned`;
    ctx.diagnostics.push({ severity: 'error', code: 'not-listed', kind: resource.kind, name: resource.name, message, ...located('') });
    return skip(message);
  }
  if (module.datasetOf) {
    const dataset = module.datasetOf(spec);
    // The reader lists every dataset in play; one that does not exist reads as holding nothing, and
    // the reference check says whether it is declared or live.
    if (!(ctx.live.listedDatasets[resource.kind] ?? []).includes(dataset)) {
      const message = `the ${resource.kind} objects of dataset "${dataset}" were not read from the workspace, so this resource cannot be planned`;
      ctx.diagnostics.push({
        severity: 'error',
        code: 'not-listed',
        kind: resource.kind,
        name: resource.name,
        field: 'spec.dataset',
        message,
        ...located('/spec/dataset'),
      });
      return skip(message);
    }
  }

  let matches = liveWithKey(ctx.liveIndex, resource.kind, resource.key);
  const rename = renameSourceOf(resource, spec, ctx);
  if (rename.type === 'problem') {
    const { severity, message } = rename;
    ctx.diagnostics.push({ severity, code: 'renamed-from', kind: resource.kind, name: resource.name, field: 'metadata.annotations.wsync/renamed-from', message, ...located(RENAMED_FROM_POINTER) });
    if (severity === 'error') return { ...change, action: 'refused', reason: 'wsync/renamed-from cannot be carried out (see the error)' };
  }
  if (rename.type === 'rename') {
    matches = [rename.from];
    change.renamedFrom = rename.fromKey;
    ctx.renamedAway.set(resource.kind, rename.fromKey, true);
  }
  if (matches.length > 1) {
    const reason = ambiguityReason(matches);
    ctx.diagnostics.push({ severity: 'warning', code: 'ambiguous', kind: resource.kind, name: resource.name, message: reason, ...located('') });
    return skip(reason);
  }
  const [match] = matches;
  if (match && isServiceManaged(module, match)) {
    const reason = `managed by the service (id ${match.object.id}): wsync never writes, adopts or deletes it`;
    const message = `${resource.kind} "${resource.key}" is ${reason}; remove it from the files or give it another name`;
    ctx.diagnostics.push({ severity: 'warning', code: 'service-managed', kind: resource.kind, name: resource.name, message, ...located('') });
    return { ...skip(reason), id: match.object.id };
  }
  const entry = match ? ctx.ownership.entryFor(resource.kind, match.object.id) : undefined;
  if (isAbandoned(resource)) return planAbandoned(change, match?.object.id, entry !== undefined, ctx.policy, OBSERVE_REASON);
  const { diffs, secretUnknown } = compareSpecs({
    module,
    desired: spec,
    live: match?.spec,
    ...(match ? { liveRaw: match.object.raw } : {}),
    // Ignored fields are tolerated drift; a create sends them all the same, so its preview shows them.
    ignore: match ? ignoredFields(resource) : [],
    interpolated: resource.interpolated.map((p) => pointerSegments(specPointer(p))),
    secrets: { hashKey: ctx.inventory.hashKey, recorded: entry?.secretHashes },
  });
  if (rename.type === 'rename') diffs.unshift(nameDiff(rename.from, resource));
  if (diffs.length > 0 && module.outline) change.outline = module.outline(diffs);
  const observed = isObserved(resource, ctx.policy);

  if (!match) {
    if (!module.create && module.missingIsError) {
      const message = `${resource.kind} "${resource.key}": ${missingReason(module, resource, spec)}`;
      ctx.diagnostics.push({ severity: 'error', code: 'missing', kind: resource.kind, name: resource.name, message, ...located('') });
      return { ...change, action: 'refused', reason: 'does not exist live and cannot be created (see the error)' };
    }
    if (!module.create) return skip(missingReason(module, resource, spec));
    const unseen = mayBeUnseen(module, resource, spec, ctx.live);
    if (unseen !== undefined) {
      ctx.diagnostics.push({ severity: 'error', code: 'may-exist-unseen', kind: resource.kind, name: resource.name, message: unseen, ...located('') });
      return { ...change, action: 'refused', diffs, reason: 'not in the list, but the token may not see it there (see the error)' };
    }
    if (observed) return { ...change, action: 'skipped', diffs, reason: OBSERVE_REASON };
    return { ...change, action: 'create', diffs, ...reasons(module.writeReason?.(spec)) };
  }

  // Completed in place, not spread into a copy: the copy was a large share of a no-op plan
  // (docs/incremental.md, "Figures behind the code").
  const existing: Change = Object.assign(change, { id: match.object.id, owned: entry !== undefined, diffs });
  const secretMissing = module.issuedSecret !== undefined && ctx.heldSecrets !== undefined && !isIssuedSecretHeldElsewhere(resource) &&
    !ctx.heldSecrets.has(changeRef(resource.kind, resource.key));
  if (secretMissing && !observed) {
    const interrupted = ctx.pendingSecrets?.has(changeRef(resource.kind, resource.key)) === true;
    if (!entry && !interrupted) {
      const message =
        `${resource.kind} "${resource.key}" exists live (id ${match.object.id}) but is not owned by wsync, and wsync holds no secret for it: ` +
        'adopting it would leave a token whose secret nobody here has. If someone else holds it, annotate the resource ' +
        '"wsync/issued-secret: held-elsewhere"; if a wsync run stopped after creating it, delete the token and apply again';
      ctx.diagnostics.push({ severity: 'error', code: 'adoption-without-secret', kind: resource.kind, name: resource.name, message, ...located('') });
      return { ...existing, action: 'refused', reason: 'exists live, not owned, and no secret for it is held (see the error)' };
    }
    if (module.replace) {
      const why = interrupted && !entry ? 'regenerate: secret missing (a run stopped before saving it)' : 'regenerate: secret missing';
      return { ...existing, action: 'replace', ...graceOf(module, resource, match.object.raw, ctx), ...reasons(why, graceReason(module, resource, match.object.raw, ctx)) };
    }
  }
  if (diffs.length > 0 && observed) return { ...existing, action: 'skipped', reason: OBSERVE_REASON };
  if (!entry && !observed && !ctx.policy.adopt) {
    const message = `${resource.kind} "${resource.key}" exists live (id ${match.object.id}) but is not owned by wsync, and --no-adopt forbids adopting it`;
    ctx.diagnostics.push({ severity: 'error', code: 'adoption-refused', kind: resource.kind, name: resource.name, message, ...located('') });
    return { ...existing, action: 'refused', reason: 'not owned by wsync and adoption is off (--no-adopt)' };
  }
  if (diffs.length === 0) {
    existing.action = entry || observed ? 'noop' : 'adopt';
    return existing;
  }
  const dropped = mayDetachUnlisted(resource) ? [] : droppedUnlistedIds(module, spec, match.spec, diffs);
  if (dropped.length > 0) {
    const message = unlistedDropMessage(resource.kind, resource.key, dropped);
    ctx.diagnostics.push({ severity: 'error', code: 'unlisted-reference-dropped', kind: resource.kind, name: resource.name, field: `spec.${dropped[0]?.field ?? ''}`, message, ...located(`/spec/${dropped[0]?.field ?? ''}`) });
    return { ...existing, action: 'refused', reason: 'would drop references the lists do not show (see the error)' };
  }

  const immutable = diffs.filter((d) => module.immutable.includes(d.path.split('.')[0] ?? ''));
  const immutableNote = module.immutableNote === undefined ? '' : `: ${module.immutableNote}`;
  const immutableReason =
    immutable.length > 0 ? `${immutable.map((d) => d.path).join(', ')} changes are not applied through the API${immutableNote}` : undefined;
  const uncleared = diffs.filter((d) => !immutable.includes(d) && isUncleared(module, d));
  const unclearedReason =
    uncleared.length > 0
      ? `${uncleared.map((d) => d.path).join(', ')} cannot be cleared through the API (an update keeps what it leaves out); delete the object to clear it`
      : undefined;
  const unknownReason = secretUnknown ? SECRET_UNKNOWN_REASON : undefined;

  if (immutable.length + uncleared.length === diffs.length) {
    return { ...existing, action: entry ? 'skipped' : 'adopt', ...reasons(immutableReason, unclearedReason) };
  }
  if (!module.update) {
    if (module.replace) {
      const grace = graceReason(module, resource, match.object.raw, ctx);
      return { ...existing, action: 'replace', ...graceOf(module, resource, match.object.raw, ctx), ...reasons(module.replace.reason, grace, immutableReason, unknownReason) };
    }
    return { ...existing, action: 'skipped', reason: `${resource.kind} objects cannot be changed through the API` };
  }
  const loss = dataLossOf(module, spec, match.spec, ignoredFields(resource), ctx.policy);
  const write = { action: entry ? 'update' : 'adopt', ...reasons(module.writeReason?.(spec), immutableReason, unclearedReason, unknownReason) } as const;
  if (loss?.refused !== undefined) {
    // Held: an approval of the plan's held changes (apply --approve) gives the write back.
    return { ...existing, action: 'refused', warning: loss.warning, heldFrom: write, ...reasons(loss.refused, immutableReason, unclearedReason) };
  }
  const warning = loss === undefined ? {} : { warning: loss.warning };
  return { ...existing, ...write, ...warning };
}

/** For a replace whose old object keeps working a while: how long, and until when when the time is known. */
function graceOf(module: KindModule, resource: DesiredResource, liveRaw: JsonObject, ctx: Context): Pick<Change, 'grace'> {
  const replacement = module.replace;
  if (!replacement?.graceful) return {};
  const ms = rotationGraceMs(resource, ctx.policy);
  const until = ctx.now && replacement.oldValidUntil ? replacement.oldValidUntil(ctx.now, ms, liveRaw) : undefined;
  return { grace: until ? { ms, oldValidUntil: until.toISOString() } : { ms } };
}

function graceReason(module: KindModule, resource: DesiredResource, liveRaw: JsonObject, ctx: Context): string | undefined {
  const { grace } = graceOf(module, resource, liveRaw, ctx);
  if (!grace) return undefined;
  const period = `grace ${formatDuration(grace.ms)}`;
  return grace.oldValidUntil ? `the old one stays valid until ${grace.oldValidUntil} (${period})` : `the old one stays valid for ${formatDuration(grace.ms)} after apply`;
}

/** A diff that removes a value the kind's API cannot unset (KindModule.uncleared). */
function isUncleared(module: KindModule, diff: FieldDiff): boolean {
  if (diff.after !== undefined || diff.sensitive) return false;
  const segments = diff.path.split('.');
  return (module.uncleared ?? []).some((pattern) => matchesPattern(segments, pattern));
}

/** The kinds that need an add-on, in registry order. */
function addOnKinds(addOn: string): KindName[] {
  return KIND_NAMES.filter((kind) => KINDS[kind].addOn === addOn);
}

/** Why an object the change removes stays in the workspace. */
function keptReason(kind: KindName, entry: InventoryEntry | undefined): string {
  if (entry?.pruneDisabled) return 'removed by this change; not deleted: it carries wsync/prune: disabled';
  if (!KINDS[kind].remove) return `removed by this change; not deleted: ${kind} objects cannot be deleted through the API`;
  return 'removed by this change; not deleted: prune is off (--prune deletes it)';
}

/** Why an owned object no file declares stays in the workspace. */
function noLongerDeclaredReason(kind: KindName, entry: InventoryEntry | undefined): string {
  if (entry?.pruneDisabled) return 'no longer declared: kept, it carries wsync/prune: disabled';
  if (!KINDS[kind].remove) return `no longer declared: kept, ${kind} objects cannot be deleted through the API`;
  return 'no longer declared: kept, --prune deletes it';
}

/** Live objects whose key no file declares: deleted when prune says so, else left alone (an owned one is shown). */
function planUndeclared(kind: KindName, all: readonly LiveEntry[], ctx: Context): Change | undefined {
  const module = KINDS[kind];
  // What the service manages itself is never pruned, whatever the policy.
  const entries = all.filter((e) => !isServiceManaged(module, e));
  const why = entries.map((e) => pruneReason(kind, ctx.ownership.entryFor(kind, e.object.id), ctx.policy));
  const [first] = entries;
  if (!first) return undefined;
  const byChange = ctx.removed.has(changeRef(kind, first.key));
  const base: Change = {
    kind,
    key: first.key,
    name: first.name,
    action: 'delete',
    diffs: [],
    dependsOn: [],
    level: module.level,
    owned: false,
    ...(byChange ? { removedByChange: true } : {}),
  };
  if (why.every((r) => r === undefined)) {
    if (entries.length > 1) return undefined;
    const entry = ctx.ownership.entryFor(kind, first.object.id);
    // An owned object the files no longer declare is always shown, deleted or not.
    if (!byChange && entry === undefined) return undefined;
    const reason = byChange ? keptReason(kind, entry) : noLongerDeclaredReason(kind, entry);
    return { ...base, id: first.object.id, owned: entry !== undefined, action: 'skipped', reason };
  }
  const reason = byChange ? `declared in ${ctx.baseLabel} and removed by this change` : why[0];
  if (entries.length > 1) {
    const ambiguous = ambiguityReason(entries);
    ctx.diagnostics.push({ severity: 'warning', code: 'ambiguous', kind, name: first.name, message: ambiguous });
    return { ...base, action: 'skipped', reason: ambiguous };
  }
  const owned = ctx.ownership.entryFor(kind, first.object.id) !== undefined;
  if (ctx.policy.mode === 'observe') {
    return { ...base, id: first.object.id, owned, action: 'skipped', reason: `${OBSERVE_REASON} (would delete: ${reason})` };
  }
  const optIn = missingDeletionOptIn(module, ctx.policy);
  if (optIn !== undefined) return { ...base, id: first.object.id, owned, action: 'skipped', reason: `${reason}; not deleted: ${optIn}` };
  return { ...base, id: first.object.id, owned, ...reasons(reason), ...warned(module) };
}

/** The loud warning a delete of this kind carries (a dataset's data goes with it), if any. */
function warned(module: KindModule): { warning?: string } {
  return module.deletionWarning === undefined ? {} : { warning: module.deletionWarning };
}

function countBy<T>(items: Iterable<T>, keyOf: (item: T) => KindName): Map<KindName, number> {
  const counts = new Map<KindName, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

/**
 * The live state without the objects the inventory marks retired (an API token replaced by a newer
 * one of the same name, still working for its grace period): they are no second object of the key.
 */
function withoutRetired(live: LiveState, inventory: Inventory): { live: LiveState; retired: { object: LiveObject; until: string }[] } {
  const until = new Map(inventory.entries.filter((e) => e.retiredUntil !== undefined).map((e) => [`${e.kind}\u0000${e.id}`, e.retiredUntil ?? '']));
  if (until.size === 0) return { live, retired: [] };
  const objects: LiveState['objects'] = {};
  const retired: { object: LiveObject; until: string }[] = [];
  for (const kind of KIND_NAMES) {
    const list = live.objects[kind];
    if (!list) continue;
    objects[kind] = list.filter((object) => {
      const end = until.get(`${kind}\u0000${object.id}`);
      if (end !== undefined) retired.push({ object, until: end });
      return end === undefined;
    });
  }
  return { live: { ...live, objects }, retired };
}

/**
 * A retired object still listed after its grace period: deleted, as nothing should use it any more
 * (and a regenerate that never reached the server left the old object working).
 */
function planRetired(object: LiveObject, until: string, ctx: Context): Change | undefined {
  if (!ctx.now || Date.parse(until) > ctx.now.getTime() || ctx.policy.mode === 'observe') return undefined;
  const module = KINDS[object.kind];
  if (!module.remove) return undefined;
  const { name } = module.fromWire(object.raw, () => undefined);
  return {
    kind: object.kind,
    key: `${module.keyOf(name, {})} (retired ${object.id})`,
    name,
    id: object.id,
    action: 'delete',
    reason: `replaced by a newer ${object.kind}; its grace period ended at ${until}`,
    diffs: [],
    dependsOn: [],
    level: module.level,
    owned: true,
  };
}

export function planChanges(desired: Desired, allLive: LiveState, inventory: Inventory, policy: Policy, context: PlanContext = {}): Plan {
  const { memo, measure = (_phase, work) => work() } = context;
  const { live, retired } = withoutRetired(allLive, inventory);
  const liveIndex = indexLive(live, memo);
  const ownership = ownershipOf(inventoryWithBase(inventory, context.removals, liveIndex), memo);
  const declared = new ByKind<true>();
  const ctx: Context = {
    ...context,
    live,
    reportedAddOns: new Set(),
    liveIndex,
    ownership,
    inventory,
    policy,
    diagnostics: [],
    removed: new Set((context.removals?.resources ?? []).map((r) => changeRef(r.kind, r.key))),
    baseLabel: context.removals?.label ?? 'the base',
    declared,
    renamedAway: new ByKind<true>(),
  };

  for (const r of desired.resources) declared.set(r.kind, r.key, true);
  const declaredTwice = new Set(desired.resources.filter((r) => {
    const whole = KINDS[r.kind].sameObjectsAs;
    return whole !== undefined && declared.has(whole, r.key);
  }));
  // A key a kind manages a part of (UserRole) is declared for the kind that owns the whole (User).
  for (const r of desired.resources) {
    const whole = KINDS[r.kind].sameObjectsAs;
    if (whole !== undefined && !declared.has(whole, r.key)) declared.set(whole, r.key, true);
  }
  const { selection } = context;
  const planned = selection ? desired.resources.filter((r) => isSelected(selection, r)) : desired.resources;
  if (selection) ctx.diagnostics.push(...unmatchedSelection(selection, desired.resources));
  const items: Ordered[] = [];
  const changeOf = new ByKind<Change>();
  const creates: PlannedCreate[] = [];
  for (const resource of planned) {
    const change = declaredTwice.has(resource) ? refuseDeclaredTwice(resource, ctx) : planDeclaredOnce(resource, ctx, memo);
    describeRename(change);
    items.push({ change, removal: false });
    changeOf.set(resource.kind, resource.key, change);
    if (change.action === 'create') creates.push({ resource, spec: KINDS[resource.kind].normalize?.(resource.spec) ?? resource.spec, change, hashKey: inventory.hashKey });
  }

  // A subset never prunes: what lies outside it is not looked at.
  const undeclared: Undeclared[] = [];
  for (const kind of selection ? [] : KIND_NAMES) {
    for (const [key, entries] of liveIndex.byKey.get(kind) ?? []) {
      if (declared.has(kind, key) || ctx.renamedAway.has(kind, key)) continue;
      const change = planUndeclared(kind, entries, ctx);
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
    liveCount: countBy(liveIndex.entries, (e) => e.kind),
    desiredCount: countBy(desired.resources, (r) => r.kind),
    ownedCount: countBy(
      liveIndex.entries.filter((e) => ownership.entryFor(e.kind, e.object.id)),
      (e) => e.kind,
    ),
  });
  const { held, approval } = approveHeld(changes, liveIndex, inventory.hashKey, context.approve);
  if (approval?.released === true) refusals.length = 0;

  // Housekeeping of wsync's own replaced objects, outside the delete budget (applied above).
  for (const { object, until } of retired) {
    const change = planRetired(object, until, ctx);
    if (change) items.push({ change, removal: true });
  }

  // References are checked last: they need to know which targets this plan creates or deletes.
  measure('references', () => {
    const names = nameIndexFrom(desired, liveIndex);
    const deleted = new Set(changes.filter((c) => c.action === 'delete' && c.id).map((c) => `${c.kind}/${c.id}`));
    for (const resource of planned) {
      // An abandoned object is never written: what it refers to is no longer wsync's business.
      if (isAbandoned(resource)) continue;
      const module = KINDS[resource.kind];
      const spec = module.normalize?.(resource.spec) ?? resource.spec;
      const check = checkReferences(resource, spec, {
        names,
        changeFor: (kind, key) => changeOf.get(kind, key),
        deleted,
        unavailable: (kind) => live.unavailable?.[kind],
      });
      ctx.diagnostics.push(...check.diagnostics);
      const change = changeOf.get(resource.kind, resource.key);
      if (change) change.dependsOn = check.dependsOn;
    }
  });

  const ordered = orderChanges(items);
  const summary = Object.fromEntries(ACTIONS.map((a) => [a, 0])) as Record<Action, number>;
  for (const change of ordered) summary[change.action] += 1;
  return withLazyFingerprint(
    { version: 1, changes: ordered, diagnostics: sortDiagnostics(ctx.diagnostics), refusals, summary, ...(held ? { held } : {}), ...(approval ? { approval } : {}) },
    () => fingerprintInputs(desired, live, liveIndex),
  );
}

/**
 * The plan with its fingerprint made on first read: it hashes every declared and live object, and
 * only a saved or JSON plan needs it (text and markdown plans, the daemon's reconciles never read
 * it). Enumerable, so JSON.stringify and a spread see it as a plain field.
 */
function withLazyFingerprint(plan: Omit<Plan, 'fingerprint'>, make: () => PlanFingerprint): Plan {
  let made: PlanFingerprint | undefined;
  let inputs: (() => PlanFingerprint) | undefined = make;
  return Object.defineProperty(plan, 'fingerprint', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (made === undefined && inputs) {
        made = inputs();
        // The inputs are the whole desired and live state: not kept once the fingerprint is made.
        inputs = undefined;
      }
      return made as PlanFingerprint;
    },
    set: (value: PlanFingerprint) => {
      made = value;
      inputs = undefined;
    },
  }) as Plan;
}
