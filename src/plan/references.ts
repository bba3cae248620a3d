// References by name (monitor -> notifiers, role -> members, user -> role, starred query -> owner):
// resolved against the declared resources and the unambiguous live objects of the target kind.
import { changeRef, type Change, type Desired, type DesiredResource, type Diagnostic, type JsonObject, type KindName, type LiveState } from '../core/types.js';
import { referencedId, UnresolvedReferenceError } from '../kinds/common.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { ByKind } from '../core/by-kind.js';
import { toPointer } from '../core/json-paths.js';
import { isBuiltinName, referenceNames, type ReferenceName } from '../kinds/reference-names.js';
import { suggestion } from '../core/suggest.js';
import type { Reference, ResolveName } from '../kinds/types.js';
import { indexLive, type LiveIndex } from './live-index.js';

export { resolveIdFromLive } from './live-index.js';

/** The natural key a reference name stands for (emails are lower-cased, as User keys are). */
export function referenceKey(target: KindName, name: string): string {
  return KINDS[target].keyOf(name, NO_SPEC);
}

/** The spec a reference name's key is read with: none (one shared empty object, not one per name). */
const NO_SPEC: JsonObject = Object.freeze({});

/**
 * (kind, natural key) -> live id, for the names references use. Ambiguous keys (two live objects)
 * resolve to nothing. Apply extends it with the ids of the objects it creates, in order, so that
 * later writes can resolve names of objects made earlier in the same run.
 */
export class NameIndex {
  private readonly ids = new ByKind<string>();
  private readonly ambiguousKeys = new ByKind<readonly string[]>();
  private readonly declaredKeys = new ByKind<true>();

  /** A ResolveName for KindModule.toWire. */
  readonly resolve: ResolveName = (target, name) => this.idOf(target, referenceKey(target, name));

  idOf(kind: KindName, key: string): string | undefined {
    return this.ids.get(kind, key);
  }

  /** Records the id of an object (e.g. one apply has just created or regenerated). */
  set(kind: KindName, key: string, id: string): void {
    this.ids.set(kind, key, id);
    this.ambiguousKeys.delete(kind, key);
  }

  /** The ids of the live objects sharing this key, when there is more than one. */
  ambiguousIds(kind: KindName, key: string): readonly string[] | undefined {
    return this.ambiguousKeys.get(kind, key);
  }

  markAmbiguous(kind: KindName, key: string, ids: readonly string[]): void {
    this.ids.delete(kind, key);
    this.ambiguousKeys.set(kind, key, [...ids]);
  }

  /** Every key of a kind this index knows, declared or live (for "did you mean"). */
  keysOf(kind: KindName): string[] {
    return [...new Set([...this.ids.keys(kind), ...this.ambiguousKeys.keys(kind), ...this.declaredKeys.keys(kind)])].sort();
  }

  isDeclared(kind: KindName, key: string): boolean {
    return this.declaredKeys.get(kind, key) === true;
  }

  declare(kind: KindName, key: string): void {
    this.declaredKeys.set(kind, key, true);
  }

  /** The key is no longer declared (a plan after an edit that removed it). */
  undeclare(kind: KindName, key: string): void {
    this.declaredKeys.delete(kind, key);
  }
}

/** The kinds some reference names: nothing asks the name index for another kind (a monitor by name). */
export const REFERENCED_KINDS: ReadonlySet<KindName> = new Set(KIND_NAMES.flatMap((kind) => KINDS[kind].references.map((r) => r.target)));

export function nameIndexFrom(desired: Desired, live: LiveIndex): NameIndex {
  const index = new NameIndex();
  const { resources } = desired;
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i] as DesiredResource;
    if (REFERENCED_KINDS.has(resource.kind)) index.declare(resource.kind, resource.key);
  }
  for (const [kind, perKey] of live.byKey) {
    if (!REFERENCED_KINDS.has(kind)) continue;
    for (const [key, entries] of perKey) {
      const [only] = entries;
      if (entries.length === 1 && only) index.set(kind, key, only.object.id);
      else index.markAmbiguous(kind, key, entries.map((e) => e.object.id));
    }
  }
  return index;
}

