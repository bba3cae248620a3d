// Secret fields are compared without ever being shown: by keyed hash against the value wsync last
// applied, or, when no hash is recorded, against the live value in memory.
import { hashSecret, TRUST_ON_FIRST_USE } from '../core/secret-hash.js';
import type { FieldDiff, JsonObject, JsonValue } from '../core/types.js';
import { canonicalJson } from '../core/json.js';
import { findPaths, patternIsPrefix, type MatchedPath } from '../core/json-paths.js';
import type { KindModule } from '../kinds/types.js';

export interface SecretState {
  /** HMAC key of the inventory; '' when there is no state yet (then hashes are not used). */
  hashKey: string;
  /** Pointer -> hash recorded at the last apply of this object (owned objects only). */
  recorded?: Readonly<Record<string, string>>;
}

export interface SecretComparison {
  diffs: FieldDiff[];
  unknown: boolean;
}

function secretText(value: JsonValue): string {
  return typeof value === 'string' ? value : canonicalJson(value);
}

function isBlank(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || value === '';
}

function byPointer(found: MatchedPath[]): Map<string, MatchedPath> {
  return new Map(found.map((f) => [f.pointer, f]));
}

export function compareSecrets(
  module: KindModule,
  desired: JsonObject,
  live: JsonObject | undefined,
  ignore: readonly string[][],
  state: SecretState,
): SecretComparison {
  if (module.secretFields.length === 0) return { diffs: [], unknown: false };
  const wanted = byPointer(findPaths(desired, module.secretFields).filter((f) => !isBlank(f.value)));
  const present = byPointer(live === undefined ? [] : findPaths(live, module.secretFields));
  const pointers = [...new Set([...wanted.keys(), ...present.keys()])].sort();
  const diffs: FieldDiff[] = [];
  let unknown = false;
  for (const pointer of pointers) {
    const want = wanted.get(pointer);
    const have = present.get(pointer);
    const segments = (want ?? have)?.segments ?? [];
    if (ignore.some((pattern) => patternIsPrefix(pattern, segments))) continue;
    let changed: boolean;
    if (want === undefined) {
      // The file no longer sets it; a blank live value may just be the service hiding it.
      changed = have !== undefined && !isBlank(have.value);
    } else if (have === undefined) {
      changed = true;
    } else {
      const recorded = state.hashKey !== '' ? state.recorded?.[pointer] : undefined;
      if (recorded === TRUST_ON_FIRST_USE) {
        // Exported and adopted while the API hid it: the exported variable's value is the one in use.
        changed = false;
      } else if (recorded !== undefined) {
        changed = hashSecret(state.hashKey, secretText(want.value)) !== recorded;
      } else if (!isBlank(have.value)) {
        changed = secretText(have.value) !== secretText(want.value);
      } else {
        // Blanked on read (PagerDuty) and never recorded: write it so that a hash gets recorded.
        changed = true;
        unknown = true;
      }
    }
    if (changed) diffs.push({ path: segments.join('.'), sensitive: true });
  }
  return { diffs, unknown };
}

/**
 * Keyed hashes of every secret value of a desired spec (pointer -> hash), as apply records them in
 * the inventory after a confirmed write; the planner compares against exactly these.
 */
export function secretHashes(module: KindModule, spec: JsonObject, hashKey: string): Record<string, string> {
  const out: Record<string, string> = {};
  const normalized = module.normalize?.(spec) ?? spec;
  for (const found of findPaths(normalized, module.secretFields)) {
    if (!isBlank(found.value)) out[found.pointer] = hashSecret(hashKey, secretText(found.value));
  }
  return out;
}
