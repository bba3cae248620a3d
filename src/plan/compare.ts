// Spec-space comparison of one declared resource with its live object: both sides normalised so
// that only real differences remain, then walked into field-level diffs.
import type { FieldDiff, JsonObject, JsonValue } from '../core/types.js';
import type { KindModule } from '../kinds/types.js';
import { compareText, dropEmptyObject, isEmptyValue, isJsonObject, jsonEqual } from '../core/json.js';
import { findPaths, getAt, isPrefix, withValueAt, withValuesAt, withoutValuesAt } from '../core/json-paths.js';
import { withoutAbsentTimes } from '../core/time.js';
import { canonicalSet, canonicalTime, defaultsOf, equalWhenCompared } from './compare-equal.js';
import { compareSecrets, type SecretState } from './secrets.js';

export interface CompareInput {
  module: KindModule;
  /** The desired spec after the kind's normalize. Holds secret values: never copied into a diff. */
  desired: JsonObject;
  /** The live spec from fromWire; undefined when there is no live object (a create). */
  live: JsonObject | undefined;
  /** The live wire object (for the kind's alignLive); absent when there is none. */
  liveRaw?: JsonObject | undefined;
  /** wsync/ignore-fields patterns, as segments (`*` = any key); each ignores its subtree. */
  ignore: readonly string[][];
  /** Spec paths of values that came from `${env:}`/`${file:}`: compared, never shown. */
  interpolated: readonly string[][];
  secrets: SecretState;
}

export interface Comparison {
  diffs: FieldDiff[];
  /** A secret is written because its live value cannot be read back (blanked) and no hash is recorded. */
  secretUnknown: boolean;
}

export interface RawDiff {
  segments: string[];
  before?: JsonValue;
  after?: JsonValue;
}

/** One difference at the smallest differing node: spec segments (a keyed array's item as `[name]`), the live value, the declared one. */
export interface SpecDifference {
  segments: string[];
  live?: JsonValue;
  desired?: JsonValue;
}

/**
 * The differences compareSpecs words as diffs, secrets left out, with their segments and values as
 * they are (the planner's reading of both sides): `wsync pull` writes the live ones back into the files.
 */
export function specDifferences(input: CompareInput): SpecDifference[] {
  return rawDifferences(input, alignedLive(input)).map((d) => ({
    segments: d.segments,
    ...(d.before !== undefined ? { live: d.before } : {}),
    ...(d.after !== undefined ? { desired: d.after } : {}),
  }));
}

/** Values the service answers in another form than written (an MPL query in aplQuery) are no news. */
function alignedLive(input: CompareInput): JsonObject | undefined {
  const { module } = input;
  return input.live !== undefined && input.liveRaw !== undefined && module.alignLive ? module.alignLive(input.desired, input.live, input.liveRaw) : input.live;
}

function rawDifferences(input: CompareInput, live: JsonObject | undefined): RawDiff[] {
  // Most resources equal their live objects: that is told without the copies the walk makes.
  if (live !== undefined && equalWhenCompared(input.module, input.desired, live, input.ignore)) return [];
  return walkedDifferences(input, live);
}

/** rawDifferences by the walk alone (exported for the test that holds the shortcut to it). */
export function walkedDifferences(input: CompareInput, live: JsonObject | undefined): RawDiff[] {
  const { module, desired, ignore } = input;
  // With nothing live, the diff shows what the file says; the server's defaults are no news.
  const desiredClean = clean(module, desired, ignore, [], live !== undefined);
  // Fields the server fills in on its own (Annotation time) are no drift when the file leaves them out.
  // An empty list written out (a group's `members: []`) is not left out: it means none, and is compared.
  const computedLeftOut = module.computed.filter(
    (pattern) => findPaths(desiredClean, [pattern]).length === 0 && !isEmptyList(getAt(desired, pattern.split('.'))),
  );
  const liveClean = live === undefined ? {} : clean(module, live, ignore, computedLeftOut, true);

  const [desiredItems, liveItems] = keyItems(module, desiredClean, liveClean);
  const raw: RawDiff[] = [];
  walk(desiredItems, liveItems, canonical(module, desiredItems), canonical(module, liveItems), [], raw);
  return raw;
}

