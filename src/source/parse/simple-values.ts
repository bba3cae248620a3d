// The values of a file the scan (simple-yaml.ts) vouched for, read without js-yaml: the scan has
// shown that each line is one of a few shapes (`key: value`, `key:`, `- value`, `- key: value`,
// `---`, comments) and that no value runs on to a further line, so the block structure follows from
// the lines' indentation alone. It reads what js-yaml (with CORE_SCHEMA_12) reads: the same
// scalar types resolve plain scalars, a key is the text of its scalar as js-yaml makes it. It
// declines (undefined) what it does not read itself: block scalars, escapes JSON does not share,
// a repeated key, and any structure js-yaml might refuse or read otherwise; js-yaml reads those.
// test/source/parse/simple-values.test.ts holds it to js-yaml's values on generated files.
import { setOwn } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../core/types.js';
import { CORE_IMPLICIT_TYPES, mayNotBeText } from './core-schema.js';
import { DQ, FLOW, FLOW_SCALAR, HASH, KEY, PLAIN, SPACE, SQ, type DocumentStart } from './simple-yaml.js';
import { hasOwn } from './field-path.js';

const NEWLINE = 10;
const DASH = 45;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const OPEN_BRACKET = 91;
const OPEN_BRACE = 123;

// Sticky expressions of the scan's grammar, asked with `test` (no match array per line): where a
// key, a quoted scalar or a flow sequence that starts at `lastIndex` ends.
const KEY_AT = new RegExp(String.raw`(?:${KEY}):(?= |$)`, 'my');
const DOUBLE_QUOTED_AT = new RegExp(DQ, 'y');
const SINGLE_QUOTED_AT = new RegExp(SQ, 'y');
const FLOW_AT = new RegExp(FLOW, 'y');
const PLAIN_AT = new RegExp(PLAIN, 'y');

/** One item of a flow sequence and what follows it: `, ` or the closing `]`. */
const FLOW_ITEM = new RegExp(String.raw`(${FLOW_SCALAR}) *(,|\]) *`, 'y');

/**
 * Characters js-yaml refuses in a scalar (its non-printable ones; below a space in a quoted one) or
 * takes as a line break: a file holding any is left to js-yaml, which says where.
 */
// eslint-disable-next-line no-control-regex
const UNUSUAL_CHARACTER = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u2028\u2029\uD800-\uDFFF\uFFFE\uFFFF]/;

export class Decline extends Error {}

/** A plain scalar's value, resolved as js-yaml resolves it with CORE_SCHEMA_12 (a string if no type takes it). */
function plainScalar(text: string): JsonValue {
  if (text.length > 0 && !mayNotBeText(text.charCodeAt(0))) return text;
  for (const type of CORE_IMPLICIT_TYPES) {
    if (type.resolve(text)) {
      const value = type.construct(text) as JsonValue;
      if (typeof value === 'number' && !Number.isFinite(value)) throw new Decline();
      return value;
    }
  }
  return text;
}

