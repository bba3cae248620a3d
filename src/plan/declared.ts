// The change of one declared resource: a pure function of the resource and of `DeclaredInputs`,
// which are all it reads of the live state, the inventory, the policy and the context. The memo
// (plan-memo.ts) compares exactly these inputs, so a reuse gives what planning again gives.
import { formatDuration } from '../core/duration.js';
import { matchesPattern, pointerSegments } from '../core/json-paths.js';
import { changeRef, type Change, type DesiredResource, type Diagnostic, type FieldDiff, type InventoryEntry, type JsonObject, type KindName, type LiveState, type Policy } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import { planAbandoned } from './abandon.js';
import { ignoredFields, isAbandoned, isIssuedSecretHeldElsewhere, isObserved, mayDetachUnlisted, rotationGraceMs } from './annotations.js';
import { compareSpecs, type Comparison } from './compare.js';
import { dataLossOf } from './data-loss.js';
import { specPointer } from './fingerprint.js';
import type { LiveEntry } from './live-index.js';
import { droppedUnlistedIds, unlistedDropMessage } from './unlisted-ids.js';
import { NO_DEPENDENCIES } from './references.js';
import { nameDiff, RENAMED_FROM_POINTER, renameSourceOf, type RenameLookup, type RenameSource } from './renames.js';
import { mayBeUnseen } from './unseen.js';

export const OBSERVE_REASON = 'observe mode: drift reported, not applied';
const SECRET_UNKNOWN_REASON = 'sensitive value not known; will be written';
const NO_PATHS: readonly string[][] = Object.freeze([]);

/** Whether the resource's kind, and its dataset, were listed. */
export type ListedState = 'listed' | 'kind not listed' | 'dataset not listed';

/** Everything a declared resource's change depends on besides the resource itself. */
export interface DeclaredInputs {
  /** The live objects with the resource's kind and key (more than one: ambiguous). */
  matches: readonly LiveEntry[];
  /** What its `wsync/renamed-from` asks for: the owned object of the old key it is planned against, or why not. */
  rename: RenameSource;
  /** The inventory entry of the one match (the renamed object's, for a rename), when wsync owns it. */
  owner: InventoryEntry | undefined;
  listed: ListedState;
  policy: Policy;
  /** The inventory's key for secret hashes ('' without a state directory). */
  hashKey: string;
  /** Whether the resource's issued secret is held on disk (undefined: not known), and whether its issue was interrupted. */
  secret: { held: boolean | undefined; pending: boolean };
  /** Why a create may make a second object the list does not show (plan/unseen.ts). */
  unseen: string | undefined;
  /** When the plan is made: only a replace with a grace period reads it. */
  now: Date | undefined;
}

/** What the planner knows when it plans a declared resource, from which its inputs are taken. */
export interface DeclaredContext {
  live: LiveState;
  renames: RenameLookup;
  matchesOf: (kind: KindName, key: string) => readonly LiveEntry[];
  ownerOf: (kind: KindName, id: string) => InventoryEntry | undefined;
  policy: Policy;
  hashKey: string;
  heldSecrets?: ReadonlySet<string>;
  pendingSecrets?: ReadonlySet<string>;
  now?: Date;
}

export function specOf(resource: DesiredResource): JsonObject {
  return KINDS[resource.kind].normalize?.(resource.spec) ?? resource.spec;
}

/** The secret input of a kind that issues none (shared: the memo compares its members). */
const NO_ISSUED_SECRET: DeclaredInputs['secret'] = Object.freeze({ held: undefined, pending: false });

/** The inputs of `resource`'s change. */
export function declaredInputs(resource: DesiredResource, ctx: DeclaredContext): DeclaredInputs {
  const module = KINDS[resource.kind];
  const matches = ctx.matchesOf(resource.kind, resource.key);
  const rename = renameSourceOf(resource, specOf(resource), ctx.renames);
  const planned = rename.type === 'rename' ? [rename.from] : matches;
  const [first] = planned;
  const ref = module.issuedSecret === undefined ? '' : changeRef(resource.kind, resource.key);
  return {
    matches,
    rename,
    owner: first && planned.length === 1 ? ctx.ownerOf(resource.kind, first.object.id) : undefined,
    listed: listedState(resource, ctx.live),
    policy: ctx.policy,
    hashKey: ctx.hashKey,
    secret: ref === '' ? NO_ISSUED_SECRET : { held: ctx.heldSecrets?.has(ref), pending: ctx.pendingSecrets?.has(ref) === true },
    unseen: planned.length === 0 && module.create ? mayBeUnseen(module, resource, specOf(resource), ctx.live) : undefined,
    now: ctx.now,
  };
}