export function buildNameIndex(desired: Desired, live: LiveState): NameIndex {
  return nameIndexFrom(desired, indexLive(live));
}

/** One name in a spec that refers to another object. */
export interface ReferenceUse {
  readonly reference: Reference;
  /** The name as the (normalized) spec holds it. */
  readonly name: string;
  /** The target's natural key. */
  readonly key: string;
  /** `spec.notifiers[1]`, `spec.role`: for messages. */
  readonly label: string;
  /** `/spec/notifiers/1`: for the source location. */
  readonly pointer: string;
}

/** A use whose label and pointer, needed only when something is wrong with it, are made when asked. */
class Use implements ReferenceUse {
  constructor(
    readonly reference: Reference,
    private readonly at: ReferenceName,
    readonly key: string,
  ) {}

  get name(): string {
    return this.at.name;
  }

  /** `spec.notifiers[1]`, `spec.datasetCapabilities.checkout`. */
  get label(): string {
    return this.at.segments.reduce<string>((out, s) => (typeof s === 'number' ? `${out}[${s}]` : `${out}.${s}`), 'spec');
  }

  get pointer(): string {
    return toPointer(['spec', ...this.at.segments]);
  }
}

/**
 * The uses found in a spec, by the spec object: a spec is never changed once read, and the daemon's
 * file cache hands back the same objects edit after edit (finding them again for every resource was
 * a visible share of every reconcile: docs/incremental.md, "Figures behind the code").
 */
const NO_USES: readonly ReferenceUse[] = Object.freeze([]);
const usesOfSpec = new WeakMap<JsonObject, { kind: KindName; uses: readonly ReferenceUse[] }>();

export function referenceUses(kind: KindName, spec: JsonObject, keep = true): readonly ReferenceUse[] {
  // Uses that are not kept are not looked for either (a one-shot plan: every spec is new to it).
  const known = keep ? usesOfSpec.get(spec) : undefined;
  if (known?.kind === kind) return known.uses;
  const uses: ReferenceUse[] = [];
  const { references } = KINDS[kind];
  // Indexed loops: every resource passes here, and a cold `for...of` makes an iterator result per item.
  for (let r = 0; r < references.length; r++) {
    const reference = references[r] as Reference;
    const names = referenceNames(reference, spec);
    for (let i = 0; i < names.length; i++) {
      const at = names[i] as ReferenceName;
      const { name } = at;
      // `id:<id>` is sent as that id: nothing to resolve, and the service judges it.
      if (isBuiltinName(reference, name) || (reference.byId && referencedId(name) !== undefined)) continue;
      uses.push(new Use(reference, at, referenceKey(reference.target, name)));
    }
  }
  if (!keep) return uses;
  // Kept for as long as the spec: a copy holds no room for more (one a spec, for every spec of a tree).
  const kept = uses.length === 0 ? NO_USES : uses.slice();
  usesOfSpec.set(spec, { kind, uses: kept });
  return kept;
}

export interface ReferenceContext {
  names: NameIndex;
  /** The plan's change for a declared object. */
  changeFor(kind: KindName, key: string): Change | undefined;
  /** `Kind/id` of every live object the plan deletes. */
  deleted: ReadonlySet<string>;
  /** Why a kind could not be listed (an add-on the workspace lacks), or undefined (LiveState.unavailable). */
  unavailable?(kind: KindName): string | undefined;
  /**
   * Whether each spec's uses are kept for the plans after this one (default): the daemon's are
   * made of the same specs edit after edit; a one-shot plan reads them once and keeps nothing.
   */
  keepUses?: boolean;
}

/** The dependencies of a change that waits for nothing, one frozen list for all (nothing adds to a change's list). */
export const NO_DEPENDENCIES = Object.freeze([]) as unknown as string[];

