// "No time" as the service's clients spell it: Go sends and answers its zero time
// (`0001-01-01T00:00:00Z`) for an unset timestamp, others send `null` or `""`.
import { findPaths, withoutValuesAt } from './json-paths.js';
import type { JsonObject, JsonValue } from './types.js';

/** The first instant after Go's zero time day; anything before it is "no time". */
const FIRST_REAL_INSTANT = Date.parse('0002-01-01T00:00:00Z');

/** True for `null`, `""`, and any timestamp before the year 2 (Go's zero time, in any offset). */
export function isAbsentTime(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string') return false;
  const instant = Date.parse(value);
  return !Number.isNaN(instant) && instant < FIRST_REAL_INSTANT;
}

/** A copy of `spec` without the timestamps (dotted patterns) that mean "no time". */
export function withoutAbsentTimes(spec: JsonObject, patterns: readonly string[]): JsonObject {
  // Every object of a workspace passes here (live reads, diffs): a top-level field is looked at
  // directly, and the spec itself is handed back when no time in it is absent.
  if (!mayHoldAbsentTime(spec, patterns)) return spec;
  const absent = findPaths(spec, patterns).filter((found) => isAbsentTime(found.value));
  return withoutValuesAt(spec, absent.map((found) => found.segments));
}

/** False when no top-level pattern is an absent time in `spec` and none reaches deeper (a loop: no callback made per object). */
function mayHoldAbsentTime(spec: JsonObject, patterns: readonly string[]): boolean {
  for (let i = 0; i < patterns.length; i++) {
    const p = patterns[i] as string;
    if (p.includes('.') || p === '*' || (Object.hasOwn(spec, p) && isAbsentTime(spec[p]))) return true;
  }
  return false;
}
