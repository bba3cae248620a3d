// What differs between two environments' rendered resources (`wsync diff A B`): the promotion view.
// Pure: two Desireds in, the differences out, by natural key and then field by field.
import { isJsonObject, jsonEqual } from '../core/json.js';
import type { Desired, DesiredResource, FieldDiff, JsonObject, JsonValue, KindName, SourceLocation } from '../core/types.js';

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

/** Maps flattened to dotted paths; a list or a scalar is one value. */
function leaves(value: JsonObject, prefix: string, out: Map<string, JsonValue>): Map<string, JsonValue> {
  for (const [key, child] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isJsonObject(child) && Object.keys(child).length > 0) leaves(child, path, out);
    else out.set(path, child);
  }
  return out;
}

/** The fields of two specs that differ, in the order of the first side, then the second's own. */
export function specFieldDiffs(a: JsonObject, b: JsonObject): FieldDiff[] {
  const left = leaves(a, '', new Map());
  const right = leaves(b, '', new Map());
  const diffs: FieldDiff[] = [];
  for (const [path, before] of left) {
    const after = right.get(path);
    if (after === undefined) diffs.push({ path, before });
    else if (!jsonEqual(before, after)) diffs.push({ path, before, after });
  }
  for (const [path, after] of right) if (!left.has(path)) diffs.push({ path, after });
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
    const fields = specFieldDiffs(resource.spec, other.spec);
    if (fields.length === 0) out.same++;
    else out.differ.push({ kind: resource.kind, key: resource.key, sources: [resource.source, other.source], fields });
  }
  for (const resource of b.resources) if (!left.has(idOf(resource))) out.onlyIn[1].push(ref(resource));
  return out;
}

export function hasDifferences(diff: EnvironmentDiff): boolean {
  return diff.differ.length > 0 || diff.onlyIn[0].length > 0 || diff.onlyIn[1].length > 0;
}
