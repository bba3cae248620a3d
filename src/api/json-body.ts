// A successful answer's JSON, read as it arrives. Read whole, a large list's text and the buffers it
// was decoded from were held with the objects made of it, and were a large share of what a plan
// held at its peak (docs/incremental.md, "Memory of a one-shot plan"). A top-level array is parsed
// a run of whole elements at a time, as soon as the run's last byte is in; any other answer is read
// whole, as before. Either way the value is what JSON.parse of the whole text gives, and a text
// that is not JSON fails the same, quoting the same start of it.
import { setOwn } from '../core/json.js';
import { TextPool } from '../core/text-pool.js';
import type { JsonObject } from '../core/types.js';

/** The answer's value; or its text (not an array: parsed by the caller); or the start of a text that is not JSON. */
export type JsonBody = { value: unknown } | { text: string } | { notJson: string };

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** What a caller quotes of a text that is not JSON is at most this long (client.ts, oneLine): the start kept is safely more. */
const QUOTED_START = 1024;
/** JSON.parse already gives one string for equal texts this long or shorter (V8 keeps them in its string table). */
const SHARED_BY_PARSER = 10;
/** At most this many distinct texts of one list are shared at a time. */
const MAX_SHARED = 4096;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** `},{`: between two objects, where a list of objects most often has its top-level commas. */
const BETWEEN_OBJECTS = Buffer.from('},{');

/**
 * Splits an array's text at its top-level commas as bytes arrive. Structural bytes are ASCII and
 * never part of a multi-byte UTF-8 character, so every cut falls between characters.
 *
 * A chunk is first cut at its last `},{` on a guess: the run up to that comma is whole elements
 * exactly when `[run]` parses (cut anywhere else, inside a string or a nested value, it leaves a
 * string or a bracket open), so JSON.parse itself checks the guess, and a guess that does not
 * parse is not an error, only no cut. Otherwise (no such comma, a wrong guess) the bytes are
 * scanned one by one for the top-level commas and the closing bracket, as they were for every
 * chunk: looking at each byte of a large list cost more than parsing it (docs/incremental.md,
 * "CPU of a one-shot plan").
 */
class ArraySplitter {
  readonly items: unknown[] = [];
  private readonly texts = new TextPool(MAX_SHARED);
  /** The bytes after the last cut (they start where an element may start). */
  private pending: Buffer[] = [];
  /** How many of `pending` the byte scan has read; its state below is the state at their end. */
  private scanned = 0;
  private depth = 1;
  private inString = false;
  private escaped = false;
  private sawComma = false;
  /** Guesses made and guesses that did not parse: a list whose guesses mostly fail stops guessing. */
  private guesses = 0;
  private wrongGuesses = 0;
  /** Set once the closing bracket is read: only whitespace may follow. */
  closed = false;
  failed = false;

  push(chunk: Buffer): void {
    if (this.failed) return;
    if (this.closed) {
      if (!isBlank(chunk, 0)) this.failed = true;
      return;
    }
    this.pending.push(chunk);
    if (this.wrongGuesses <= 2 + this.guesses / 16) {
      const at = chunk.lastIndexOf(BETWEEN_OBJECTS);
      if (at >= 0) {
        this.guesses++;
        if (this.guessCut(at + 1)) return;
        this.wrongGuesses++;
      }
    }
    this.scan();
  }

  /** Reads what is left once the last byte is in: whether the array closed and everything in it parsed. */
  finish(): boolean {
    if (!this.failed && !this.closed) this.scan();
    return this.closed && !this.failed;
  }

  /** Cuts at the comma at `comma` of the last pending chunk if what comes before it parses as whole elements. */
  private guessCut(comma: number): boolean {
    const last = this.pending.length - 1;
    const chunk = this.pending[last] as Buffer;
    const parsed = parseRun(this.runUpTo(last, comma));
    if (parsed === undefined) return false;
    this.take(parsed);
    this.sawComma = true;
    this.pending = [chunk.subarray(comma + 1)];
    this.scanned = 0;
    this.depth = 1;
    this.inString = false;
    this.escaped = false;
    return true;
  }

  /** The pending bytes before `end` of pending chunk `index`, decoded. */
  private runUpTo(index: number, end: number): string {
    const chunk = this.pending[index] as Buffer;
    const run = index === 0 ? chunk.subarray(0, end) : Buffer.concat([...this.pending.slice(0, index), chunk.subarray(0, end)]);
    return run.toString('utf8');
  }

  /**
   * Keeps the elements of a run, equal texts of their fields shared: a list's objects repeat
   * their creator, their times, the ids they refer to, and are kept for the whole run, while the
   * copies die young, before V8 moves them out of its young generation.
   */
  private take(parsed: unknown[]): void {
    for (let i = 0; i < parsed.length; i++) {
      const item = parsed[i];
      if (item !== null && typeof item === 'object' && !Array.isArray(item)) shareTexts(item as JsonObject, this.texts);
      this.items.push(item);
    }
  }

