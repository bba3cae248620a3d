// Where a reference's names sit in a spec: one string, an array of strings, or (keyed) the keys
// of an object. Every reader of references (validate, plan, export) goes through here.
import { getAt } from '../core/json-paths.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { Reference } from './types.js';

export interface ReferenceName {
  name: string;
  /** Path of the name inside the spec: `['notifiers', 1]`, `['role']`, `['datasetCapabilities', 'checkout']`. */
  segments: (string | number)[];
}

/** Every name a reference holds in `spec`, built-ins included (callers decide what to skip). */
export function referenceNames(reference: Reference, spec: JsonObject): ReferenceName[] {
  const field = reference.field.split('.');
  const value = getAt(spec, field);
  if (reference.keyed) {
    return isJsonObject(value) ? Object.keys(value).map((name) => ({ name, segments: field.concat(name) })) : [];
  }
  if (reference.many && Array.isArray(value)) {
    const out: ReferenceName[] = [];
    value.forEach((item, index) => {
      if (typeof item === 'string') out.push({ name: item, segments: (field as (string | number)[]).concat(index) });
    });
    return out;
  }
  return typeof value === 'string' ? [{ name: value, segments: field }] : [];
}

/** A built-in value rather than a name (matched without regard to letter case: `kinds/common.ts`). */
export { isBuiltinName } from './common.js';