function listedState(resource: DesiredResource, live: LiveState): ListedState {
  if (!live.listedKinds.includes(resource.kind)) return 'kind not listed';
  const module = KINDS[resource.kind];
  if (!module.datasetOf) return 'listed';
  const dataset = module.datasetOf(specOf(resource));
  return (live.listedDatasets[resource.kind] ?? []).includes(dataset) ? 'listed' : 'dataset not listed';
}

export function isServiceManaged(module: KindModule, entry: LiveEntry): boolean {
  return module.managedByService?.(entry.object.raw) ?? false;
}

export function ambiguityReason(entries: readonly LiveEntry[]): string {
  const ids = entries.map((e) => e.object.id).join(', ');
  return `ambiguous: ${entries.length} live objects have this key (ids ${ids}); resolve by hand`;
}

/** `{ reason }` joined from the reasons given, or nothing (so no `reason: undefined` member). */
export function reasons(...given: (string | undefined)[]): { reason?: string } {
  const present = given.filter((r): r is string => r !== undefined && r !== '');
  return present.length > 0 ? { reason: present.join('; ') } : {};
}

function locatedIn(resource: DesiredResource, pointer: string): Pick<Diagnostic, 'file' | 'line' | 'column'> {
  const at = resource.locations[pointer] ?? resource.source;
  return { file: at.file, line: at.line, column: at.column };
}

/** A diagnostic of `resource` at `pointer` (its document when '') into `diagnostics`. */
function diagnose(
  diagnostics: Diagnostic[],
  resource: DesiredResource,
  code: string,
  message: string,
  pointer = '',
  field?: string,
  severity: Diagnostic['severity'] = 'error',
): void {
  diagnostics.push({ severity, code, kind: resource.kind, name: resource.name, ...(field === undefined ? {} : { field }), message, ...locatedIn(resource, pointer) });
}

function skipped(change: Change, reason: string): Change {
  return { ...change, action: 'skipped', reason };
}

/**
 * What a change of no diffs holds, one frozen list for every such change: a plan's changes are kept
 * to its end, most of them no-ops, and nothing adds to a change's list (a change with diffs is given
 * a list of its own). So for its dependencies (NO_DEPENDENCIES).
 */
const NO_DIFFS = Object.freeze([]) as unknown as FieldDiff[];

function noopChange(resource: DesiredResource): Change {
  const module = KINDS[resource.kind];
  return { kind: resource.kind, key: resource.key, name: resource.name, action: 'noop', diffs: NO_DIFFS, source: resource.source, dependsOn: NO_DEPENDENCIES, level: module.level, owned: false };
}

/**
 * A resource of a kind the workspace cannot list (an add-on it lacks): skipped, its add-on
 * reported once per plan (`reported`), whichever resource comes first.
 */
export function planUnavailable(resource: DesiredResource, unavailable: string, reported: Set<string>, diagnostics: Diagnostic[]): Change {
  const module = KINDS[resource.kind];
  const addOn = module.addOn ?? resource.kind;
  if (!reported.has(addOn)) {
    reported.add(addOn);
    const kinds = KIND_NAMES.filter((kind) => KINDS[kind].addOn === addOn).join(' and ');
    const message =
      `${addOn} is not available on this workspace (${unavailable}), or the token may not read it: this tree declares ${kinds} resources, ` +
      `which need it. Enable ${addOn} for the workspace, use a token that may read it, or remove them.`;
    diagnose(diagnostics, resource, 'add-on-unavailable', message);
  }
  return skipped(noopChange(resource), `needs ${addOn}, which this workspace does not offer (see the error)`);
}

/** A resource whose key is also declared as the kind it manages a part of (UserRole and User of one email). */
export function refuseDeclaredTwice(resource: DesiredResource, diagnostics: Diagnostic[]): Change {
  const whole = KINDS[resource.kind].sameObjectsAs ?? resource.kind;
  const message =
    `${resource.kind} "${resource.key}" is also declared as a ${whole}: one object, two owners. ` +
    `Keep the ${whole} (it sets the role too) or the ${resource.kind}, not both`;
  const { file, line, column } = resource.source;
  diagnostics.push({ severity: 'error', code: 'declared-twice', kind: resource.kind, name: resource.name, message, file, line, column });
  return { ...noopChange(resource), action: 'refused', reason: `also declared as a ${whole} (see the error)` };
}

/** What a declared resource's plan has found so far, handed to the steps that finish it. */
interface Planning {
  resource: DesiredResource;
  module: KindModule;
  spec: JsonObject;
  inputs: DeclaredInputs;
  change: Change;
  comparison: Comparison;
  observed: boolean;
  /** Where its diagnostics go (`diagnose`). */
  diagnostics: Diagnostic[];
}

