import { cloneJson, isEmptyValue } from '../core/json.js';
import { getAt, withValueAt } from '../core/json-paths.js';
import type { JsonObject, JsonValue, KindName } from '../core/types.js';
import type { Reference, ResolveId, ResolveName } from './types.js';

export const SERVER_OWNED_COMMON = ['id', 'createdAt', 'createdBy', 'updatedAt'] as const;

/** Capabilities keyed by dataset name (Role, ApiToken): each key but `*` names a Dataset. */
export const DATASET_CAPABILITIES_REFERENCE: Reference = {
  field: 'datasetCapabilities',
  wireField: 'datasetCapabilities',
  target: 'Dataset',
  many: true,
  keyed: true,
  builtins: ['*'],
  oftenUndeclared: true,
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
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function resolveOne(resolve: ResolveName, target: KindName, name: string, field: string): string {
  const id = resolve(target, name);
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
