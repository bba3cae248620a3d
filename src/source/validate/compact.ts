// A resource's spec is kept for the whole run (the daemon's: for as long as its file is unchanged),
// so it is kept without the parsers' spare room: a YAML parser fills each list by push, which
// leaves space for 16 more items, and makes a new copy of every short text ("Threshold", a
// notifier's name) at each place it is written (docs/incremental.md, "Memory of a one-shot plan").
// Long texts are shared only when they are copies of their own (a one-shot read): a slice of one
// file's text shared into another file's spec would keep that text alive after the file changed.
import { setOwn } from '../../core/json.js';
import { SharedValues, TextPool } from '../../core/text-pool.js';
import type { JsonObject, JsonValue } from '../../core/types.js';

/** Texts this long and shorter are copies of their own; longer ones point into the file's text. */
const SHORT_TEXT = 12;
/** At most this many distinct short texts are shared at a time (a tree of unique ones costs no more). */
const MAX_SHARED = 4096;
/**
 * Long texts are shared up to this length: longer ones are seldom written twice, and the pool
 * outlives the read (a process that plans again keeps at most MAX_SHARED of these).
 */
const MAX_LONG_TEXT = 1024;

const shared = new TextPool(MAX_SHARED);
const sharedAnnotations = new SharedValues<Readonly<Record<string, string>>>(MAX_SHARED);

function isShared(text: string, longTexts: boolean): boolean {
  return text.length <= SHORT_TEXT || (longTexts && text.length <= MAX_LONG_TEXT);
}

function compactValue(value: JsonValue, longTexts: boolean): JsonValue {
  if (typeof value === 'string') return isShared(value, longTexts) ? shared.share(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    // slice: a copy of exactly its length.
    const out = value.slice();
    for (let i = 0; i < out.length; i++) out[i] = compactValue(out[i] as JsonValue, longTexts);
    return out;
  }
  compactObject(value, longTexts);
  return value;
}

/**
 * Compacts `spec` in place: the same object, its lists copied to their length, its short texts
 * shared, and its long ones too when `longTexts` (they are copies of their own).
 */
export function compactObject(spec: JsonObject, longTexts = false): void {
  for (const key of Object.keys(spec)) {
    const value = spec[key] as JsonValue;
    // Equal texts are === whichever copy they are: a shared one is put back whatever it compares as.
    if (typeof value === 'string' ? isShared(value, longTexts) : value !== null && typeof value === 'object') setOwn(spec, key, compactValue(value, longTexts));
  }
}

/**
 * A resource's annotations kept once for every resource that has the same ones, in the same order
 * (a tree often writes the same policy on each of its resources); frozen, as the shared empty
 * record is: annotations are only ever read.
 */
export function compactAnnotations(annotations: Record<string, string>): Record<string, string> {
  return sharedAnnotations.share(JSON.stringify(annotations), Object.freeze(annotations));
}