export interface ReferenceCheck {
  diagnostics: Diagnostic[];
  /** `Kind/key` of changes that must run first (creates and replaces of referenced objects). */
  dependsOn: string[];
}

function locate(resource: DesiredResource, pointer: string): Pick<Diagnostic, 'file' | 'line' | 'column'> {
  const parent = pointer.slice(0, pointer.lastIndexOf('/'));
  const at = resource.locations[pointer] ?? resource.locations[parent] ?? resource.source;
  return { file: at.file, line: at.line, column: at.column };
}

/** An error of one use of a reference. */
function problemOf(resource: DesiredResource, use: ReferenceUse, code: string, message: string): Diagnostic {
  return { severity: 'error', code, kind: resource.kind, name: resource.name, field: use.label, message, ...locate(resource, use.pointer) };
}

export function checkReferences(resource: DesiredResource, spec: JsonObject, context: ReferenceContext): ReferenceCheck {
  const diagnostics: Diagnostic[] = [];
  // Made when a first use must wait: most resources refer only to objects that exist.
  let dependsOn: Set<string> | undefined;
  const uses = referenceUses(resource.kind, spec, context.keepUses !== false);
  for (let i = 0; i < uses.length; i++) {
    const use = uses[i] as ReferenceUse;
    const { target } = use.reference;
    const ambiguous = context.names.ambiguousIds(target, use.key);
    if (ambiguous) {
      diagnostics.push(problemOf(resource, use,
        'ambiguous-reference',
        `${use.label}: ${target} "${use.name}" is ambiguous: ${ambiguous.length} live objects have this key (ids ${ambiguous.join(', ')}); resolve by hand`,
      ));
      continue;
    }
    if (context.names.isDeclared(target, use.key)) {
      const change = context.changeFor(target, use.key);
      // Declared but not planned: outside a subset (--target, --kind). Live, it is referred to as it is.
      if (change === undefined && context.names.idOf(target, use.key) === undefined) {
        diagnostics.push(problemOf(resource, use,
          'unselected-reference',
          `${use.label}: ${target} "${use.name}" is declared but not selected (--target, --kind) and does not exist live yet, ` +
            `so this cannot be applied without it: select it too (--target ${target}/${use.name})`,
        ));
        continue;
      }
      // An object that does not exist yet (or gets a new id) must be written before the reference to it.
      const pending = change !== undefined && (change.id === undefined || change.action === 'replace');
      if (pending && !use.reference.deferrable) (dependsOn ??= new Set()).add(changeRef(target, use.key));
      continue;
    }
    const id = context.names.idOf(target, use.key);
    if (id === undefined) {
      const why = context.unavailable?.(target);
      const hint = suggestion(use.key, context.names.keysOf(target));
      const missing = new UnresolvedReferenceError(target, use.name, use.label).message + (why ? ` (${target} objects could not be read: ${why})` : '');
      if (!use.reference.openValues) {
        diagnostics.push(problemOf(resource, use, 'unresolved-reference', `${missing}${hint}`));
        continue;
      }
      // The service may know the value (a base role newer than this release): it judges the write.
      const { builtins: values, unknownNote } = use.reference;
      const builtins = values?.length && unknownNote === undefined ? ` nor a built-in one (${values.join(', ')})` : '';
      const note = unknownNote ?? 'it is sent as written, and the workspace may refuse it';
      diagnostics.push({
        severity: 'warning',
        code: 'unknown-value',
        kind: resource.kind,
        name: resource.name,
        field: use.label,
        message: `${missing}${builtins}; ${note}${hint}`,
        ...locate(resource, use.pointer),
      });
    } else if (context.deleted.has(`${target}/${id}`)) {
      diagnostics.push(problemOf(resource, use,
        'reference-to-deleted',
        `${use.label}: ${target} "${use.name}" is no longer declared and this plan deletes it; declare it again or stop referring to it`,
      ));
    }
  }
  return { diagnostics, dependsOn: dependsOn ? [...dependsOn].sort() : NO_DEPENDENCIES };
}
