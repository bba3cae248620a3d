// How one field difference reads for a reviewer, whatever the renderer: a changed long string as the
// words that changed in their context, a changed list as the elements added and removed, anything
// else as before -> after. Secret values are never here: a sensitive diff carries none.
// The word diff's own module: the package's index loads every diff and patch module it has,
// start-up time of every plan for one function.
import { diffWordsWithSpace } from 'diff/lib/diff/word.js';
import { canonicalJson, isJsonObject, setOwn } from '../core/json.js';
import { safeLine } from '../core/safe-text.js';
import type { Change, FieldDiff, JsonObject, JsonValue } from '../core/types.js';
import { ABSENT, formatValue, SENSITIVE_CHANGED, SENSITIVE_VALUE } from './format.js';

/** A run of text in a word diff: unchanged context, or words removed or added. */
export interface WordPiece {
  text: string;
  change: 'same' | 'removed' | 'added';
}

/** One place where words changed, with the words around it. */
export interface WordHunk {
  /** Text before the hunk was left out (shown as `…`). */
  cutBefore: boolean;
  cutAfter: boolean;
  pieces: WordPiece[];
}

export type DiffView =
  /** A secret: no value, only whether it is new or changed. */
  | { form: 'sensitive'; text: string }
  /** The value as JSON; `before` absent on a create. Each side is `(none)` when the field is absent. */
  | { form: 'whole'; before?: string; after: string }
  | { form: 'words'; hunks: WordHunk[] }
  /** Elements as JSON; nothing but the order changed is a `whole`. */
  | { form: 'elements'; added: string[]; removed: string[] };

export interface DiffViewOptions {
  /** Applied to string values before they are split into words, so no secret is cut in pieces the output's redactor would miss. */
  redact?: (text: string) => string;
}

/** Words kept on each side of a change. */
const CONTEXT_WORDS = 4;
/** Strings shorter than this (on one line) read well whole. */
const SHORT_STRING = 40;
/** Beyond this, a word diff costs more than it gives; the value is shown whole. */
const LONGEST_DIFFED = 100_000;
/** Edits beyond which the diff gives up (the two strings have little in common). */
const MAX_EDITS = 2_000;
/** A word diff needs at least this share of the longer string unchanged, or it is noise. */
const MIN_COMMON_SHARE = 0.3;

/** The view of one diff of `change` (a change without a live object is a create: after only). */
export function viewDiff(diff: FieldDiff, change: Pick<Change, 'id'>, options: DiffViewOptions = {}): DiffView {
  const fresh = change.id === undefined;
  if (diff.sensitive) return { form: 'sensitive', text: fresh ? SENSITIVE_VALUE : SENSITIVE_CHANGED };
  // Redacted before any formatting: JSON escapes (a quote, a backslash) would hide a secret from the output's redactor.
  const redact = options.redact;
  const before = redact && diff.before !== undefined ? redactStrings(diff.before, redact) : diff.before;
  const after = redact && diff.after !== undefined ? redactStrings(diff.after, redact) : diff.after;
  if (fresh) return { form: 'whole', after: formatValue(after) };
  if (typeof before === 'string' && typeof after === 'string') {
    const hunks = wordHunks(before, after);
    if (hunks) return { form: 'words', hunks };
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const elements = elementChanges(before, after);
    if (elements.added.length + elements.removed.length > 0) return { form: 'elements', ...elements };
  }
  return { form: 'whole', before: before === undefined ? ABSENT : formatValue(before), after: after === undefined ? ABSENT : formatValue(after) };
}

function redactStrings(value: JsonValue, redact: (text: string) => string): JsonValue {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) setOwn(out, redact(key), redactStrings(item, redact));
  return out;
}