/** Escapes of a double-quoted scalar that JSON reads as YAML does; `\u` is left to js-yaml (surrogates). */
const JSON_ESCAPES = /\\[^"\\/bfnrt]/;

function doubleQuoted(text: string): string {
  if (!text.includes('\\')) return text.slice(1, -1);
  if (JSON_ESCAPES.test(text)) throw new Decline();
  try {
    return JSON.parse(text) as string;
  } catch {
    throw new Decline();
  }
}

function singleQuoted(text: string): string {
  const inner = text.slice(1, -1);
  return inner.includes("''") ? inner.replaceAll("''", "'") : inner;
}

/** Where the text from `start` to `end` ends without its trailing spaces. */
function endWithoutSpaces(text: string, start: number, end: number): number {
  while (end > start && text.charCodeAt(end - 1) === SPACE) end--;
  return end;
}

function trimSpaces(text: string): string {
  const end = endWithoutSpaces(text, 0, text.length);
  return end === text.length ? text : text.slice(0, end);
}

function flowScalar(text: string): JsonValue {
  const c = text.charCodeAt(0);
  if (c === DOUBLE_QUOTE) return doubleQuoted(text);
  if (c === SINGLE_QUOTE) return singleQuoted(text);
  return plainScalar(trimSpaces(text));
}

function flowSequence(text: string): JsonValue[] {
  const items: JsonValue[] = [];
  let at = 1;
  while (text.charCodeAt(at) === SPACE) at++;
  if (text.charCodeAt(at) === 93 /* ] */) return items;
  for (;;) {
    FLOW_ITEM.lastIndex = at;
    const m = FLOW_ITEM.exec(text);
    if (m === null) throw new Decline();
    items.push(flowScalar(m[1] as string));
    at = FLOW_ITEM.lastIndex;
    if (m[2] === ']') return items;
  }
}

/** A value on its line, as the scan's grammar has it: quoted, a flow sequence, `{}`, or plain. */
function scalarValue(text: string): JsonValue {
  const c = text.charCodeAt(0);
  if (c === DOUBLE_QUOTE) return doubleQuoted(text);
  if (c === SINGLE_QUOTE) return singleQuoted(text);
  if (c === OPEN_BRACKET) return flowSequence(text);
  if (c === OPEN_BRACE) return {};
  // (valueText has left out the spaces after it.)
  return plainScalar(text);
}

/** A key's text, as js-yaml stores it: a plain key resolved first (`True:` is the key "true"). */
function keyText(text: string): string {
  const c = text.charCodeAt(0);
  if (c === DOUBLE_QUOTE) return text.slice(1, -1);
  if (c === SINGLE_QUOTE) return singleQuoted(text);
  return String(plainScalar(text));
}

/** A content line cut up: its `- `, its key as written, its value as written (undefined after `key:`). */
export interface LineToken {
  dash: boolean;
  /** Where the key or entry starts, from the line's first character. */
  contentOffset: number;
  key: string | undefined;
  value: string | undefined;
}

function endOf(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  if (!pattern.test(text)) throw new Decline();
  return pattern.lastIndex;
}

/** The value at `at`, as written: the comment after it and trailing spaces left out. */
function valueText(text: string, at: number): string {
  const c = text.charCodeAt(at);
  if (c === DOUBLE_QUOTE) return text.slice(at, endOf(DOUBLE_QUOTED_AT, text, at));
  if (c === SINGLE_QUOTE) return text.slice(at, endOf(SINGLE_QUOTED_AT, text, at));
  if (c === OPEN_BRACKET) return text.slice(at, endOf(FLOW_AT, text, at));
  if (c === OPEN_BRACE) return '{}';
  // (Its trailing spaces are matched too: js-yaml leaves them out.)
  return text.slice(at, endWithoutSpaces(text, at, endOf(PLAIN_AT, text, at)));
}

/**
 * Cuts up the content line starting at `first` (its first character that is not a space) of a
 * text the scan vouched for, as the scan's line expression (CONTENT_LINE) reads it; throws
 * Decline at a block scalar. The grammar holds, so a few sticky tests say where each part ends.
 * Written into `token` (the reader itself): no object per line.
 */
export function tokenizeLine(text: string, first: number, token: LineToken): void {
  let at = first;
  const dash = text.charCodeAt(at) === DASH;
  if (dash) {
    at++;
    while (text.charCodeAt(at) === SPACE) at++;
  }
  let end = text.indexOf('\n', at);
  if (end === -1) end = text.length;
  token.dash = dash;
  token.contentOffset = at - first;
  token.key = undefined;
  token.value = undefined;
  KEY_AT.lastIndex = at;
  if (KEY_AT.test(text)) {
    const colon = KEY_AT.lastIndex - 1;
    token.key = text.slice(at, colon);
    let v = colon + 1;
    while (text.charCodeAt(v) === SPACE) v++;
    if (v >= end || text.charCodeAt(v) === HASH) return;
    const c = text.charCodeAt(v);
    // A block scalar's lines are not one line each: js-yaml reads them.
    if (c === 124 /* | */ || c === 62 /* > */) throw new Decline();
    token.value = valueText(text, v);
    return;
  }
  if (!dash) throw new Decline();
  token.value = valueText(text, at);
}

/** Reads one document's lines, a content line at a time, by indentation. */
class DocumentReader implements LineToken {
  /** The current line: at its end of document when `done`. */
  private done = false;
  private next = 0;
  indent = 0;
  dash = false;
  /** The column of the line's key or entry: past `- ` when it has one. */
  column = 0;
  contentOffset = 0;
  key: string | undefined;
  value: string | undefined;

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.next = start;
    this.advance();
  }

  get atEnd(): boolean {
    return this.done;
  }

  /** Moves to the next content line of the document, past blank and comment lines. */
  advance(): void {
    const { text } = this;
    for (;;) {
      const start = this.next;
      if (start >= text.length) {
        this.done = true;
        return;
      }
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      this.next = end + 1;
      let first = start;
      while (text.charCodeAt(first) === SPACE) first++;
      const c = text.charCodeAt(first);
      if (first === end || c === HASH || c === NEWLINE) continue;
      if (first === start && c === DASH && text.startsWith('---', start)) {
        this.done = true;
        return;
      }
      this.tokenize(first, first - start);
      return;
    }
  }

  private tokenize(first: number, indent: number): void {
    tokenizeLine(this.text, first, this);
    this.indent = indent;
    this.column = indent + this.contentOffset;
  }

  /** The node whose first line is the current one, at its indentation. */
  node(): JsonValue {
    if (this.dash) return this.sequence(this.indent);
    if (this.key === undefined) throw new Decline();
    return this.mapping(this.column);
  }

  private sequence(indent: number): JsonValue[] {
    const items: JsonValue[] = [];
    while (!this.done && this.dash && this.indent === indent) {
      if (this.key !== undefined) {
        items.push(this.mapping(this.column));
      } else {
        items.push(scalarValue(this.value as string));
        this.advance();
      }
    }
    // Deeper lines after an entry are nothing the grammar lets a valid file hold.
    if (!this.done && this.indent > indent) throw new Decline();
    return items;
  }

  /** A mapping whose keys sit at `column`; the current line holds its first key. */
  private mapping(column: number): JsonObject {
    const out: JsonObject = {};
    for (;;) {
      const key = keyText(this.key as string);
      if (out[key] !== undefined && hasOwn(out, key)) throw new Decline();
      const value = this.value;
      this.advance();
      setOwn(out, key, value !== undefined ? scalarValue(value) : this.blockValue(column));
      if (this.done || this.indent < column) return out;
      if (this.indent > column || this.dash || this.key === undefined) throw new Decline();
    }
  }

  /** The value of `key:` with nothing after it: the block below, a sequence at the key's column, or null. */
  private blockValue(column: number): JsonValue {
    if (this.done) return null;
    if (this.indent > column) return this.node();
    if (this.indent === column && this.dash) return this.sequence(column);
    return null;
  }
}

/**
 * The values of the documents of a text `simpleDocumentStarts` vouched for, in js-yaml's numbering
 * (null where a document holds nothing), or undefined where js-yaml must read the text.
 */
export function readSimpleValues(text: string, starts: readonly (DocumentStart | undefined)[]): JsonValue[] | undefined {
  if (UNUSUAL_CHARACTER.test(text)) return undefined;
  const values: JsonValue[] = [];
  try {
    for (const start of starts) {
      if (start === undefined) {
        values.push(null);
        continue;
      }
      const reader = new DocumentReader(text, start.offset);
      if (reader.atEnd || reader.indent !== 0) return undefined;
      values.push(reader.node());
      if (!reader.atEnd) return undefined;
    }
  } catch (err) {
    if (err instanceof Decline) return undefined;
    throw err;
  }
  return values;
}
