// Paths into JSON values: RFC 6901 pointers, dotted patterns (`*` matches any one key), and
// reading and writing at a path. Own properties only: a path from a file (`__proto__.x`) never
// reaches the prototype.
import { isJsonObject, ownChild, setOwn } from './json.js';
import type { JsonObject, JsonValue } from './types.js';

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

/** Segments -> RFC 6901 pointer (`['a', 0, 'b/c']` -> `/a/0/b~1c`). */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapePointerSegment(String(s))}`).join('');
}

/** RFC 6901 pointer -> segments (`/a/b~1c` -> `['a', 'b/c']`). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Does a concrete path match a dotted pattern whose `*` segments match any one key? */
export function matchesPattern(segments: readonly string[], pattern: string): boolean {
  const parts = pattern.split('.');
  if (parts.length !== segments.length) return false;
  return parts.every((part, i) => part === '*' || part === segments[i]);
}

/** Does `prefix` start `segments` (or equal it)? */
export function isPrefix(prefix: readonly string[], segments: readonly string[]): boolean {
  return prefix.length <= segments.length && prefix.every((part, i) => part === segments[i]);
}

/** Like isPrefix, with `*` in the pattern matching any one segment. */
export function patternIsPrefix(pattern: readonly string[], segments: readonly string[]): boolean {
  return pattern.length <= segments.length && pattern.every((part, i) => part === '*' || part === segments[i]);
}

/** A match whose pointer and dotted forms are made when asked for (the planner asks for few). */
class Match implements MatchedPath {
  constructor(
    readonly segments: string[],
    readonly value: JsonValue,
  ) {}

  get pointer(): string {
    return toPointer(this.segments);
  }

  get dotted(): string {
    return this.segments.join('.');
  }
}

/** Patterns split once: the same few patterns of each kind are looked for in every object. */
const SPLIT = new Map<string, string[]>();

function splitPattern(pattern: string): string[] {
  let parts = SPLIT.get(pattern);
  if (!parts) {
    parts = pattern.split('.');
    if (SPLIT.size < 10_000) SPLIT.set(pattern, parts);
  }
  return parts;
}

/** Every value in `spec` at a path matching one of the dotted patterns (`*` = any key). */
export function findPaths(spec: JsonObject, patterns: readonly string[]): MatchedPath[] {
  const found: MatchedPath[] = [];
  for (const pattern of patterns) walk(spec, splitPattern(pattern), 0, [], found);
  return found;
}

function walk(node: JsonValue | undefined, parts: readonly string[], depth: number, at: string[], out: MatchedPath[]): void {
  if (node === undefined) return;
  if (depth === parts.length) {
    out.push(new Match(at, node));
    return;
  }
  if (!isJsonObject(node)) return;
  const head = parts[depth] as string;
  if (head !== '*') {
    if (Object.prototype.hasOwnProperty.call(node, head)) walk(node[head], parts, depth + 1, [...at, head], out);
    return;
  }
  for (const key of Object.keys(node).sort()) walk(node[key], parts, depth + 1, [...at, key], out);
}

/** The value at `segments` (objects only on the way), or undefined. */
export function getAt(spec: JsonObject, segments: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = spec;
  for (const s of segments) {
    if (!isJsonObject(node)) return undefined;
    node = ownChild(node, s);
  }
  return node;
}

/** A copy of `spec` with the value at `segments` set (objects on the way are copied or created). */
export function withValueAt(spec: JsonObject, segments: readonly string[], value: JsonValue): JsonObject {
  if (segments.length === 0) return spec;
  const [head, ...tail] = segments as [string, ...string[]];
  const child = spec[head];
  const next = tail.length === 0 ? value : withValueAt(isJsonObject(child) ? child : {}, tail, value);
  const out = { ...spec };
  setOwn(out, head, next);
  return out;
}

/** A copy of `spec` without the value at `segments` (objects on the way are copied). */
export function withoutValueAt(spec: JsonObject, segments: readonly string[]): JsonObject {
  const [head, ...tail] = segments;
  if (head === undefined || !(head in spec)) return spec;
  const out: JsonObject = { ...spec };
  if (tail.length === 0) {
    delete out[head];
    return out;
  }
  const child = spec[head];
  if (isJsonObject(child)) out[head] = withoutValueAt(child, tail);
  return out;
}

/**
 * Copies of the objects on the way to each of many paths, each object copied once however many
 * paths pass through it (one copy per path made removing 60,000 header values quadratic); the rest
 * is shared with `spec`, which is never changed.
 */
function copyOnWrite(): (node: JsonObject) => JsonObject {
  const copies = new Set<JsonObject>();
  return (node) => {
    if (copies.has(node)) return node;
    const copy = { ...node };
    copies.add(copy);
    return copy;
  };
}

/** `spec` with each value put at its path (objects on the way copied once or created). */
export function withValuesAt(spec: JsonObject, puts: readonly (readonly [readonly string[], JsonValue])[]): JsonObject {
  if (puts.length === 0) return spec;
  const copyOf = copyOnWrite();
  const root = copyOf(spec);
  for (const [segments, value] of puts) {
    let node = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = segments[i] as string;
      const child = ownChild(node, key);
      const next = isJsonObject(child) ? copyOf(child) : copyOf({});
      setOwn(node, key, next);
      node = next;
    }
    const last = segments[segments.length - 1];
    if (last !== undefined) setOwn(node, last, value);
  }
  return root;
}

/** `spec` without the values at each of the paths (objects on the way copied once). */
export function withoutValuesAt(spec: JsonObject, paths: readonly (readonly string[])[]): JsonObject {
  if (paths.length === 0) return spec;
  const copyOf = copyOnWrite();
  const root = copyOf(spec);
  for (const segments of paths) {
    let node: JsonObject | undefined = root;
    for (let i = 0; i < segments.length - 1 && node; i++) {
      const key = segments[i] as string;
      const child = ownChild(node, key);
      if (!isJsonObject(child)) node = undefined;
      else {
        const next = copyOf(child);
        setOwn(node, key, next);
        node = next;
      }
    }
    const last = segments[segments.length - 1];
    if (node && last !== undefined && Object.prototype.hasOwnProperty.call(node, last)) delete node[last];
  }
  return root;
}

/** Sets the value at `segments` in place, creating objects on the way. */
export function putAt(root: JsonObject, segments: readonly string[], value: JsonValue): void {
  let node: JsonObject = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i] as string;
    const next = ownChild(node, key);
    if (isJsonObject(next)) node = next;
    else {
      const created: JsonObject = {};
      setOwn(node, key, created);
      node = created;
    }
  }
  const last = segments[segments.length - 1];
  if (last !== undefined) setOwn(node, last, value);
}

/** Removes the value at `segments` in place (own properties only); returns whether one was there. */
export function deleteAt(root: JsonObject, segments: readonly string[]): boolean {
  let node: JsonValue | undefined = root;
  for (let i = 0; i < segments.length - 1; i++) node = isJsonObject(node) ? ownChild(node, segments[i] as string) : undefined;
  const last = segments[segments.length - 1];
  if (!isJsonObject(node) || last === undefined || !Object.prototype.hasOwnProperty.call(node, last)) return false;
  delete node[last];
  return true;
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
  } else if (isJsonObject(node) && ownChild(node, last) !== undefined) {
    setOwn(node, last, value);
  }
}

function childOf(node: JsonValue | undefined, segment: string): JsonValue | undefined {
  if (Array.isArray(node)) return node[Number(segment)];
  return isJsonObject(node) ? ownChild(node, segment) : undefined;
}
