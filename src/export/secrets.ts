import type { JsonObject } from '../core/types.js';
import { compareText, isJsonObject } from '../core/json.js';
import { findPaths, getAt } from '../core/json-paths.js';
import type { KindModule } from '../kinds/types.js';
import { envPart, shortHash } from './naming.js';
import { requiredKeys, schemaAt, type SchemaSet } from './schema-order.js';

/** A secret field of one exported object, to be written as `${env:VARIABLE}`. */
export interface SecretSlot {
  /** Path of the field inside the spec. */
  segments: string[];
  /** The part of the variable name that names the field, e.g. `SLACKURL`, `SECRETHEADERS_AUTHORIZATION`. */
  fieldPart: string;
  /** The live value when the API returned a non-blank one (for redaction only; never written). */
  value?: string;
}

/** Where in a pattern the field's own name starts: its last fixed segment before any `*`. */
function fieldStart(pattern: string[]): number {
  const firstWildcard = pattern.indexOf('*');
  return firstWildcard === -1 ? pattern.length - 1 : Math.max(0, firstWildcard - 1);
}

/**
 * The secret fields of a spec: every value at a secret path (blank or not: a blank one is a
 * value the API does not return), and every required secret field the API left out of a
 * section that is present (a PagerDuty channel without its routing key).
 */
export function secretSlots(module: KindModule, spec: JsonObject, schemas: SchemaSet): SecretSlot[] {
  const slots: SecretSlot[] = [];
  for (const pattern of module.secretFields) {
    const parts = pattern.split('.');
    const start = fieldStart(parts);
    const found = findPaths(spec, [pattern]);
    for (const match of found) {
      if (typeof match.value !== 'string') continue;
      const slot: SecretSlot = { segments: match.segments, fieldPart: envPart(match.segments.slice(start).join('_')) };
      if (match.value !== '') slot.value = match.value;
      slots.push(slot);
    }
    if (found.length === 0 && !parts.includes('*')) {
      const parentPath = parts.slice(0, -1);
      const parent = getAt(spec, parentPath);
      const field = parts[parts.length - 1] as string;
      if (isJsonObject(parent) && requiredKeys(schemaAt(schemas, module.schemaFile, ['spec', ...parentPath])).has(field)) {
        slots.push({ segments: parts, fieldPart: envPart(field) });
      }
    }
  }
  return slots;
}

export interface VariableRequest {
  kind: string;
  /** Exact natural key of the object. */
  key: string;
  fieldPart: string;
  /** Identity for the tie-breaking hash (kind, key, field path). */
  identity: string;
}

/**
 * `WSYNC_<KIND>_<KEY>_<FIELD>` for each request. Two requests that fold to the same name are
 * told apart by a hash of their identity; the one whose identity sorts first keeps the plain
 * name. The result depends only on the set of requests, not on their order.
 */
export function variableNames(requests: readonly VariableRequest[]): string[] {
  const base = requests.map((r) => `WSYNC_${envPart(r.kind)}_${envPart(r.key)}_${r.fieldPart}`);
  const groups = new Map<string, number[]>();
  base.forEach((name, i) => groups.set(name, [...(groups.get(name) ?? []), i]));
  const out = [...base];
  const taken = new Set(base);
  for (const [name, members] of groups) {
    if (members.length < 2) continue;
    const ordered = [...members].sort((a, b) =>
      compareText((requests[a] as VariableRequest).identity, (requests[b] as VariableRequest).identity),
    );
    for (const index of ordered.slice(1)) {
      let length = 6;
      let candidate = `${name}_${shortHash((requests[index] as VariableRequest).identity, length).toUpperCase()}`;
      while (taken.has(candidate) && length < 64) {
        length += 6;
        candidate = `${name}_${shortHash((requests[index] as VariableRequest).identity, length).toUpperCase()}`;
      }
      taken.add(candidate);
      out[index] = candidate;
    }
  }
  return out;
}
