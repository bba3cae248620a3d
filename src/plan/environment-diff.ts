// What differs between two environments' rendered resources (`wsync diff A B`): the promotion view.
// Pure: two Desireds in, the differences out, by natural key and then field by field.
import { isJsonObject, jsonEqual } from '../core/json.js';
import { patternIsPrefix } from '../core/json-paths.js';
import { REDACTED } from '../core/redact.js';
import type { Desired, DesiredResource, FieldDiff, JsonObject, JsonValue, KindName, SourceLocation } from '../core/types.js';
import { KINDS } from '../kinds/index.js';

export interface EnvironmentResourceRef {
  kind: KindName;
  key: string;
  source: SourceLocation;
}

export interface EnvironmentResourceDiff {
  kind: KindName;
  key: string;
  /** Where each side declares it (a base file, or an overlay of one side). */
  sources: [SourceLocation, SourceLocation];
  fields: FieldDiff[];
}

export interface EnvironmentDiff {
  names: [string, string];
  onlyIn: [EnvironmentResourceRef[], EnvironmentResourceRef[]];
  differ: EnvironmentResourceDiff[];
  same: number;
}

function idOf(resource: Pick<DesiredResource, 'kind' | 'key'>): string {
  return `${resource.kind}/${resource.key}`;
}

interface Leaf {
  segments: string[];
  value: JsonValue;
}

/** Maps flattened to dotted paths; a list or a scalar is one value. */
function leaves(value: JsonObject, prefix: string[], out: Map<string, Leaf>): Map<string, Leaf> {
  for (const [key, child] of Object.entries(value)) {
    const segments = [...prefix, key];
    if (isJsonObject(child) && Object.keys(child).length > 0) leaves(child, segments, out);
    else out.set(segments.join('.'), { segments, value: child });
  }
  return out;
}

/** Only placeholders, as written (`${env:NAME}`, `${file:PATH}`): names where a secret comes from, never one. */
const ONLY_PLACEHOLDERS = /^(?:\$\{(?:env|file):[^}]*\})+$/;

/**
 * A value in or around a secret field (the kind's `secretFields`) is shown only when it is nothing
 * but placeholders: a value written in the file there (a capability URL, a header) is a credential.
 */
function shownValue(value: JsonValue, segments: readonly string[], secretFields: readonly string[]): JsonValue {
  const secret = secretFields.some((field) => {
    const pattern = field.split('.');
    return patternIsPrefix(pattern, segments) || patternIsPrefix(pattern.slice(0, segments.length), segments);
  });
  return !secret || (typeof value === 'string' && ONLY_PLACEHOLDERS.test(value)) ? value : REDACTED;
}

/** The fields of two specs that differ, in the order of the first side, then the second's own. */
export function specFieldDiffs(a: JsonObject, b: JsonObject, secretFields: readonly string[] = []): FieldDiff[] {
  const left = leaves(a, [], new Map());
  const right = leaves(b, [], new Map());
  const shown = (leaf: Leaf): JsonValue => shownValue(leaf.value, leaf.segments, secretFields);
  const diffs: FieldDiff[] = [];
  for (const [path, before] of left) {
    const after = right.get(path);
    if (after === undefined) diffs.push({ path, before: shown(before) });
    else if (!jsonEqual(before.value, after.value)) diffs.push({ path, before: shown(before), after: shown(after) });
  }
  for (const [path, after] of right) if (!left.has(path)) diffs.push({ path, after: shown(after) });
  return diffs;
}

const ref = (r: DesiredResource): EnvironmentResourceRef => ({ kind: r.kind, key: r.key, source: r.source });

export function diffEnvironments(names: [string, string], a: Desired, b: Desired): EnvironmentDiff {
  const right = new Map(b.resources.map((r) => [idOf(r), r]));
  const left = new Set(a.resources.map(idOf));
  const out: EnvironmentDiff = { names, onlyIn: [[], []], differ: [], same: 0 };
  for (const resource of a.resources) {
    const other = right.get(idOf(resource));
    if (other === undefined) {
      out.onlyIn[0].push(ref(resource));
      continue;
    }
    const fields = specFieldDiffs(resource.spec, other.spec, KINDS[resource.kind].secretFields);
    if (fields.length === 0) out.same++;
    else out.differ.push({ kind: resource.kind, key: resource.key, sources: [resource.source, other.source], fields });
  }
  for (const resource of b.resources) if (!left.has(idOf(resource))) out.onlyIn[1].push(ref(resource));
  return out;
}

export function hasDifferences(diff: EnvironmentDiff): boolean {
  return diff.differ.length > 0 || diff.onlyIn[0].length > 0 || diff.onlyIn[1].length > 0;
}
