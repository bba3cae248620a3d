import type { JsonObject, JsonValue } from '../core/types.js';

export interface MatchedPath {
  /** JSON Pointer into the spec, e.g. `/properties/customWebhook/secretHeaders/Authorization`. */
  pointer: string;
  /** Dotted display form, e.g. `properties.customWebhook.secretHeaders.Authorization`. */
  dotted: string;
  segments: string[];
  value: JsonValue;
}

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapePointerSegment(String(s))}`).join('');
}

/** Does a concrete dotted path match a pattern whose `*` segments match any one key? */
export function matchesPattern(segments: readonly string[], pattern: string): boolean {
  const parts = pattern.split('.');
  if (parts.length !== segments.length) return false;
  return parts.every((part, i) => part === '*' || part === segments[i]);
}

/** Every value in `spec` at a path matching one of the dotted patterns (`*` = any key). */
export function findPaths(spec: JsonObject, patterns: readonly string[]): MatchedPath[] {
  const found: MatchedPath[] = [];
  for (const pattern of patterns) {
    walk(spec, pattern.split('.'), [], found);
  }
  return found;
}

function walk(node: JsonValue | undefined, rest: string[], at: string[], out: MatchedPath[]): void {
  if (node === undefined) return;
  if (rest.length === 0) {
    out.push({ pointer: toPointer(at), dotted: at.join('.'), segments: at, value: node });
    return;
  }
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const [head, ...tail] = rest as [string, ...string[]];
  const keys = head === '*' ? Object.keys(node).sort() : [head];
  // Own properties only: a pattern such as `__proto__.x` (ignore-fields come from files) must not reach the prototype.
  for (const key of keys) if (Object.prototype.hasOwnProperty.call(node, key)) walk(node[key], tail, [...at, key], out);
}

export function getAt(spec: JsonObject, segments: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = spec;
  for (const s of segments) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, s)) return undefined;
    node = node[s];
  }
  return node;
}

/** Returns a copy of `spec` with the value at `segments` replaced (objects on the way are copied). */
export function setAt(spec: JsonObject, segments: readonly string[], value: JsonValue): JsonObject {
  if (segments.length === 0) return spec;
  const [head, ...tail] = segments as [string, ...string[]];
  const child = spec[head];
  const next =
    tail.length === 0
      ? value
      : setAt(child !== null && typeof child === 'object' && !Array.isArray(child) ? child : {}, tail, value);
  return { ...spec, [head]: next };
}
