// The one toolkit for JSON values: guards, equality, empty values, copies. Plan, kinds, apply and
// export all use these; paths into values live beside them in json-paths.ts.
import type { JsonObject, JsonValue } from './types.js';

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value when it is a JSON object, else undefined. */
export function asJsonObject(value: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/** `out[key] = value` that also works for a key named `__proto__` (which [] would treat as the prototype). */
export function setOwn(out: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** node[key] when `key` is the node's own property: never the prototype (`__proto__`, `toString`). */
export function ownChild(node: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
}

/** Code-point order: the same on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * JSON with object keys sorted at every level: equal values give equal text. Written directly
 * rather than through a sorted copy: the planner calls it for every object of a workspace.
 */
export function canonicalJson(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const child = value[key];
    if (child === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${canonicalJson(child)}`;
  }
  return `${out}}`;
}

/** A copy with object keys sorted at every level. */
export function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    const child = value[key];
    if (child !== undefined) setOwn(out, key, sortKeys(child));
  }
  return out;
}

/** Arrays of strings as a sorted copy (code-point order); other values unchanged. */
export function sortedIfStrings(value: JsonValue): JsonValue {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return value;
  return [...(value as string[])].sort(compareText);
}

/** Equal in meaning as JSON: object key order does not matter, array order does. */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return sameCanonical(a, b);
}

/**
 * canonicalJson(a) === canonicalJson(b), without making the two texts: the daemon compares every
 * object of a listed kind with the one it held, and as text that made megabytes of strings per list.
 */
function sameCanonical(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  // Inside a value, undefined is written as null (array items) or left out (members, skipped below).
  if (a === undefined || a === null) return b === undefined || b === null;
  if (typeof a !== 'object' || typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameCanonical(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let members = 0;
  for (const key of Object.keys(a)) {
    const value = a[key];
    if (value === undefined) continue;
    if (!Object.hasOwn(b, key) || b[key] === undefined || !sameCanonical(value, b[key])) return false;
    members++;
  }
  for (const key of Object.keys(b)) if (b[key] !== undefined) members--;
  return members === 0;
}

/** null, '', [] and {} say "nothing here": a file that leaves a field out means the same. */
export function isEmptyValue(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isJsonObject(value)) return Object.keys(value).length === 0;
  return false;
}

/**
 * The value without empty values, bottom up (an object left empty by that is dropped too).
 * Subtrees with nothing to drop are shared, not copied: the planner cleans every object of a
 * workspace, and most have nothing to drop. Never mutate the result in place.
 */
export function dropEmpty(value: JsonValue): JsonValue | undefined {
  if (Array.isArray(value)) {
    // Array elements keep their place: `[null]` is not the same list as `[]`.
    return value.length === 0 ? undefined : value;
  }
  if (!isJsonObject(value)) return isEmptyValue(value) ? undefined : value;
  let out: JsonObject | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const child = value[key];
    const kept = child === undefined ? undefined : dropEmpty(child);
    if (kept === child && out === undefined) continue;
    if (out === undefined) {
      // The first change: copy the keys before it, which were kept as they are.
      out = {};
      for (let j = 0; j < i; j++) setOwn(out, keys[j] as string, value[keys[j] as string] as JsonValue);
    }
    if (kept !== undefined) setOwn(out, key, kept);
  }
  const result = out ?? value;
  return Object.keys(result).length === 0 ? undefined : result;
}

/** dropEmpty of an object, `{}` when nothing is left (shared with `value` where nothing was dropped). */
export function dropEmptyObject(value: JsonObject): JsonObject {
  const kept = dropEmpty(value);
  return isJsonObject(kept) ? kept : {};
}

/** A deep copy (plain JSON values only; much faster than structuredClone for small objects). */
export function cloneJson<T extends JsonValue>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (child === undefined) continue;
    setOwn(out, key, cloneJson(child));
  }
  return out as T;
}
