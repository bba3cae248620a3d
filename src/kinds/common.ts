import { cloneJson, isEmptyValue } from '../core/json.js';
import { getAt, withValueAt } from '../core/json-paths.js';
import type { JsonObject, JsonValue, KindName } from '../core/types.js';
import type { Reference, ResolveId, ResolveName } from './types.js';

export const SERVER_OWNED_COMMON = ['id', 'createdAt', 'createdBy', 'updatedAt'] as const;

/**
 * Capabilities keyed by dataset name (Role, ApiToken): each key but `*` names a Dataset. The
 * service takes a dataset that does not exist (yet): the capability applies once one of that name
 * is made (docs/wire-contract.md "Capabilities on datasets that do not exist yet").
 */
export const DATASET_CAPABILITIES_REFERENCE: Reference<'datasetCapabilities'> = {
  field: 'datasetCapabilities',
  wireField: 'datasetCapabilities',
  target: 'Dataset',
  many: true,
  keyed: true,
  builtins: ['*'],
  oftenUndeclared: true,
  openValues: true,
  unknownNote: 'the service keeps the capability as written, and it applies once a dataset of that name exists',
};

/** A name in a spec that names no declared or live object of the target kind. */
export class UnresolvedReferenceError extends Error {
  constructor(
    readonly target: KindName,
    readonly referenced: string,
    readonly field: string,
  ) {
    super(`${field}: no ${target} named "${referenced}" is declared or exists live`);
    this.name = 'UnresolvedReferenceError';
  }
}

/** Copies the listed keys that are present (not undefined) from `source`. */
export function pickDefined(source: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function asString(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asStringArray(value: JsonValue | undefined): string[] {
  const out: string[] = [];
  if (!Array.isArray(value)) return out;
  // A loop, not filter: this runs for every live object's list of ids, and a callback is made per call.
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (typeof item === 'string') out.push(item);
  }
  return out;
}

/**
 * How a file names an object by its id, `id:<id>`, where a reference allows it (`Reference.byId`):
 * an object the target's list does not show (the token may not see it), kept so that a write
 * does not drop it (docs/wire-contract.md "References the lists do not show").
 */
export const ID_REFERENCE_PREFIX = 'id:';

/** The id an `id:<id>` name gives, else undefined (an ordinary name). */
export function referencedId(name: string): string | undefined {
  return name.startsWith(ID_REFERENCE_PREFIX) && name.length > ID_REFERENCE_PREFIX.length ? name.slice(ID_REFERENCE_PREFIX.length) : undefined;
}

export function resolveOne(resolve: ResolveName, target: KindName, name: string, field: string): string {
  const id = referencedId(name) ?? resolve(target, name);
  if (id === undefined) throw new UnresolvedReferenceError(target, name, field);
  return id;
}

export function resolveMany(resolve: ResolveName, target: KindName, names: string[], field: string): string[] {
  return names.map((name) => resolveOne(resolve, target, name, field));
}

/** Ids to names; an id that names nothing known stays as the id, so the diff shows it as is. */
export function namesOf(resolveId: ResolveId, target: KindName, ids: string[]): string[] {
  return ids.map((id) => resolveId(target, id) ?? id);
}

/** Ids to names, for a reference that takes ids (`Reference.byId`): an id nothing lists becomes `id:<id>`. */
export function namesOrIdsOf(resolveId: ResolveId, target: KindName, ids: readonly string[]): string[] {
  // A loop, not map: every live monitor passes here, and a callback is made per call. The list is
  // kept with the live object's reading: a copy of `ids`, exactly as long, not one filled by push,
  // which keeps room for 16 more.
  const names = ids.slice();
  for (let i = 0; i < names.length; i++) {
    const id = names[i] as string;
    names[i] = resolveId(target, id) ?? `${ID_REFERENCE_PREFIX}${id}`;
  }
  return names;
}

/** Whether a list of names holds an `id:<id>` (alignIdReferences has something to put back only then). */
export function namesAnyById(desired: JsonValue | undefined): boolean {
  if (!Array.isArray(desired)) return false;
  for (let i = 0; i < desired.length; i++) {
    const name = desired[i];
    if (typeof name === 'string' && referencedId(name) !== undefined) return true;
  }
  return false;
}

/**
 * The live names of a by-id reference (`names`, in the order of the wire's `ids`) with each object
 * the file names as `id:<id>` put back in that form, so that naming a listed object by its id is
 * no drift.
 */
export function alignIdReferences(desired: JsonValue | undefined, names: JsonValue | undefined, ids: readonly string[]): JsonValue | undefined {
  if (!Array.isArray(desired) || !Array.isArray(names) || names.length !== ids.length) return names;
  // A file rarely names an object by its id: then there is nothing to put back.
  if (!namesAnyById(desired)) return names;
  const wanted = new Set(desired.filter((name): name is string => typeof name === 'string' && referencedId(name) !== undefined));
  if (wanted.size === 0) return names;
  return names.map((name, i) => (wanted.has(`${ID_REFERENCE_PREFIX}${ids[i] ?? ''}`) ? `${ID_REFERENCE_PREFIX}${ids[i] ?? ''}` : name));
}

export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment);
}

/** The dataset part of a dataset-scoped kind's key (`dataset/name`); undefined for other keys. */
export function datasetOfKey(key: string): string | undefined {
  const slash = key.indexOf('/');
  return slash > 0 ? key.slice(0, slash) : undefined;
}

/** The built-in value `name` stands for (`Owner` -> `owner`), or undefined when it names none. */
export function builtinName(reference: Reference, name: string): string | undefined {
  // Most references have no built-ins: no lower-cased copy of every name for them.
  if (reference.builtins === undefined || reference.builtins.length === 0) return undefined;
  const lower = name.toLowerCase();
  return reference.builtins?.find((builtin) => builtin.toLowerCase() === lower);
}

export function isBuiltinName(reference: Reference, name: string): boolean {
  return builtinName(reference, name) !== undefined;
}

/**
 * The spec with every default (`KindModule.defaults`) filled in where it is absent or empty: an
 * update sends the whole object, so a field removed from the file is written back as its default.
 */
export function withDefaultsFilled(spec: JsonObject, defaults: Readonly<Record<string, JsonValue>>): JsonObject {
  let out = spec;
  for (const [path, value] of Object.entries(defaults)) {
    const segments = path.split('.');
    if (isEmptyValue(getAt(out, segments))) out = withValueAt(out, segments, cloneJson(value));
  }
  return out;
}
