// Where a reference's names sit in a spec: one string, an array of strings, or (keyed) the keys
// of an object. Every reader of references (validate, plan, export) goes through here.
import { getAt } from '../core/json-paths.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { Reference } from './types.js';

export interface ReferenceName {
  name: string;
  /** Path of the name inside the spec: `['notifiers', 1]`, `['role']`, `['datasetCapabilities', 'checkout']`. */
  segments: readonly (string | number)[];
}

/** A reference field's segments, split once per field (the planner asks for every resource's names). */
const SEGMENTS = new Map<string, readonly string[]>();

function segmentsOf(field: string): readonly string[] {
  let segments = SEGMENTS.get(field);
  if (segments === undefined) SEGMENTS.set(field, (segments = Object.freeze(field.split('.'))));
  return segments;
}

/** A name and the path it sits at, made when asked: most names resolve, and nobody asks for theirs. */
class NameAt implements ReferenceName {
  constructor(
    readonly name: string,
    private readonly field: readonly string[],
    private readonly item?: string | number,
  ) {}

  get segments(): readonly (string | number)[] {
    return this.item === undefined ? this.field : [...this.field, this.item];
  }
}

/** Every name a reference holds in `spec`, built-ins included (callers decide what to skip). */
export function referenceNames(reference: Reference, spec: JsonObject): ReferenceName[] {
  const field = segmentsOf(reference.field);
  const value = getAt(spec, field);
  if (reference.keyed) {
    return isJsonObject(value) ? Object.keys(value).map((name) => new NameAt(name, field, name)) : [];
  }
  if (reference.many && Array.isArray(value)) {
    const out: ReferenceName[] = [];
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      if (typeof item === 'string') out.push(new NameAt(item, field, index));
    }
    return out;
  }
  return typeof value === 'string' ? [new NameAt(value, field)] : [];
}

/**
 * Does `test` hold for every name a reference holds in `spec`? Reads them where referenceNames
 * finds them, making no paths: the check of a name that resolves needs none.
 */
export function everyReferenceName(reference: Reference, spec: JsonObject, test: (name: string) => boolean): boolean {
  const value = getAt(spec, segmentsOf(reference.field));
  if (reference.keyed) return !isJsonObject(value) || Object.keys(value).every((name) => test(name));
  if (reference.many && Array.isArray(value)) {
    for (const item of value) if (typeof item === 'string' && !test(item)) return false;
    return true;
  }
  return typeof value !== 'string' || test(value);
}

/** A built-in value rather than a name (matched without regard to letter case: `kinds/common.ts`). */
export { isBuiltinName } from './common.js';
