// JSON value types: request bodies and stored objects are plain JSON, narrowed where a field is read.
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string at `key`, or undefined when absent or not a string. */
export function stringField(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/** The strings of the array at `key` (non-strings skipped), or [] when absent. */
export function stringArrayField(object: JsonObject, key: string): string[] {
  const value = object[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The object at `key`, or undefined when absent or not an object. */
export function objectField(object: JsonObject, key: string): JsonObject | undefined {
  const value = object[key];
  return isJsonObject(value) ? value : undefined;
}

/** Go's zero time (`0001-01-01T00:00:00Z`, in any offset): the service's clients send it for "no time". */
export function isZeroTime(value: string): boolean {
  const instant = Date.parse(value);
  return !Number.isNaN(instant) && instant < Date.parse('0002-01-01T00:00:00Z');
}
