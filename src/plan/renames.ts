// Renames (#27 item 5): a declaration that says `wsync/renamed-from: OLD` updates the owned object
// OLD in place, keeping its id; a create that matches an owned, no longer declared object field
// for field except the name is said to be a rename, maybe ("renamed?").
import type { ByKind } from '../core/by-kind.js';
import { changeRef, type Change, type DesiredResource, type FieldDiff, type InventoryEntry, type JsonObject } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import { ANNOTATION_RENAMED_FROM, renamedFrom } from './annotations.js';
import { compareSpecs } from './compare.js';
import { specPointer } from './fingerprint.js';
import { liveWithKey, type LiveEntry, type LiveIndex } from './live-index.js';
import type { Ownership } from './ownership.js';
import { pointerSegments } from '../core/json-paths.js';

/** Where a file's `wsync/renamed-from` is, as a JSON Pointer of the document. */
export const RENAMED_FROM_POINTER = `/metadata/annotations/${ANNOTATION_RENAMED_FROM.replace('/', '~1')}`;

/** The path of the name's diff: not a spec field, so nothing compares or filters it as one. */
export const NAME_DIFF_PATH = 'metadata.name';

export interface RenameLookup {
  liveIndex: LiveIndex;
  ownership: Ownership;
  /** Every declared key (a rename's old name must not be one). */
  declared: Pick<ByKind<unknown>, 'has'>;
  /** The declarations renamed from each old key: one object can take one new name. */
  renamedFromBy?: Pick<ByKind<readonly DesiredResource[]>, 'get'>;
}

/** The owned object a declaration renames, or why it cannot, or nothing to do. */
export type RenameSource =
  | { type: 'none' }
  | { type: 'rename'; from: LiveEntry; fromKey: string }
  | { type: 'problem'; severity: 'error' | 'warning'; message: string };

const NONE: RenameSource = { type: 'none' };

/**
 * What `wsync/renamed-from: OLD` on `resource` (normalised spec `spec`) asks for. Nothing when the
 * annotation is absent, or when the new name already exists live (the rename is done: the
 * annotation may stay). Otherwise OLD must be one live object wsync owns, no longer declared, of
 * a kind whose name an update can change.
 */
export function renameSourceOf(resource: DesiredResource, spec: JsonObject, lookup: RenameLookup): RenameSource {
  const old = renamedFrom(resource);
  if (old === undefined) return NONE;
  const module = KINDS[resource.kind];
  const fromKey = module.keyOf(old, spec);
  const what = `${ANNOTATION_RENAMED_FROM}: "${old}"`;
  const olds = liveWithKey(lookup.liveIndex, resource.kind, fromKey);
  if (liveWithKey(lookup.liveIndex, resource.kind, resource.key).length > 0) {
    if (olds.length === 0 || fromKey === resource.key) return NONE;
    return problem('warning', `${what}: ${resource.kind} "${resource.key}" exists already, so nothing is renamed; ${resource.kind} "${fromKey}" is left as it is. Remove the annotation`);
  }
  if (!module.renamable) {
    return problem(
      'error',
      `${what}: ${resource.kind} objects cannot be renamed in place (their name is part of their id, or no update changes it). ` +
        `Remove the annotation: apply creates ${resource.kind} "${resource.key}", and --prune deletes "${fromKey}"`,
    );
  }
  const claimants = lookup.renamedFromBy?.get(resource.kind, fromKey) ?? [];
  if (claimants.length > 1) {
    const places = claimants.map((r) => `${r.kind}/${r.key} (${r.source.file}:${r.source.line})`).join(', ');
    return problem('error', `${what}: ${claimants.length} declarations are renamed from "${fromKey}" (${places}); one object can take only one new name`);
  }
  if (lookup.declared.has(resource.kind, fromKey)) {
    return problem('error', `${what}: ${resource.kind} "${fromKey}" is still declared; a rename takes the old name out of the files`);
  }
  const [from] = olds;
  if (from === undefined) {
    return problem('error', `${what} names no live ${resource.kind}: nothing to rename. Remove the annotation to create ${resource.kind} "${resource.key}" as a new object`);
  }
  if (olds.length > 1) {
    return problem('error', `${what} names ${olds.length} live ${resource.kind} objects (ids ${olds.map((e) => e.object.id).join(', ')}): resolve that by hand first`);
  }
  if (lookup.ownership.entryFor(resource.kind, from.object.id) === undefined) {
    return problem(
      'error',
      `${what}: ${resource.kind} "${fromKey}" (id ${from.object.id}) is not owned by wsync, and only what wsync owns is renamed. ` +
        `Declare it under its own name first (apply adopts it), then rename it`,
    );
  }
  return { type: 'rename', from, fromKey };
}

