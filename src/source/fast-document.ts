import jsYaml from 'js-yaml';
import { isJsonObject, setOwn } from '../core/json.js';
import type { JsonObject, JsonValue, SourceLocation } from '../core/types.js';
import { CORE_SCHEMA_12 } from './core-schema.js';
import { hasOwn, MERGE_KEY } from './field-path.js';
import { declaresWsyncApiVersion, interpolateDocument } from './interpolate-document.js';
import type { SecretSources } from './interpolate.js';
import { MAX_ALIAS_EXPANSION, MAX_ALIASES, MAX_DEPTH, MAX_DOCUMENT_NODES } from './limits.js';
import { readWithYaml } from './yaml-document.js';

// The fast path: js-yaml (several times faster than `yaml`) reads the values of a file that has
// nothing to report. It declines (returns undefined) whatever it cannot vouch for, and the `yaml`
// path then reads the file as before, so every diagnostic still comes from there, with its exact
// position. What it takes, it must read exactly as the `yaml` path does: test/source/fast-path
// checks that on generated documents. Positions are computed on demand, by the `yaml` path.

/** A document's location map, computed by the `yaml` path on first use, for all of a file at once. */
class LazyLocations {
  private byStart: Map<number, Record<string, SourceLocation>> | undefined;

  constructor(
    private text: string,
    private readonly file: string,
  ) {}

  of(startOffset: number, start: SourceLocation): Record<string, SourceLocation> {
    if (this.byStart === undefined) {
      this.byStart = new Map();
      for (const doc of readWithYaml(this.text, this.file).documents) this.byStart.set(doc.startOffset, doc.locations);
      this.text = '';
    }
    return this.byStart.get(startOffset) ?? { '': start };
  }
}

/** Thrown inside the fast path to decline a file; never escapes it. */
class Declined extends Error {}

/** What js-yaml's parse listener sees (its State; only these fields are read). */
interface ListenerState {
  input: string;
  position: number;
  line: number;
  lineStart: number;
  depth: number;
  kind: string | null;
  result: unknown;
  anchor: string | null;
  documents: unknown[];
}