/** The change of a declared resource of a kind the workspace offers; its diagnostics go to `diagnostics`. */
export function planDeclared(resource: DesiredResource, inputs: DeclaredInputs, diagnostics: Diagnostic[]): Change {
  const module = KINDS[resource.kind];
  const spec = specOf(resource);
  const change = noopChange(resource);

  if (inputs.listed === 'kind not listed') {
    const message = `${resource.kind} objects were not read from the workspace, so this resource cannot be planned`;
    diagnose(diagnostics, resource, 'not-listed', message);
    return skipped(change, message);
  }
  if (inputs.listed === 'dataset not listed') {
    // The reader lists every dataset in play; one that does not exist reads as holding nothing, and
    // the reference check says whether it is declared or live.
    const message = `the ${resource.kind} objects of dataset "${module.datasetOf?.(spec) ?? ''}" were not read from the workspace, so this resource cannot be planned`;
    diagnose(diagnostics, resource, 'not-listed', message, '/spec/dataset', 'spec.dataset');
    return skipped(change, message);
  }
  const { rename, owner } = inputs;
  if (rename.type === 'problem') {
    const { severity, message } = rename;
    diagnose(diagnostics, resource, 'renamed-from', message, RENAMED_FROM_POINTER, 'metadata.annotations.wsync/renamed-from', severity);
    if (severity === 'error') return { ...change, action: 'refused', reason: 'wsync/renamed-from cannot be carried out (see the error)' };
  }
  const matches = rename.type === 'rename' ? [rename.from] : inputs.matches;
  if (rename.type === 'rename') change.renamedFrom = rename.fromKey;
  if (matches.length > 1) {
    const reason = ambiguityReason(matches);
    diagnose(diagnostics, resource, 'ambiguous', reason, '', undefined, 'warning');
    return skipped(change, reason);
  }
  const [match] = matches;
  if (match && isServiceManaged(module, match)) {
    const reason = `managed by the service (id ${match.object.id}): wsync never writes, adopts or deletes it`;
    diagnose(diagnostics, resource, 'service-managed', `${resource.kind} "${resource.key}" is ${reason}; remove it from the files or give it another name`, '', undefined, 'warning');
    return { ...skipped(change, reason), id: match.object.id };
  }
  if (isAbandoned(resource)) return planAbandoned(change, match?.object.id, owner !== undefined, inputs.policy, OBSERVE_REASON);
  const comparison = compareSpecs({
    module,
    desired: spec,
    live: match?.spec,
    liveRaw: match?.object.raw,
    // Ignored fields are tolerated drift; a create sends them all the same, so its preview shows them.
    ignore: match ? ignoredFields(resource) : NO_PATHS,
    interpolated: resource.interpolated.length === 0 ? NO_PATHS : resource.interpolated.map((p) => pointerSegments(specPointer(p))),
    secrets: { hashKey: inputs.hashKey, recorded: owner?.secretHashes },
  });
  if (rename.type === 'rename') comparison.diffs.unshift(nameDiff(rename.from, resource));
  if (comparison.diffs.length > 0 && module.outline) change.outline = module.outline(comparison.diffs);
  const planning: Planning = { resource, module, spec, inputs, change, comparison, observed: isObserved(resource, inputs.policy), diagnostics };
  if (!match) return planCreate(planning);
  return planExisting(planning, match);
}

function missingReason(module: KindModule, resource: DesiredResource, spec: JsonObject): string {
  if (module.missingReason) return module.missingReason(resource.name, spec);
  if (module.datasetOf) return `${module.kind} "${resource.name}" does not exist in dataset "${module.datasetOf(spec)}" yet`;
  return `${module.kind} objects cannot be created through the API`;
}

function planCreate(p: Planning): Change {
  const { resource, module, spec, change } = p;
  const { diffs } = p.comparison;
  if (!module.create && module.missingIsError) {
    diagnose(p.diagnostics, p.resource, 'missing', `${resource.kind} "${resource.key}": ${missingReason(module, resource, spec)}`);
    return { ...change, action: 'refused', reason: 'does not exist live and cannot be created (see the error)' };
  }
  if (!module.create) return { ...change, action: 'skipped', reason: missingReason(module, resource, spec) };
  if (p.inputs.unseen !== undefined) {
    diagnose(p.diagnostics, p.resource, 'may-exist-unseen', p.inputs.unseen);
    return { ...change, action: 'refused', diffs, reason: 'not in the list, but the token may not see it there (see the error)' };
  }
  if (p.observed) return { ...change, action: 'skipped', diffs, reason: OBSERVE_REASON };
  return { ...change, action: 'create', diffs, ...reasons(module.writeReason?.(spec)) };
}