function problem(severity: 'error' | 'warning', message: string): RenameSource {
  return { type: 'problem', severity, message };
}

/** The diff that says the name changes (shown first; the spec's own diffs follow). */
export function nameDiff(from: LiveEntry, resource: DesiredResource): FieldDiff {
  return { path: NAME_DIFF_PATH, before: from.name, after: resource.name };
}

/** An in-place rename planned as an update says so first in its reason. */
export function describeRename(change: Change): void {
  if (change.renamedFrom === undefined || change.action !== 'update' || change.id === undefined) return;
  const said = `renamed from "${change.renamedFrom}" in place (${ANNOTATION_RENAMED_FROM}): an update that keeps id ${change.id}; the inventory moves to the new name`;
  change.reason = change.reason === undefined ? said : `${said}; ${change.reason}`;
}

/** A create of the plan, with what it was planned from. */
export interface PlannedCreate {
  resource: DesiredResource;
  /** The spec after the kind's normalize. */
  spec: JsonObject;
  change: Change;
  hashKey: string;
}

/** An owned object no file declares any more, and its plan change (kept, deleted or held). */
export interface Undeclared {
  entry: LiveEntry;
  owner: InventoryEntry;
  change: Change;
}

/**
 * Says "renamed?" on a create and an owned, no longer declared object of its kind whose fields are
 * all the same (the name aside): probably one object renamed in the files, which, left as it is,
 * becomes a second object now (and a delete with --prune).
 */
export function noteRenameCandidates(creates: readonly PlannedCreate[], undeclared: readonly Undeclared[]): void {
  const taken = new Set<Undeclared>();
  for (const create of creates) {
    const { resource, spec, hashKey } = create;
    const module = KINDS[resource.kind];
    const interpolated = resource.interpolated.map((p) => pointerSegments(specPointer(p)));
    const match = undeclared.find((u) => {
      if (u.entry.kind !== resource.kind || taken.has(u)) return false;
      const { diffs, secretUnknown } = compareSpecs({
        module,
        desired: spec,
        live: u.entry.spec,
        liveRaw: u.entry.object.raw,
        ignore: [],
        interpolated,
        secrets: { hashKey, recorded: u.owner.secretHashes },
      });
      return diffs.length === 0 && !secretUnknown;
    });
    if (match === undefined) continue;
    taken.add(match);
    const old = match.entry;
    const how = module.renamable
      ? `to rename it in place (same id, an update), annotate this declaration "${ANNOTATION_RENAMED_FROM}: ${old.name}"`
      : `${resource.kind} objects cannot be renamed in place, so apply creates this one${match.change.action === 'delete' ? ' and deletes the old one' : ''}`;
    create.change.renameCandidate = changeRef(old.kind, old.key);
    create.change.reason = joined(create.change.reason, `renamed? ${changeRef(old.kind, old.key)} (id ${old.object.id}), owned and no longer declared, has the same fields: ${how}`);
    match.change.renameCandidate = changeRef(resource.kind, resource.key);
    match.change.reason = joined(match.change.reason, `renamed? ${changeRef(resource.kind, resource.key)} is declared with the same fields`);
  }
}

function joined(reason: string | undefined, more: string): string {
  return reason === undefined || reason === '' ? more : `${reason}; ${more}`;
}