export function compareSpecs(input: CompareInput): Comparison {
  const { module, desired, ignore } = input;
  const live = alignedLive(input);
  const raw = rawDifferences(input, live);
  // Equal, and no secret to compare by hash (most of a no-op plan): nothing to word.
  if (raw.length === 0 && module.secretFields.length === 0) return { diffs: [], secretUnknown: false };
  const interpolated = raw.length === 0 ? [] : input.interpolated.map((p) => keyedSegments(module, desired, p));
  const diffs: FieldDiff[] = raw.map((d) => {
    if (interpolated.some((p) => isPrefix(d.segments, p) || isPrefix(p, d.segments))) {
      return { path: displayPath(d.segments), sensitive: true };
    }
    const diff: FieldDiff = { path: displayPath(d.segments) };
    if (d.before !== undefined) diff.before = d.before;
    if (d.after !== undefined) diff.after = d.after;
    return diff;
  });

  const secret = compareSecrets(module, desired, live, ignore, input.secrets);
  diffs.push(...secret.diffs);
  diffs.sort((a, b) => compareText(a.path, b.path));
  return { diffs, secretUnknown: secret.unknown };
}

/**
 * The comparable form of one side: secrets out (they are compared by hash), empty values and
 * "no time" out (absent ≡ empty), server defaults in where the field is absent, ignored and
 * computed fields out.
 */
function clean(
  module: KindModule,
  spec: JsonObject,
  ignore: readonly string[][],
  dropped: readonly string[],
  withDefaults: boolean,
): JsonObject {
  // Copy on write: the spec's objects are shared with the result wherever nothing changes in them.
  let cleaned = dropEmptyObject(withoutAbsentTimes(spec, module.timestamps));
  let removed = false;
  const remove = (found: readonly { segments: readonly string[] }[]): void => {
    if (found.length === 0) return;
    cleaned = withoutValuesAt(cleaned, found.map((f) => f.segments));
    removed = true;
  };
  remove(findPaths(cleaned, module.secretFields));
  if (withDefaults) {
    const spec = cleaned;
    cleaned = withValuesAt(
      spec,
      defaultsOf(module).filter(([segments]) => isEmptyValue(getAt(spec, segments))),
    );
  }
  for (const pattern of [...ignore.map((p) => p.join('.')), ...dropped]) remove(findPaths(cleaned, [pattern]));
  // A removal may leave an object empty.
  return removed ? dropEmptyObject(cleaned) : cleaned;
}

/**
 * The segment that stands for the item of a keyed array named `key`: shown as `charts[errors]`, or
 * `charts["a.b"]` (JSON-quoted) when the name could be misread.
 */