  /** Scans the pending chunks not scanned yet byte by byte; cuts at the last top-level comma, or at the closing bracket. */
  private scan(): void {
    let { depth, inString, escaped } = this;
    let cutChunk = -1;
    let cutAt = -1;
    for (let k = this.scanned; k < this.pending.length; k++) {
      const chunk = this.pending[k] as Buffer;
      // Most of a list's bytes are inside strings: they are skipped to the next quote or backslash
      // with Buffer.indexOf, not looked at one by one. -2: not looked for yet; -1: none left.
      let nextBackslash = -2;
      for (let i = 0; i < chunk.length; i++) {
        if (inString) {
          if (escaped) {
            escaped = false;
            continue;
          }
          if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = chunk.indexOf(BACKSLASH, i);
          const quote = chunk.indexOf(QUOTE, i);
          if (nextBackslash !== -1 && (quote === -1 || nextBackslash < quote)) {
            // The byte after the backslash is escaped (it may be in the next chunk).
            i = nextBackslash;
            escaped = true;
            continue;
          }
          if (quote === -1) break;
          i = quote;
          inString = false;
          continue;
        }
        const byte = chunk[i] as number;
        if (byte === QUOTE) inString = true;
        else if (byte === OPEN || byte === OPEN_OBJECT) depth++;
        else if (byte === CLOSE || byte === CLOSE_OBJECT) {
          depth--;
          if (depth === 0) {
            // `[1}`: only a bracket closes the array.
            if (byte !== CLOSE) {
              this.failed = true;
              return;
            }
            this.close(k, i);
            return;
          }
        } else if (byte === COMMA && depth === 1) {
          cutChunk = k;
          cutAt = i;
        }
      }
    }
    Object.assign(this, { depth, inString, escaped });
    this.scanned = this.pending.length;
    if (cutChunk >= 0) this.cut(cutChunk, cutAt, false);
  }

  /** The closing bracket at `at` of pending chunk `index`: the last run parsed; only whitespace may follow. */
  private close(index: number, at: number): void {
    const after = this.pending.slice(index + 1);
    const blankAfter = isBlank(this.pending[index] as Buffer, at + 1) && after.every((chunk) => isBlank(chunk, 0));
    this.cut(index, at, true);
    this.closed = true;
    if (!blankAfter) this.failed = true;
  }

  /** Parses the pending bytes up to `end` of pending chunk `index` (a comma, or the closing bracket when `last`). */
  private cut(index: number, end: number, last: boolean): void {
    const text = this.runUpTo(index, end);
    this.pending = [(this.pending[index] as Buffer).subarray(end + 1), ...this.pending.slice(index + 1)];
    this.scanned = this.pending.length;
    if (text.trim() === '') {
      // `[]` and `[ ]` hold nothing; `[,1]`, `[1,,2]` and `[1,]` are not JSON.
      if (!last || this.sawComma) this.failed = true;
      return;
    }
    if (!last) this.sawComma = true;
    const parsed = parseRun(text);
    if (parsed === undefined) {
      this.failed = true;
      return;
    }
    this.take(parsed);
  }
}

/** `object`'s texts and lists of texts (one level deep: ids of other objects) shared through `texts`. */
function shareTexts(object: JsonObject, texts: TextPool): void {
  for (const key in object) {
    const value = object[key];
    if (typeof value === 'string') {
      if (value.length > SHARED_BY_PARSER) setOwn(object, key, texts.share(value));
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (typeof item === 'string' && item.length > SHARED_BY_PARSER) value[i] = texts.share(item);
      }
    }
  }
}

/** The elements of `[run]`, or undefined when that is not JSON. */
function parseRun(run: string): unknown[] | undefined {
  try {
    return JSON.parse(`[${run}]`) as unknown[];
  } catch {
    return undefined;
  }
}

/** Whether `chunk` holds only whitespace from `from` on. */
function isBlank(chunk: Buffer, from: number): boolean {
  for (let i = from; i < chunk.length; i++) if (!isSpace(chunk[i] as number)) return false;
  return true;
}

/**
 * The start of the text, kept for the message of an answer that is not JSON. The message quotes
 * the text with its whitespace collapsed, cut after a few hundred characters: a start that still
 * holds more than QUOTED_START characters once collapsed is quoted exactly as the whole.
 */
class TextStart {
  private readonly pieces: Buffer[] = [];
  private length = 0;
  private checkAt = QUOTED_START * 4;
  private enough = false;

  push(chunk: Buffer): void {
    if (this.enough) return;
    this.pieces.push(chunk);
    this.length += chunk.length;
    if (this.length < this.checkAt) return;
    this.enough = decode(this.pieces).replace(/\s+/g, ' ').trimStart().length > QUOTED_START + 1;
    this.checkAt = this.length * 2;
  }

  text(): string {
    return decode(this.pieces);
  }
}

function decode(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  // As undici's text(): a UTF-8 byte order mark is not part of the text.
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

/** Reads a successful answer's body: see JsonBody. */
export async function readJsonBody(body: AsyncIterable<Buffer>): Promise<JsonBody> {
  const start = new TextStart();
  // The bytes before the first that is not whitespace (a byte order mark aside): which kind of text it is.
  let head: Buffer = Buffer.alloc(0);
  let scanned = 0;
  let splitter: ArraySplitter | undefined;
  let whole: Buffer[] | undefined;
  for await (const chunk of body) {
    start.push(chunk);
    if (splitter) splitter.push(chunk);
    else if (whole) whole.push(chunk);
    else {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      // Only once three bytes are in can a byte order mark be told from the start of a text.
      if (head.length < 3) continue;
      const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
      let at = Math.max(scanned, bom ? 3 : 0);
      while (at < head.length && isSpace(head[at] as number)) at++;
      scanned = at;
      if (at === head.length) continue;
      if (head[at] === OPEN) {
        splitter = new ArraySplitter();
        splitter.push(head.subarray(at + 1));
      } else whole = [head];
    }
  }
  if (!splitter) return { text: decode(whole ?? [head]) };
  if (!splitter.finish()) return { notJson: start.text() };
  return { value: splitter.items };
}