const TAB_INDENT = /^ *\t/m;
/** Explicit keys (`? key`): one may be a collection, which would reach js-yaml's output as text. */
const EXPLICIT_KEY = /(?:^|[\s[{,])\?(?:[ \t\r\n]|$)/m;
/** What anchor and alias names are made of here; anything else is left to the `yaml` path. */
const NAME_CHAR = /[\w.-]/;
const LAST_LINE_BLANK = /\n[ \t]+$/;
const MARKER_AND_TEXT = /^(?:---|\.\.\.)[^\s]|^\.\.\.[ \t]+[^\s#]/m;
/** What may stand before a block collection on its first line: indentation, `- ` indicators, properties. */
const BLOCK_COLLECTION_PREFIX = /^ *(?:(?:-|&\S+|!\S*) +)*$/;

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** Why the fast path leaves a text to the `yaml` path without trying, if it does. */
function declinedText(text: string): string | undefined {
  // Directives: %YAML 1.1 changes how scalars resolve, %TAG what tags mean.
  if (text.charCodeAt(0) === 37 /* % */ || text.includes('\n%')) return 'a directive';
  // A CR alone ends a line for js-yaml but not for the `yaml` path's line counter.
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return 'a CR line break';
  // The `yaml` path reads some text after a byte order mark otherwise (`\ufeff- a: 1`).
  if (text.includes('\ufeff')) return 'a byte order mark';
  // js-yaml ends the text with a line break, which a `|+` scalar there would keep.
  if (LAST_LINE_BLANK.test(text)) return 'a blank last line without a line break';
  // Tabs in indentation: the `yaml` path refuses them, js-yaml takes some.
  if (text.includes('\t') && TAB_INDENT.test(text)) return 'a tab in indentation';
  if (text.includes('?') && EXPLICIT_KEY.test(text)) return 'an explicit key';
  // `---x` is text to the `yaml` path, a document start and `x` to js-yaml; `... x` an error.
  if (MARKER_AND_TEXT.test(text)) return 'a document marker followed by text';
  // Aliases per document are limited; counted per file (and every `*`) it is a safe bound.
  return count(text, '*') > MAX_ALIASES ? 'many aliases' : undefined;
}

/** Skips spaces, line breaks and comments from `i`. */
function skipSpace(input: string, i: number): number {
  for (; ; i++) {
    const c = input.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c !== 35 /* # */) return i;
    while (i < input.length && input.charCodeAt(i) !== 10) i++;
  }
}

/**
 * The end of an anchor or alias name starting after `&`/`*` at `i`, or -1 unless it is a plain word.
 * A name ends at a space or a flow indicator (`*a, *b]`); an anchor must end at a space.
 */
function plainName(input: string, i: number, anchor: boolean): number {
  const start = i;
  for (; i < input.length && !isSpace(input.charCodeAt(i)); i++) {
    if (!NAME_CHAR.test(input[i]!)) return !anchor && i > start && ',[]{}'.includes(input[i]!) ? i : -1;
  }
  return i > start ? i : -1;
}

/**
 * Skips a node's anchor and the space around it; -1 for a tag (`!` resolves otherwise in js-yaml,
 * `!!str` is rare enough to leave to the `yaml` path), two anchors (one on the key's line, one
 * below), an anchor or alias whose name is not a plain word (`&a{`, `&"a":`): js-yaml and the
 * `yaml` path split those differently.
 */
function skipProperties(input: string, i: number): number {
  i = skipSpace(input, i);
  const c = input.charCodeAt(i);
  if (c === 33 /* ! */) return -1;
  if (c === 42 /* * */) return plainName(input, i + 1, false) < 0 ? -1 : i;
  if (c !== 38 /* & */) return i;
  const end = plainName(input, i + 1, true);
  if (end < 0) return -1;
  i = skipSpace(input, end);
  const next = input.charCodeAt(i);
  return next === 33 || next === 38 ? -1 : i;
}

/** Is the node that opens at `open` written after a `:` (a value), not after `{` or `,` (a key)? */
function afterColon(input: string, open: number): boolean {
  let i = open - 1;
  while (i >= 0 && isSpace(input.charCodeAt(i))) i--;
  return input.charCodeAt(i) === 58; /* : */
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isBlockScalar(c: number): boolean {
  return c === 124 /* | */ || c === 62 /* > */;
}

function lineStartOf(input: string, i: number): number {
  return input.lastIndexOf('\n', i - 1) + 1;
}

/**
 * The column of the block collection a flow node starting at `content` belongs to, as far as its
 * line tells: the key before it (`  key: "a`), else the innermost `- ` (`- - "a`), else the node's
 * own column (it starts its line; the collection is further left, so this is on the safe side).
 */
function parentColumn(input: string, content: number): number {
  const lineStart = lineStartOf(input, content);
  let i = lineStart;
  let dash = -1;
  for (;;) {
    while (input.charCodeAt(i) === 32) i++;
    if (input.charCodeAt(i) !== 45 /* - */ || !isSpace(input.charCodeAt(i + 1))) break;
    dash = i++;
  }
  if (i < content || dash < 0) return i - lineStart;
  return dash - lineStart;
}

function indentOf(input: string, lineStart: number): number {
  let i = lineStart;
  while (input.charCodeAt(i) === 32) i++;
  return i - lineStart;
}

/**
 * Watches js-yaml's parse for what it reads differently from the `yaml` path (which follows the
 * YAML 1.2 grammar more strictly): each case found by test/source/fast-path.test.ts, each a reason
 * to decline the file. It also notes where each document starts.
 */
class Guard {
  /** Why the file is declined, once it is. */
  unusual: string | undefined;
  readonly starts: { offset: number; line: number; column: number }[] = [];
  /** Offset and line of each node open now, in pairs. */
  private readonly opened: number[] = [];
  private anchors = new Map<string, unknown>();
  private anchorsOf = -1;

  /** js-yaml's copy of the text (a terminator appended), which its strings are slices of. */
  input = '';
  /** Some mapping has a `<<` key: the output must be copied to apply it. */
  merges = false;
  /** Nodes closed in the current document (some twice: an upper bound). */
  private nodes = 0;
  /** The node closed last: js-yaml closes some nodes twice, and once is enough to check. */
  private lastOpen = -1;
  private lastEnd = -1;
  private lastResult: unknown;
  private lastAnchor: string | null = null;

  constructor(private readonly budget: number) {}

  readonly listener = (event: 'open' | 'close', state: unknown): void => {
    const s = state as ListenerState;
    if (event === 'open') {
      this.input = s.input;
      this.opened.push(s.position, s.line);
      if (s.depth === 1) this.documentStart(s);
      return;
    }
    const openLine = this.opened.pop() ?? s.line;
    const open = this.opened.pop() ?? s.position;
    if (this.unusual !== undefined) return;
    if (open === this.lastOpen && s.position === this.lastEnd && s.result === this.lastResult && s.anchor === this.lastAnchor) return;
    this.lastOpen = open;
    this.lastEnd = s.position;
    this.lastResult = s.result;
    this.lastAnchor = s.anchor;
    this.unusual = this.values(s) ?? this.writing(s, open, openLine);
  };

  /**
   * What the `yaml` path reports in values, checked here so that most files need no second walk:
   * non-finite numbers, null keys (js-yaml makes "null" of them, the `yaml` path ""), nesting and
   * size near the limits. Merge keys are noted, for the copier to apply.
   */
  private values(s: ListenerState): string | undefined {
    if (++this.nodes > this.budget) return 'a document near the node limit';
    if (s.depth >= MAX_DEPTH - 1) return 'a document near the depth limit';
    const result = s.result;
    if (typeof result === 'number') return Number.isFinite(result) ? undefined : 'a number that is not finite';
    if (s.kind === 'mapping' && result !== null && typeof result === 'object') {
      if (hasOwn(result, 'null')) return 'a null key';
      if (hasOwn(result, MERGE_KEY)) this.merges = true;
    }
    return undefined;
  }

  /** What js-yaml reads otherwise than the `yaml` path, or takes where that refuses. */
  private writing(s: ListenerState, open: number, openLine: number): string | undefined {
    const key = s.input.charCodeAt(skipSpace(s.input, s.position)) === 58; /* : */
    // A collection, alias or empty node used as a key (`[a]: b`, `{[a], b: c}`): js-yaml would
    // make text of it.
    if ((s.kind !== 'scalar' || s.result === null) && (key || (this.inFlowMapping(s.input) && !afterColon(s.input, open)))) {
      return 'a key that is not text';
    }
    // `"a"#c`: the `yaml` path wants a space before a comment, js-yaml does not.
    if (s.input.charCodeAt(s.position) === 35 /* # */ && !isSpace(s.input.charCodeAt(s.position - 1))) {
      return 'a comment without a space before it';
    }
    // The `yaml` path refuses implicit keys over 1024 characters.
    if (key && s.position - open > 1000) return 'a long key';
    // js-yaml registers a collection's anchor after its content, so an alias picks another node.
    if (s.anchor !== null && this.redefines(s)) return 'an anchor defined twice';
    const content = skipProperties(s.input, open);
    if (content < 0) return 'a tag, or an anchor the `yaml` path refuses';
    // `"<<": x` is an ordinary key to the `yaml` path; in js-yaml's output it looks like a merge.
    if (key && s.result === MERGE_KEY && s.input.charCodeAt(content) !== 60 /* < */) return 'a quoted merge key';
    if (s.kind === 'scalar' ? s.line !== openLine || isBlockScalar(s.input.charCodeAt(content)) : s.kind !== null) {
      return this.oddNode(s.input, content, s.position, s.kind!, s.depth);
    }
    return undefined;
  }

  /** Is the node around the one just closed a flow mapping (`{...}`)? */
  private inFlowMapping(input: string): boolean {
    const parent = this.opened[this.opened.length - 2];
    return parent !== undefined && input.charCodeAt(skipProperties(input, parent)) === 123; /* { */
  }

  private documentStart(s: ListenerState): void {
    this.nodes = 0;
    // A document that starts with an anchor: the `yaml` path places its start after it.
    if (s.input.charCodeAt(s.position) === 38 /* & */) this.unusual ??= 'an anchor on a document';
    // An indented document: js-yaml and the `yaml` path find its end in different places.
    if (s.position > s.lineStart && s.input.charCodeAt(s.lineStart) === 32) this.unusual ??= 'an indented document';
    this.starts[s.documents.length] = { offset: s.position, line: s.line, column: s.position - s.lineStart };
  }

  /**
   * Anchors of this document and their values. js-yaml closes some nodes twice (the same value);
   * an anchor defined again with another value is where it and the `yaml` path may disagree.
   */
  private redefines(s: ListenerState): boolean {
    if (this.anchorsOf !== s.documents.length) {
      this.anchorsOf = s.documents.length;
      this.anchors = new Map();
    }
    if (this.anchors.has(s.anchor!)) return !Object.is(this.anchors.get(s.anchor!), s.result);
    this.anchors.set(s.anchor!, s.result);
    return false;
  }

  /**
   * A node written in a way the `yaml` path refuses and js-yaml takes, or reads otherwise: a block
   * collection that starts on the line of its key (`a: b: c`) or of `---`; a block scalar with an
   * indentation indicator (`|2`); a flow scalar or collection whose further lines are not indented
   * past the line it starts on.
   */
  private oddNode(input: string, content: number, end: number, kind: string, depth: number): string | undefined {
    const c = input.charCodeAt(content);
    if (kind !== 'scalar' && c !== 123 /* { */ && c !== 91 /* [ */) {
      const prefix = input.slice(lineStartOf(input, content), content);
      if (!BLOCK_COLLECTION_PREFIX.test(prefix)) return 'a block collection on the line of its key';
      // At the top, js-yaml takes entries at different columns (` - a` then `- b`).
      if (depth === 1 && prefix !== '') return 'an indented document';
      // Further in, it takes an entry left of its collection into it (`  - a` then `- b`).
      return this.outdented(input, content, end, prefix.length, true) ? 'an entry left of its collection' : undefined;
    }
    if (isBlockScalar(c)) {
      for (let i = content + 1; i < input.length && !' \t\r\n#'.includes(input[i]!); i++) {
        const d = input.charCodeAt(i);
        if (d >= 48 && d <= 57) return 'a block scalar indentation indicator';
      }
      return undefined;
    }
    return this.outdented(input, content, end, parentColumn(input, content) + 1, false) ? 'a line not indented' : undefined;
  }

  /**
   * Does a line of the node (after its first, not blank) start left of `column`? A `#` line is a
   * comment between entries of a collection, but text inside a scalar.
   */
  private outdented(input: string, content: number, end: number, column: number, comments: boolean): boolean {
    if (column === 0) return false;
    const lineBreak = input.indexOf('\n', content);
    if (lineBreak === -1 || lineBreak >= end) return false;
    for (let line = lineBreak + 1; line < end; line = input.indexOf('\n', line) + 1 || end) {
      const indent = indentOf(input, line);
      const next = input.charCodeAt(line + indent);
      if (next === 10 || next === 13 || (comments && next === 35) /* # */) continue;
      if (line + indent < end && indent < column) return true;
    }
    return false;
  }
}

/**
 * Makes js-yaml's output a tree as the `yaml` path builds it: an alias becomes a copy (js-yaml
 * shares the node), merge keys are applied. Declines what the `yaml` path would report: non-finite
 * numbers, null keys, merges of anything but mappings, documents near the node, alias or depth
 * limits. Without aliases in the file nothing is shared, and the output is changed in place.
 */
class Copier {
  private nodes = 0;

  constructor(
    private readonly budget: number,
    private readonly inPlace: boolean,
  ) {}

  reset(): void {
    this.nodes = 0;
  }

  copy(value: unknown, depth: number): JsonValue {
    if (++this.nodes > this.budget) throw new Declined('a document near the node or alias limits');
    if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Declined('a number that is not finite');
      return value;
    }
    if (depth >= MAX_DEPTH - 1) throw new Declined('a document near the depth limit');
    if (Array.isArray(value)) {
      const out: JsonValue[] = this.inPlace ? (value as JsonValue[]) : new Array<JsonValue>(value.length);
      for (let i = 0; i < value.length; i++) out[i] = this.copy(value[i], depth + 1);
      return out;
    }
    if (typeof value === 'object') return this.mapping(value as Record<string, unknown>, depth);
    throw new Declined('a value of an unexpected type');
  }

  private mapping(raw: Record<string, unknown>, depth: number): JsonObject {
    // js-yaml turns a null key into "null"; the `yaml` path into "".
    if (hasOwn(raw, 'null')) throw new Declined('a null key');
    if (!hasOwn(raw, MERGE_KEY)) {
      const out = this.inPlace ? (raw as JsonObject) : {};
      for (const key of Object.keys(raw)) {
        const value = raw[key];
        const copied = this.copy(value, depth + 1);
        if (!this.inPlace || copied !== value) setOwn(out, key, copied);
      }
      return out;
    }
    const out: JsonObject = {};
    let merged: Set<string> | undefined;
    for (const key of Object.keys(raw)) {
      if (key === MERGE_KEY) {
        merged = this.merge(this.copy(raw[key], depth + 1), out);
        continue;
      }
      // An explicit key overrides a merged one; js-yaml has already refused a repeated key.
      if (hasOwn(out, key) && merged?.delete(key) !== true) throw new Declined('a key merged and repeated');
      setOwn(out, key, this.copy(raw[key], depth + 1));
    }
    return out;
  }

  private merge(value: JsonValue, out: JsonObject): Set<string> {
    const added = new Set<string>();
    const sources = Array.isArray(value) ? value : [value];
    for (const source of sources) {
      if (!isJsonObject(source)) throw new Declined('a merge of something other than mappings');
      for (const key of Object.keys(source)) {
        if (hasOwn(out, key)) continue;
        setOwn(out, key, source[key]!);
        added.add(key);
      }
    }
    return added;
  }
}

/** No interpolated strings (most documents): one empty map for them all. */
export const NO_STRINGS: ReadonlyMap<string, string> = new Map();

export interface FastDocument {
  value: JsonValue;
  start: SourceLocation;
  interpolated: string[];
  written: ReadonlyMap<string, string>;
  /** The document's location map, computed on first call. */
  locations: () => Record<string, SourceLocation>;
}

/**
 * The documents of a file that has nothing to report, or why the `yaml` path must read it: each
 * reason stands for something the fast path would read differently or not report.
 */
export function readFastOrDecline(text: string, file: string, sources: SecretSources): FastDocument[] | { declined: string } {
  const textReason = declinedText(text);
  if (textReason !== undefined) return { declined: textReason };
  // Without aliases nothing is shared or expanded, and the node limit is the only bound.
  const aliases = text.includes('*');
  const budget = (aliases ? MAX_ALIAS_EXPANSION : MAX_DOCUMENT_NODES) / 2;
  const guard = new Guard(budget);
  let raws: unknown[];
  try {
    const options: jsYaml.LoadOptions & { maxDepth: number } = {
      schema: CORE_SCHEMA_12,
      // Deeper documents are the `yaml` path's to report; this only bounds js-yaml's recursion.
      maxDepth: MAX_DEPTH + 8,
      listener: guard.listener,
    };
    raws = jsYaml.loadAll(text, null, options);
  } catch (err) {
    return { declined: `js-yaml: ${err instanceof Error ? (err.message.split('\n', 1)[0] ?? '') : String(err)}` };
  }
  if (guard.unusual !== undefined) return { declined: guard.unusual };
  // The guard has checked every node; only aliases (shared nodes) and merge keys need a copy.
  const copier = aliases || guard.merges ? new Copier(budget, !aliases) : undefined;
  const placeholders = text.includes('${');
  // Positions come from the `yaml` path reading the same text: js-yaml's copy of it, which its
  // strings keep alive anyway, rather than a second one (it only has a NUL, maybe a line break, added).
  const lazy = new LazyLocations(guard.input.endsWith('\0') ? guard.input.slice(0, -1) : text, file);
  const out: FastDocument[] = [];
  try {
    for (let i = 0; i < raws.length; i++) {
      const raw = raws[i];
      // An empty document (a trailing ---, only comments) holds nothing to count.
      if (raw === null || raw === undefined) continue;
      const at = guard.starts[i];
      if (at === undefined) return { declined: 'a document without a start' };
      let value = raw as JsonValue;
      if (copier !== undefined) {
        copier.reset();
        value = copier.copy(raw, 0);
      }
      let interpolated: string[] = [];
      let written: ReadonlyMap<string, string> = NO_STRINGS;
      if (placeholders && declaresWsyncApiVersion(value)) {
        const secrets = interpolateDocument(value, sources);
        if (secrets.problems.length > 0) return { declined: 'a placeholder that cannot be resolved' };
        ({ interpolated, written } = secrets);
      }
      const start = { file, line: at.line + 1, column: at.column + 1 };
      const startOffset = at.offset;
      out.push({ value, start, interpolated, written, locations: () => lazy.of(startOffset, start) });
    }
  } catch (err) {
    if (err instanceof Declined) return { declined: err.message };
    throw err;
  }
  return out;
}

/** The documents of a file that has nothing to report, or undefined when the `yaml` path must read it. */
export function readFast(text: string, file: string, sources: SecretSources): FastDocument[] | undefined {
  const read = readFastOrDecline(text, file, sources);
  return Array.isArray(read) ? read : undefined;
}