/** Elements of `after` that `before` lacks and the reverse, each counted as often as it occurs (JSON equality). */
function elementChanges(before: readonly JsonValue[], after: readonly JsonValue[]): { added: string[]; removed: string[] } {
  const left = new Map<string, number>();
  for (const item of before) left.set(canonicalJson(item), (left.get(canonicalJson(item)) ?? 0) + 1);
  const added: string[] = [];
  for (const item of after) {
    const key = canonicalJson(item);
    const count = left.get(key) ?? 0;
    if (count > 0) left.set(key, count - 1);
    else added.push(formatValue(item));
  }
  const removed: string[] = [];
  for (const item of before) {
    const key = canonicalJson(item);
    const count = left.get(key) ?? 0;
    if (count > 0) {
      left.set(key, count - 1);
      removed.push(formatValue(item));
    }
  }
  return { added, removed };
}

/** The hunks of a word diff, or undefined when the whole values read better (short, unrelated or huge). */
function wordHunks(before: string, after: string): WordHunk[] | undefined {
  const longer = Math.max(before.length, after.length);
  const multiline = before.includes('\n') || after.includes('\n');
  if ((longer < SHORT_STRING && !multiline) || longer > LONGEST_DIFFED) return undefined;
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDITS });
  if (!parts) return undefined;
  const pieces: WordPiece[] = parts.map((p) => ({ text: p.value, change: p.added ? 'added' : p.removed ? 'removed' : 'same' }));
  const common = pieces.filter((p) => p.change === 'same').reduce((n, p) => n + p.text.length, 0);
  if (common < longer * MIN_COMMON_SHARE) return undefined;
  return hunksOf(pieces);
}

/** Whitespace-separated words with the space before each (trailing space on the last), so that slices rejoin into the text. */
function words(text: string): string[] {
  const all = text.match(/\s*\S+/g);
  if (!all) return text === '' ? [] : [text];
  const trailing = /\s*$/.exec(text)?.[0] ?? '';
  all[all.length - 1] += trailing;
  return all;
}

/** Splits the pieces at unchanged runs longer than twice the context, keeping the context on each side. */
function hunksOf(pieces: readonly WordPiece[]): WordHunk[] {
  const hunks: WordHunk[] = [];
  let current: WordHunk = { cutBefore: false, cutAfter: false, pieces: [] };
  pieces.forEach((piece, i) => {
    if (piece.change !== 'same') {
      current.pieces.push(piece);
      return;
    }
    const first = i === 0;
    const last = i === pieces.length - 1;
    const all = words(piece.text);
    const keepAfterChange = first ? 0 : CONTEXT_WORDS;
    const keepBeforeChange = last ? 0 : CONTEXT_WORDS;
    if (all.length <= keepAfterChange + keepBeforeChange) {
      current.pieces.push(piece);
      return;
    }
    const head = all.slice(0, keepAfterChange).join('');
    const tail = all.slice(all.length - keepBeforeChange).join('');
    if (head !== '') current.pieces.push({ text: head, change: 'same' });
    if (!first) {
      current.cutAfter = true;
      hunks.push(current);
    }
    current = { cutBefore: true, cutAfter: false, pieces: tail === '' ? [] : [{ text: tail.replace(/^\s+/, ''), change: 'same' }] };
  });
  if (current.pieces.some((p) => p.change !== 'same')) hunks.push(current);
  return hunks;
}

/** A hunk as one line: `… a b [-old-]{+new+} c d …`, the text escaped so that no control reaches the reader. */
export function hunkLine(hunk: WordHunk, mark: (piece: WordPiece, text: string) => string = markPiece): string {
  const body = hunk.pieces.map((p) => mark(p, safeLine(p.text))).join('');
  return `${hunk.cutBefore ? '… ' : ''}${body}${hunk.cutAfter ? ' …' : ''}`;
}

/** git's word-diff markers: `[-removed-]`, `{+added+}`. */
export function markPiece(piece: WordPiece, text: string): string {
  if (piece.change === 'removed') return `[-${text}-]`;
  if (piece.change === 'added') return `{+${text}+}`;
  return text;
}

/** `1 added, 2 removed` (only the non-zero parts). */
export function elementCounts(added: number, removed: number): string {
  const parts: string[] = [];
  if (added > 0) parts.push(`${added} added`);
  if (removed > 0) parts.push(`${removed} removed`);
  return parts.join(', ');
}