function planExisting(p: Planning, match: LiveEntry): Change {
  const { resource, module, inputs, observed } = p;
  const { diffs } = p.comparison;
  const entry = inputs.owner;
  // Completed in place, not spread into a copy: the copy was a large share of a no-op plan
  // (docs/incremental.md, "Figures behind the code").
  const existing: Change = p.change;
  existing.id = match.object.id;
  existing.owned = entry !== undefined;
  existing.diffs = diffs;
  const secretMissing = module.issuedSecret !== undefined && inputs.secret.held === false && !isIssuedSecretHeldElsewhere(resource);
  if (secretMissing && !observed) {
    const interrupted = inputs.secret.pending;
    if (!entry && !interrupted) {
      const message =
        `${resource.kind} "${resource.key}" exists live (id ${match.object.id}) but is not owned by wsync, and wsync holds no secret for it: ` +
        'adopting it would leave a token whose secret nobody here has. If someone else holds it, annotate the resource ' +
        '"wsync/issued-secret: held-elsewhere"; if a wsync run stopped after creating it, delete the token and apply again';
      diagnose(p.diagnostics, p.resource, 'adoption-without-secret', message);
      return { ...existing, action: 'refused', reason: 'exists live, not owned, and no secret for it is held (see the error)' };
    }
    if (module.replace) {
      const why = interrupted && !entry ? 'regenerate: secret missing (a run stopped before saving it)' : 'regenerate: secret missing';
      return { ...existing, action: 'replace', ...graceOf(p, match), ...reasons(why, graceReason(p, match)) };
    }
  }
  if (diffs.length > 0 && observed) return { ...existing, action: 'skipped', reason: OBSERVE_REASON };
  if (!entry && !observed && !inputs.policy.adopt) {
    diagnose(p.diagnostics, p.resource, 'adoption-refused', `${resource.kind} "${resource.key}" exists live (id ${match.object.id}) but is not owned by wsync, and --no-adopt forbids adopting it`);
    return { ...existing, action: 'refused', reason: 'not owned by wsync and adoption is off (--no-adopt)' };
  }
  if (diffs.length === 0) {
    existing.action = entry || observed ? 'noop' : 'adopt';
    return existing;
  }
  const dropped = mayDetachUnlisted(resource) ? [] : droppedUnlistedIds(module, p.spec, match.spec, diffs);
  if (dropped.length > 0) {
    const field = dropped[0]?.field ?? '';
    diagnose(p.diagnostics, p.resource, 'unlisted-reference-dropped', unlistedDropMessage(resource.kind, resource.key, dropped), `/spec/${field}`, `spec.${field}`);
    return { ...existing, action: 'refused', reason: 'would drop references the lists do not show (see the error)' };
  }
  return planUpdate(p, match, existing);
}

function planUpdate(p: Planning, match: LiveEntry, existing: Change): Change {
  const { resource, module, spec, inputs } = p;
  const { diffs, secretUnknown } = p.comparison;
  const entry = inputs.owner;
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
      return { ...existing, action: 'replace', ...graceOf(p, match), ...reasons(module.replace.reason, graceReason(p, match), immutableReason, unknownReason) };
    }
    return { ...existing, action: 'skipped', reason: `${resource.kind} objects cannot be changed through the API` };
  }
  const loss = dataLossOf(module, spec, match.spec, ignoredFields(resource), inputs.policy);
  const write = { action: entry ? 'update' : 'adopt', ...reasons(module.writeReason?.(spec), immutableReason, unclearedReason, unknownReason) } as const;
  if (loss?.refused !== undefined) {
    // Held: an approval of the plan's held changes (apply --approve) gives the write back.
    return { ...existing, action: 'refused', warning: loss.warning, heldFrom: write, ...reasons(loss.refused, immutableReason, unclearedReason) };
  }
  const warning = loss === undefined ? {} : { warning: loss.warning };
  return { ...existing, ...write, ...warning };
}

/** For a replace whose old object keeps working a while: how long, and until when when the time is known. */
function graceOf(p: Planning, match: LiveEntry): Pick<Change, 'grace'> {
  const replacement = p.module.replace;
  if (!replacement?.graceful) return {};
  const ms = rotationGraceMs(p.resource, p.inputs.policy);
  const { now } = p.inputs;
  const until = now && replacement.oldValidUntil ? replacement.oldValidUntil(now, ms, match.object.raw) : undefined;
  return { grace: until ? { ms, oldValidUntil: until.toISOString() } : { ms } };
}

function graceReason(p: Planning, match: LiveEntry): string | undefined {
  const { grace } = graceOf(p, match);
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
