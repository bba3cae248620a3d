import type { JsonObject, JsonValue } from '../core/types.js';
import { compareText } from './schema-order.js';

/** `out[key] = value`, except that a key named `__proto__` becomes a field instead of a prototype. */
export function putKey(out: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isPlainObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function deepEqual(a: JsonValue | undefined, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i] as JsonValue));
  }
  if (isPlainObject(a)) {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
    const other = b as Record<string, unknown>;
    const keys = Object.keys(a);
    return keys.length === Object.keys(other).length && keys.every((k) => k in other && deepEqual(a[k], other[k]));
  }
  return false;
}

/** null, '', [] and {}: what a resource file leaves out rather than spells. */
export function isEmptyValue(value: JsonValue | undefined): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isPlainObject(value) && Object.keys(value).length === 0;
}

/** A copy with the value at `segments` removed (objects on the way are copied). */
export function deleteAt(spec: JsonObject, segments: readonly string[]): JsonObject {
  const [head, ...tail] = segments;
  if (head === undefined || !(head in spec)) return spec;
  const out: JsonObject = { ...spec };
  if (tail.length === 0) {
    delete out[head];
    return out;
  }
  const child = spec[head];
  if (isPlainObject(child)) out[head] = deleteAt(child, tail);
  return out;
}

/** Arrays of strings in code-point order; other arrays unchanged. */
export function sortedIfStrings(value: JsonValue): JsonValue {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return value;
  return [...(value as string[])].sort(compareText);
}
