// The equal case of compareSpecs without its copies. Most of a no-op plan is resources equal to
// their live objects; for a kind whose wire rules all sit on top-level fields (a monitor's), each
// field of both sides is normalised on its own, as clean and canonical would, and compared in
// place. Anything this cannot decide (nested rules, keyed arrays, nested ignore patterns) or any
// difference sends the caller to the full walk, which words the diffs.
import type { JsonObject, JsonValue } from '../core/types.js';
import { canonicalJson, dropEmpty, jsonEqual } from '../core/json.js';
import { isAbsentTime } from '../core/time.js';
import type { KindModule } from '../kinds/types.js';

/** What a kind's wire rules say of one top-level field. */
interface FieldRule {
  secret: boolean;
  timestamp: boolean;
  set: boolean;
  computed: boolean;
  /** The default as clean puts it in (an empty one, "" [] {}, means the field is absent). */
  default: JsonValue | undefined;
}

/** The rule of a field no rule names. */
const PLAIN: FieldRule = { secret: false, timestamp: false, set: false, computed: false, default: undefined };

/** A kind's rules by top-level field (one lookup a field: this runs for every field of every object). */
type FieldRules = ReadonlyMap<string, FieldRule>;

const RULES = new WeakMap<KindModule, FieldRules | null>();

function isTopLevel(pattern: string): boolean {
  return pattern !== '*' && !pattern.includes('.');
}

/** The kind's rules by top-level field, or null when one of them reaches deeper (or the kind keys arrays). */
function fieldRulesOf(module: KindModule): FieldRules | null {
  let rules = RULES.get(module);
  if (rules !== undefined) return rules;
  const patterns = [...module.secretFields, ...module.timestamps, ...module.setFields, ...module.computed, ...Object.keys(module.defaults)];
  rules = null;
  if ((module.keyedArrays ?? []).length === 0 && patterns.every(isTopLevel)) {
    const defaults = new Map(defaultsOf(module).map(([segments, value]) => [segments[0] as string, value]));
    rules = new Map(
      [...new Set(patterns)].map((field) => [
        field,
        {
          secret: module.secretFields.includes(field),
          timestamp: module.timestamps.includes(field),
          set: module.setFields.includes(field),
          computed: module.computed.includes(field),
          default: defaults.get(field),
        },
      ]),
    );
  }
  RULES.set(module, rules);
  return rules;
}

const DEFAULTS = new WeakMap<KindModule, (readonly [readonly string[], JsonValue])[]>();

/** The kind's defaults as paths and values, split once per kind. */
export function defaultsOf(module: KindModule): (readonly [readonly string[], JsonValue])[] {
  let defaults = DEFAULTS.get(module);
  if (!defaults) {
    defaults = [];
    for (const [path, value] of Object.entries(module.defaults)) {
      // As clean leaves it: an empty default ("", [], {}) means the field is absent.
      const kept = dropEmpty(value);
      if (kept !== undefined) defaults.push([path.split('.'), kept]);
    }
    DEFAULTS.set(module, defaults);
  }
  return defaults;
}

/** A timestamp as an instant, so that equal meanings compare equal (text that is no time stays as it is). */
export function canonicalTime(value: JsonValue): JsonValue {
  if (typeof value !== 'string') return value;
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? value : new Date(instant).toISOString();
}

/** A set's items once each, in one order. */
export function canonicalSet(items: readonly JsonValue[]): JsonValue[] {
  const unique = new Map<string, JsonValue>();
  for (const item of items) unique.set(typeof item === 'string' ? `s${item}` : canonicalJson(item), item);
  return [...unique.keys()].sort().map((k) => unique.get(k) as JsonValue);
}

/**
 * True when compareSpecs' walk of `desired` against `live` finds no difference; false when it
 * finds one or this cannot tell without the walk. Secrets are not looked at (compared by hash apart).
 */
export function equalWhenCompared(module: KindModule, desired: JsonObject, live: JsonObject, ignore: readonly string[][]): boolean {
  const rules = fieldRulesOf(module);
  if (rules === null) return false;
  let ignored: Set<string> | undefined;
  for (const pattern of ignore) {
    const [field] = pattern;
    if (pattern.length !== 1 || field === undefined || field === '*') return false;
    (ignored ??= new Set()).add(field);
  }
  // Each value read once: looking fields up by name was most of this check's time. `for...in`, not
  // Object.keys: no array of names made per object (a spec is a plain object: nothing inherited is enumerable).
  for (const field in desired) {
    if (!equalField(rules, ignored, field, desired[field], Object.hasOwn(live, field) ? live[field] : undefined)) return false;
  }
  for (const field in live) {
    if (!Object.hasOwn(desired, field) && !equalField(rules, ignored, field, undefined, live[field])) return false;
  }
  // A field on neither side is the default on both.
  return true;
}

function equalField(rules: FieldRules, ignored: ReadonlySet<string> | undefined, field: string, desired: JsonValue | undefined, live: JsonValue | undefined): boolean {
  // The same value on both sides is cleaned alike, whatever the field's rules (most fields of a no-op).
  if (desired === live || ignored?.has(field)) return true;
  const rule = rules.get(field) ?? PLAIN;
  const d = cleanField(rule, desired);
  // A computed field the file leaves out is the service's to fill (an empty list written out is not left out).
  const leftOut = d === undefined && rule.computed && !isEmptyList(desired);
  const l = leftOut ? undefined : cleanField(rule, live);
  if (d === undefined || l === undefined) return d === l;
  if (jsonEqual(d, l)) return true;
  return jsonEqual(canonicalField(rule, d), canonicalField(rule, l));
}

/** One field as clean leaves it: no "no time", no empty values, no secret, the default where absent. */
function cleanField(rule: FieldRule, value: JsonValue | undefined): JsonValue | undefined {
  if (rule.secret) return rule.default;
  const v = value === undefined || (rule.timestamp && isAbsentTime(value)) ? undefined : dropEmpty(value);
  return v === undefined ? rule.default : v;
}

function canonicalField(rule: FieldRule, value: JsonValue): JsonValue {
  const v = rule.timestamp ? canonicalTime(value) : value;
  return rule.set && Array.isArray(v) ? canonicalSet(v) : v;
}

function isEmptyList(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.length === 0;
}
