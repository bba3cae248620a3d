// Small helpers over JSON values that the planner and the fingerprint share.
import type { JsonObject, JsonValue } from '../core/types.js';

/** `out[key] = value` that also works for a key named `__proto__` (which [] would treat as the prototype). */
export function setOwn(out: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
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

export function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    const child = value[key];
    if (child !== undefined) setOwn(out, key, sortKeys(child));
  }
  return out;
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** null, '', [] and {} say "nothing here": a file that leaves a field out means the same. */
export function isEmptyValue(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.keys(value).length === 0;
  return false;
}

/** A copy without empty values, bottom up (an object left empty by that is dropped too). */
export function dropEmpty(value: JsonValue): JsonValue | undefined {
  if (Array.isArray(value)) {
    // Array elements keep their place: `[null]` is not the same list as `[]`.
    return value.length === 0 ? undefined : value;
  }
  if (!isObject(value)) return isEmptyValue(value) ? undefined : value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const kept = dropEmpty(child);
    if (kept !== undefined) setOwn(out, key, kept);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

export function dropEmptyObject(value: JsonObject): JsonObject {
  const kept = dropEmpty(value);
  return isObject(kept) ? kept : {};
}

/** Removes the value at `segments` in place (own properties only); returns whether one was there. */
export function deleteAt(root: JsonObject, segments: readonly string[]): boolean {
  let node: JsonValue | undefined = root;
  for (let i = 0; i < segments.length - 1; i++) node = isObject(node) ? ownChild(node, segments[i] as string) : undefined;
  const last = segments[segments.length - 1];
  if (!isObject(node) || last === undefined || !Object.prototype.hasOwnProperty.call(node, last)) return false;
  delete node[last];
  return true;
}

/** node[key] when `key` is the node's own property: never the prototype (`__proto__`, `toString`). */
export function ownChild(node: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
}

/** Sets the value at `segments` in place, creating objects on the way. */
export function putAt(root: JsonObject, segments: readonly string[], value: JsonValue): void {
  let node: JsonObject = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i] as string;
    const next = node[key];
    if (isObject(next) && Object.prototype.hasOwnProperty.call(node, key)) node = next;
    else {
      const created: JsonObject = {};
      setOwn(node, key, created);
      node = created;
    }
  }
  const last = segments[segments.length - 1];
  if (last !== undefined) setOwn(node, last, value);
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

/** RFC 6901 pointer -> segments (`/a/b~1c` -> `['a', 'b/c']`). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Does `prefix` start `segments` (or equal it)? */
export function isPrefix(prefix: readonly string[], segments: readonly string[]): boolean {
  return prefix.length <= segments.length && prefix.every((part, i) => part === segments[i]);
}

/** Like isPrefix, with `*` in the pattern matching any one segment. */
export function patternIsPrefix(pattern: readonly string[], segments: readonly string[]): boolean {
  return pattern.length <= segments.length && pattern.every((part, i) => part === '*' || part === segments[i]);
}

/** Replaces the value at `segments` in place when it exists (array indices allowed); else nothing. */
export function replaceExisting(root: JsonValue, segments: readonly string[], value: JsonValue): void {
  let node: JsonValue | undefined = root;
  for (let i = 0; i < segments.length - 1; i++) node = childOf(node, segments[i] as string);
  const last = segments[segments.length - 1];
  if (last === undefined) return;
  if (Array.isArray(node)) {
    const index = Number(last);
    if (Number.isInteger(index) && index >= 0 && index < node.length) node[index] = value;
  } else if (isObject(node) && ownChild(node, last) !== undefined) {
    setOwn(node, last, value);
  }
}

function childOf(node: JsonValue | undefined, segment: string): JsonValue | undefined {
  if (Array.isArray(node)) return node[Number(segment)];
  return isObject(node) ? ownChild(node, segment) : undefined;
}
