// What of one declared object pull takes from its live object: the planner's own comparison
// (compareSpecs' differences), each sorted into a value to write, or a report (a secret, a value
// from `${env:}`/`${file:}`, a local edit not applied yet, a conflict).
import { isJsonObject, jsonEqual } from '../core/json.js';
import { findPaths, isPrefix, patternIsPrefix, pointerSegments } from '../core/json-paths.js';
import type { DesiredResource, InventoryEntry, JsonObject, JsonValue } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import { ignoredFields } from '../plan/annotations.js';
import { keyedSegments, specDifferences } from '../plan/compare.js';
import { specPointer } from '../plan/fingerprint.js';
import type { LiveEntry } from '../plan/live-index.js';
import { compareSecrets, type SecretState } from '../plan/secrets.js';

/** A value to write: spec segments as the comparison names them (a keyed item as `[name]`); no value: remove it. */
export interface FieldPull {
  segments: string[];
  value?: JsonValue;
}

export type FieldReportKind = 'secret' | 'interpolated' | 'local-edit' | 'conflict';

export interface FieldReport {
  kind: FieldReportKind;
  /** Dotted field inside the spec. */
  field: string;
}

export interface ObjectDifferences {
  pulls: FieldPull[];
  reports: FieldReport[];
}

/** The name inside an item segment `[name]` (or `["a.b"]`); undefined for a plain segment. */
export function itemName(segment: string): string | undefined {
  if (!segment.startsWith('[') || !segment.endsWith(']')) return undefined;
  const inner = segment.slice(1, -1);
  if (inner.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(inner);
      return typeof parsed === 'string' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return inner;
}

/** The key a keyed array at `path` names its items by. */
export function itemKeyAt(module: KindModule, path: readonly (string | number)[]): string | undefined {
  const dotted = path.map(String).join('.');
  return module.keyedArrays?.find((keyed) => keyed.path === dotted)?.key;
}

/** The value at comparison segments (`[name]` finds the item of that name). */
export function valueAtSegments(module: KindModule, spec: JsonValue | undefined, segments: readonly string[]): JsonValue | undefined {
  let node = spec;
  const at: string[] = [];
  for (const segment of segments) {
    const name = itemName(segment);
    if (name !== undefined && Array.isArray(node)) {
      const key = itemKeyAt(module, at);
      node = node.find((item) => isJsonObject(item) && key !== undefined && item[key] === name);
    } else if (isJsonObject(node)) {
      node = Object.prototype.hasOwnProperty.call(node, segment) ? node[segment] : undefined;
    } else {
      return undefined;
    }
    at.push(segment);
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * A value as the comparison holds it, keyed arrays back to arrays: below `at`, every keyed array
 * was turned into an object by item name.
 */
export function unkeyed(module: KindModule, at: readonly string[], value: JsonValue): JsonValue {
  let out = value;
  for (const { path } of module.keyedArrays ?? []) {
    const segments = path.split('.');
    if (!isPrefix(at, segments)) continue;
    const rest = segments.slice(at.length);
    out = mapAt(out, rest, (keyed) => (isJsonObject(keyed) ? Object.values(keyed) : keyed));
  }
  return out;
}

function mapAt(value: JsonValue, rest: readonly string[], map: (value: JsonValue) => JsonValue): JsonValue {
  if (rest.length === 0) return map(value);
  if (!isJsonObject(value)) return value;
  const [head, ...tail] = rest as [string, ...string[]];
  if (!Object.prototype.hasOwnProperty.call(value, head)) return value;
  return { ...value, [head]: mapAt(value[head] as JsonValue, tail, map) };
}

export interface DifferencesInput {
  resource: DesiredResource;
  match: LiveEntry;
  entry: InventoryEntry | undefined;
  hashKey: string;
  /** The object as the base of the tree declares it (the last merged revision), when known. */
  base?: DesiredResource;
}

function normalized(module: KindModule, spec: JsonObject): JsonObject {
  return module.normalize?.(spec) ?? spec;
}

/** The differences between a declared object and its live object, sorted into pulls and reports. */
export function objectDifferences(input: DifferencesInput): ObjectDifferences {
  const { resource, match } = input;
  const module = KINDS[resource.kind];
  const desired = normalized(module, resource.spec);
  const ignore = ignoredFields(resource);
  const interpolatedPointers = resource.interpolated.map((p) => pointerSegments(specPointer(p)));
  const compare = {
    module,
    desired,
    live: match.spec,
    liveRaw: match.object.raw,
    ignore,
    interpolated: interpolatedPointers,
    secrets: { hashKey: input.hashKey, recorded: input.entry?.secretHashes },
  };
  const interpolated = interpolatedPointers.map((p) => keyedSegments(module, desired, p));
  const base = input.base ? normalized(module, input.base.spec) : undefined;
  const pulls: FieldPull[] = [];
  const reports: FieldReport[] = [];
  for (const difference of specDifferences(compare)) {
    const field = difference.segments.join('.').replace(/\.\[/g, '[');
    if (interpolated.some((p) => isPrefix(difference.segments, p) || isPrefix(p, difference.segments))) {
      reports.push({ kind: 'interpolated', field });
      continue;
    }
    const live = difference.live === undefined ? undefined : unkeyed(module, difference.segments, difference.live);
    if (base !== undefined) {
      const wasMerged = valueAtSegments(module, base, difference.segments);
      const written = valueAtSegments(module, desired, difference.segments);
      if (!jsonEqual(wasMerged, written)) {
        // Changed in the tree since the base: the file's edit is not applied yet, or both sides changed.
        reports.push({ kind: jsonEqual(wasMerged, live) ? 'local-edit' : 'conflict', field });
        continue;
      }
    }
    pulls.push(live === undefined ? { segments: difference.segments } : { segments: difference.segments, value: live });
  }
  const collapsed = collapse(module, pulls, desired, match.spec);
  for (const field of changedSecrets(module, desired, match.spec, ignore, compare.secrets)) reports.push({ kind: 'secret', field });
  return { pulls: collapsed, reports };
}

/** The shortest prefix of `segments` at which `spec` holds nothing; undefined when it holds the whole path. */
function firstMissing(module: KindModule, spec: JsonObject, segments: readonly string[]): string[] | undefined {
  for (let n = 1; n <= segments.length; n++) {
    if (valueAtSegments(module, spec, segments.slice(0, n)) === undefined) return segments.slice(0, n);
  }
  return undefined;
}

function putPlain(root: JsonObject, segments: readonly string[], value: JsonValue): void {
  let node = root;
  for (const segment of segments.slice(0, -1)) {
    if (!isJsonObject(node[segment])) node[segment] = {};
    node = node[segment] as JsonObject;
  }
  node[segments[segments.length - 1] as string] = value;
}

/**
 * The comparison names every leaf of a part only one side has (a chart made in the UI, a section
 * removed there): pulled as one value at the part, so that it is written or removed once.
 */
function collapse(module: KindModule, pulls: readonly FieldPull[], desired: JsonObject, live: JsonObject): FieldPull[] {
  const out: FieldPull[] = [];
  const parts = new Map<string, { segments: string[]; value: JsonObject; at: number }>();
  const removed = new Set<string>();
  for (const pull of pulls) {
    const missing = pull.value === undefined ? firstMissing(module, live, pull.segments) : firstMissing(module, desired, pull.segments);
    if (!missing || missing.length === pull.segments.length) {
      out.push(pull);
      continue;
    }
    const id = missing.join('\u0000');
    if (pull.value === undefined) {
      if (!removed.has(id)) out.push({ segments: missing });
      removed.add(id);
      continue;
    }
    let part = parts.get(id);
    if (!part) {
      part = { segments: missing, value: {}, at: out.length };
      parts.set(id, part);
      out.push({ segments: missing });
    }
    putPlain(part.value, pull.segments.slice(missing.length), pull.value);
  }
  for (const part of parts.values()) out[part.at] = { segments: part.segments, value: unkeyed(module, part.segments, part.value) };
  return out;
}

/**
 * Secret fields that differ: as the planner finds them (by the hash recorded at the last apply),
 * and those whose live value, where the API returns one, is not the file's. Names only.
 */
function changedSecrets(module: KindModule, desired: JsonObject, live: JsonObject, ignore: readonly string[][], state: SecretState): string[] {
  const out = new Set(compareSecrets(module, desired, live, ignore, state).diffs.map((d) => d.path));
  const wanted = new Map(findPaths(desired, module.secretFields).map((f) => [f.pointer, f.value]));
  for (const found of findPaths(live, module.secretFields)) {
    if (ignore.some((pattern) => patternIsPrefix(pattern, found.segments))) continue;
    if (found.value === null || found.value === '' || !wanted.has(found.pointer)) continue;
    if (!jsonEqual(found.value, wanted.get(found.pointer))) out.add(found.segments.join('.'));
  }
  return [...out].sort();
}