function itemSegment(key: string): string {
  return /^[^[\]."\\\s]+$/.test(key) ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

/** `dashboard.charts[errors].query.apl`: dotted, item segments without a dot. */
function displayPath(segments: readonly string[]): string {
  let out = '';
  for (const segment of segments) out += out === '' || segment.startsWith('[') ? segment : `.${segment}`;
  return out;
}

/** The items of a keyed array by their names, or undefined when some item has no name or shares one. */
function itemsByName(value: JsonValue | undefined, key: string): JsonObject | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: JsonObject = {};
  for (const item of value) {
    const name = isJsonObject(item) ? item[key] : undefined;
    if (typeof name !== 'string' || Object.prototype.hasOwnProperty.call(out, itemSegment(name))) return undefined;
    out[itemSegment(name)] = item;
  }
  return out;
}

/**
 * Keyed arrays turned into objects keyed by their items' names on both sides, so the walk diffs
 * item by item (an added chart, a changed query) instead of the array as a whole. An array that
 * cannot be keyed on either side stays an array on both.
 */
function keyItems(module: KindModule, desired: JsonObject, live: JsonObject): [JsonObject, JsonObject] {
  let d = desired;
  let l = live;
  for (const { path, key } of module.keyedArrays ?? []) {
    const segments = path.split('.');
    const dValue = getAt(d, segments);
    const lValue = getAt(l, segments);
    const dItems = itemsByName(dValue, key);
    const lItems = itemsByName(lValue, key);
    if ((dValue !== undefined && !dItems) || (lValue !== undefined && !lItems)) continue;
    if (dItems) d = withValueAt(d, segments, dItems);
    if (lItems) l = withValueAt(l, segments, lItems);
  }
  return [d, l];
}

/** Spec segments with the index of a keyed array's item replaced by its name, as the walk names it. */
export function keyedSegments(module: KindModule, spec: JsonObject, segments: readonly string[]): string[] {
  const out = [...segments];
  for (const { path, key } of module.keyedArrays ?? []) {
    const arrayPath = path.split('.');
    if (!isPrefix(arrayPath, out) || out.length <= arrayPath.length) continue;
    const array = getAt(spec, arrayPath);
    const item = Array.isArray(array) ? array[Number(out[arrayPath.length])] : undefined;
    const name = isJsonObject(item) ? item[key] : undefined;
    if (typeof name === 'string') out[arrayPath.length] = itemSegment(name);
  }
  return out;
}

/** Timestamps as instants and sets in one order, so that equal meanings compare equal. */
function canonical(module: KindModule, spec: JsonObject): JsonObject {
  const puts: [readonly string[], JsonValue][] = [];
  for (const found of findPaths(spec, module.timestamps)) {
    const instant = canonicalTime(found.value);
    if (instant !== found.value) puts.push([found.segments, instant]);
  }
  for (const found of findPaths(spec, module.setFields)) {
    if (Array.isArray(found.value)) puts.push([found.segments, canonicalSet(found.value)]);
  }
  return withValuesAt(spec, puts);
}

/** Diffs at the smallest differing node; objects are entered, arrays and scalars compared whole. */
function walk(
  desired: JsonValue | undefined,
  live: JsonValue | undefined,
  desiredCanon: JsonValue | undefined,
  liveCanon: JsonValue | undefined,
  at: string[],
  out: RawDiff[],
): void {
  if (desiredCanon === undefined && liveCanon === undefined) return;
  const desiredIsObject = desiredCanon === undefined || isJsonObject(desiredCanon);
  const liveIsObject = liveCanon === undefined || isJsonObject(liveCanon);
  if (desiredIsObject && liveIsObject) {
    const d = isJsonObject(desired) ? desired : {};
    const l = isJsonObject(live) ? live : {};
    const dc = isJsonObject(desiredCanon) ? desiredCanon : {};
    const lc = isJsonObject(liveCanon) ? liveCanon : {};
    // No order needed here: compareSpecs sorts the diffs by path.
    for (const key of Object.keys(dc)) walkChild(d, l, dc, lc, key, at, out);
    for (const key of Object.keys(lc)) if (!Object.prototype.hasOwnProperty.call(dc, key)) walkChild(d, l, dc, lc, key, at, out);
    return;
  }
  if (jsonEqual(desiredCanon, liveCanon)) return;
  const diff: RawDiff = { segments: at };
  if (live !== undefined) diff.before = live;
  if (desired !== undefined) diff.after = desired;
  out.push(diff);
}

/** walk of one key of two objects; equal scalars (most of a no-op plan) are passed over without a path. */
function walkChild(d: JsonObject, l: JsonObject, dc: JsonObject, lc: JsonObject, key: string, at: string[], out: RawDiff[]): void {
  const dv = dc[key];
  const lv = lc[key];
  if (dv === lv && (dv === null || typeof dv !== 'object')) return;
  walk(d[key], l[key], dv, lv, [...at, key], out);
}

function isEmptyList(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.length === 0;
}
