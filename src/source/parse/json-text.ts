// A JSON file (RFC 8259, strictly: no comments, no trailing commas) read with where each value
// sits, so an error in a dashboard exported from the UI names its file, line and column.
// JSON.parse gives neither positions of values nor, in every case, of its own errors; the yaml
// package would accept what JSON does not. Strings are decoded by JSON.parse itself.
import { escapePointerSegment } from '../../core/json-paths.js';
import type { JsonObject, JsonValue, SourceLocation } from '../../core/types.js';
import { MAX_DEPTH, MAX_DOCUMENT_NODES } from '../limits.js';

export type JsonText =
  | {
      value: JsonValue;
      /** JSON Pointer -> position: of the key for object members, of the value for array items. */
      locations: Record<string, SourceLocation>;
    }
  | { error: { line: number; column: number; message: string } };

class JsonSyntaxError extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Record<string, JsonValue> = { true: true, false: false, null: null };

class Reader {
  private at: number;
  private nodes = 0;
  readonly locations: Record<string, SourceLocation> = {};
  private readonly lineStarts: number[] = [0];

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    // A byte order mark is no part of the JSON and no column an editor counts.
    this.at = text.startsWith('\uFEFF') ? 1 : 0;
  }

  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.lineStarts.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.lineStarts[mid] as number) <= offset) low = mid + 1;
      else high = mid;
    }
    const line = Math.max(1, low);
    const bom = line === 1 && this.text.startsWith('\uFEFF') ? 1 : 0;
    return { line, column: Math.max(1, offset - (this.lineStarts[line - 1] as number) + 1 - bom) };
  }

  private locate(pointer: string, offset: number): void {
    this.locations[pointer] = { file: this.file, ...this.position(offset) };
  }

  document(): JsonValue {
    this.space();
    const value = this.value('', 0);
    this.space();
    if (this.at < this.text.length) throw new JsonSyntaxError(this.at, `unexpected ${this.shown()} after the end of the JSON value`);
    return value;
  }

  private shown(): string {
    if (this.at >= this.text.length) return 'end of file';
    const char = this.text[this.at] as string;
    return /[\x20-\x7e]/.test(char) ? `"${char}"` : `character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at] as string)) this.at++;
  }

  private expect(char: string, what: string): void {
    this.space();
    if (this.text[this.at] !== char) throw new JsonSyntaxError(this.at, `expected ${what}, found ${this.shown()}`);
    this.at++;
  }

  private value(pointer: string, depth: number): JsonValue {
    this.space();
    if (++this.nodes > MAX_DOCUMENT_NODES) throw new JsonSyntaxError(this.at, `more than ${MAX_DOCUMENT_NODES} values`);
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(this.at, `nested deeper than ${MAX_DEPTH} levels`);
    const char = this.text[this.at];
    if (char === '{') return this.object(pointer, depth);
    if (char === '[') return this.array(pointer, depth);
    if (char === '"') return this.string();
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(this.text);
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    for (const [word, literal] of Object.entries(LITERALS)) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return literal;
      }
    }
    throw new JsonSyntaxError(this.at, `expected a value, found ${this.shown()}`);
  }

  private string(): string {
    const start = this.at;
    this.at++;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) throw new JsonSyntaxError(start, 'a string that is never closed');
      if (char === '"') break;
      if (char === '\\') this.at++;
      else if (char.charCodeAt(0) < 0x20) throw new JsonSyntaxError(this.at, 'a control character inside a string (write it as \\n, \\t or \\u00XX)');
      this.at++;
    }
    this.at++;
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string;
    } catch {
      throw new JsonSyntaxError(start, 'a string with an invalid escape sequence');
    }
  }

  private object(pointer: string, depth: number): JsonObject {
    const out: JsonObject = {};
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      const keyAt = this.at;
      if (this.text[this.at] !== '"') throw new JsonSyntaxError(this.at, `expected a member name in double quotes, found ${this.shown()}`);
      const key = this.string();
      if (Object.prototype.hasOwnProperty.call(out, key)) throw new JsonSyntaxError(keyAt, `member "${key}" appears twice in one object`);
      const child = `${pointer}/${escapePointerSegment(key)}`;
      this.locate(child, keyAt);
      this.expect(':', '":" after a member name');
      Object.defineProperty(out, key, { value: this.value(child, depth + 1), enumerable: true, writable: true, configurable: true });
      if (this.more('}')) continue;
      return out;
    }
  }

  /** After a member or an item: a comma and another one (true), or the closing bracket (false). */
  private more(close: '}' | ']'): boolean {
    this.space();
    if (this.text[this.at] === ',') {
      this.at++;
      this.space();
      if (this.text[this.at] === close) throw new JsonSyntaxError(this.at - 1, `a comma before "${close}" (JSON allows no trailing comma)`);
      return true;
    }
    this.expect(close, `"," or "${close}"`);
    return false;
  }

  private array(pointer: string, depth: number): JsonValue[] {
    const out: JsonValue[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      const child = `${pointer}/${out.length}`;
      this.locate(child, this.at);
      out.push(this.value(child, depth + 1));
      if (this.more(']')) continue;
      return out;
    }
  }
}

/** Reads `text` as one JSON value; `file` names it in the locations. Never throws. */
export function readJsonText(text: string, file: string): JsonText {
  const reader = new Reader(text, file);
  try {
    const value = reader.document();
    reader.locations[''] = { file, line: 1, column: 1 };
    return { value, locations: reader.locations };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    return { error: { ...reader.position(err.at), message: `not valid JSON: ${err.message}` } };
  }
}
