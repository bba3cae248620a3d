import { MERGE_KEY, hasOwn } from './field-path.js';
import { MAX_ALIAS_EXPANSION_BYTES, MAX_ALIASES, MAX_DEPTH } from '../limits.js';

// What js-yaml reads differently from the `yaml` path, or takes where that one refuses: found by
// test/source/parse/fast-path.test.ts (generated YAML, both paths compared), each a reason for the fast
// path to decline a file (see fast-document.ts). Text-wide checks first, then a listener that
// watches js-yaml's parse node by node.

/** Thrown by the listener to stop js-yaml once the file is declined: the rest need not be read. */
export class GuardStop extends Error {}

/**
 * Bytes of the strings and keys in `value`, as the `yaml` path counts what an alias expands to;
 * stops counting past `limit`.
 */
export function expandedBytes(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  let bytes = 0;
  if (Array.isArray(value)) {
    for (const item of value) if ((bytes += expandedBytes(item, limit - bytes)) > limit) return bytes;
    return bytes;
  }
  for (const [key, item] of Object.entries(value)) {
    if ((bytes += key.length + expandedBytes(item, limit - bytes - key.length)) > limit) return bytes;
  }
  return bytes;
}

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
const LAST_LINE_BLANK = /^\n[ \t]+$/;

/** A line that starts with `marker` and goes on with text: `---x`, or `... x` (after `...` only a comment). */
function markerAndText(text: string, marker: string): boolean {
  for (let i = text.startsWith(marker) ? 0 : text.indexOf(`\n${marker}`); i !== -1; i = text.indexOf(`\n${marker}`, i + 1)) {
    let after = i + (text.charCodeAt(i) === 10 ? 1 : 0) + marker.length;
    const c = text.charCodeAt(after);
    if (after < text.length && !isSpace(c)) return true;
    if (marker === '...') {
      while (text.charCodeAt(after) === 32 || text.charCodeAt(after) === 9) after++;
      const next = text.charCodeAt(after);
      if (after < text.length && next !== 10 && next !== 13 && next !== 35 /* # */) return true;
    }
  }
  return false;
}

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** Why the fast path leaves a text to the `yaml` path without trying, if it does. */
export function declinedText(text: string): string | undefined {
  // Directives: %YAML 1.1 changes how scalars resolve, %TAG what tags mean.
  if (text.charCodeAt(0) === 37 /* % */ || text.includes('\n%')) return 'a directive';
  // A CR alone ends a line for js-yaml but not for the `yaml` path's line counter.
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return 'a CR line break';
  // The `yaml` path reads some text after a byte order mark otherwise (`\ufeff- a: 1`).
  if (text.includes('\ufeff')) return 'a byte order mark';
  // js-yaml ends the text with a line break, which a `|+` scalar there would keep.
  if (LAST_LINE_BLANK.test(text.slice(text.lastIndexOf('\n')))) return 'a blank last line without a line break';
  // Tabs in indentation: the `yaml` path refuses them, js-yaml takes some.
  if (text.includes('\t') && TAB_INDENT.test(text)) return 'a tab in indentation';
  if (text.includes('?') && EXPLICIT_KEY.test(text)) return 'an explicit key';
  // `---x` is text to the `yaml` path, a document start and `x` to js-yaml; `... x` an error.
  if (markerAndText(text, '---') || markerAndText(text, '...')) return 'a document marker followed by text';
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

/** Is the node that just closed a key (a `:` follows it)? */
function isKey(s: ListenerState): boolean {
  return s.input.charCodeAt(skipSpace(s.input, s.position)) === 58; /* : */
}

/**
 * What may stand before a block collection on its first line: indentation, `- ` indicators and
 * properties (`&a `), nothing else (`a: b: c`, `--- a: b` are refused by the `yaml` path).
 */
function blockCollectionPrefix(input: string, lineStart: number, content: number): boolean {
  for (let i = lineStart; i < content; ) {
    const c = input.charCodeAt(i);
    if (c === 32) {
      i++;
    } else if (c === 45 /* - */ || c === 38 /* & */ || c === 33 /* ! */) {
      if (c === 45 && input.charCodeAt(i + 1) !== 32) return false;
      while (i < content && input.charCodeAt(i) !== 32) i++;
    } else {
      return false;
    }
  }
  return true;
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
 * YAML 1.2 grammar more strictly): each case found by test/source/parse/fast-path.test.ts, each a reason
 * to decline the file. It also notes where each document starts.
 */
export class Guard {
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
  /** Per document: bytes its aliases expand to (expandedBytes). */
  readonly aliasBytes: number[] = [];
  private lastAlias = -1;

  constructor(private readonly budget: number) {}

  readonly listener = (event: 'open' | 'close', state: unknown): void => {
    const s = state as ListenerState;
    if (event === 'open') {
      if (this.input === '') this.input = s.input;
      this.opened.push(s.position, s.line);
      if (s.depth === 1) this.documentStart(s);
      return;
    }
    const openLine = this.opened.pop() ?? s.line;
    const open = this.opened.pop() ?? s.position;
    // (js-yaml closes some nodes twice; checking one twice does no harm.)
    if (this.unusual === undefined) this.unusual = this.values(s) ?? this.writing(s, open, openLine);
    // Declined: the `yaml` path reads the file, so reading on would only cost time and memory.
    if (this.unusual !== undefined) throw new GuardStop(this.unusual);
  };

  /** An alias written at `content`: what it expands to counts toward the document's budget of expanded bytes. */
  private alias(s: ListenerState, content: number): string | undefined {
    // js-yaml closes some nodes twice: an alias is counted once, by where it is written.
    if (content === this.lastAlias) return undefined;
    this.lastAlias = content;
    const doc = s.documents.length;
    const budget = MAX_ALIAS_EXPANSION_BYTES - (this.aliasBytes[doc] ?? 0);
    this.aliasBytes[doc] = (this.aliasBytes[doc] ?? 0) + expandedBytes(s.result, budget);
    return this.aliasBytes[doc]! > MAX_ALIAS_EXPANSION_BYTES ? 'aliases near the expansion limit' : undefined;
  }

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

  /**
   * What js-yaml reads otherwise than the `yaml` path, or takes where that refuses; then an alias's
   * expansion. Most nodes are text on one line: each check reads the state and the text once.
   */
  private writing(s: ListenerState, open: number, openLine: number): string | undefined {
    const { input, kind, result, position } = s;
    // A collection, alias or empty node used as a key (`[a]: b`, `{[a], b: c}`): js-yaml would
    // make text of it.
    if ((kind !== 'scalar' || result === null) && (isKey(s) || (this.inFlowMapping(input) && !afterColon(input, open)))) {
      return 'a key that is not text';
    }
    // `"a"#c`: the `yaml` path wants a space before a comment, js-yaml does not.
    if (input.charCodeAt(position) === 35 /* # */ && !isSpace(input.charCodeAt(position - 1))) {
      return 'a comment without a space before it';
    }
    // The `yaml` path refuses implicit keys over 1024 characters.
    if (position - open > 1000 && isKey(s)) return 'a long key';
    // js-yaml registers a collection's anchor after its content, so an alias picks another node.
    if (s.anchor !== null && this.redefines(s)) return 'an anchor defined twice';
    const content = skipProperties(input, open);
    if (content < 0) return 'a tag, or an anchor the `yaml` path refuses';
    const first = input.charCodeAt(content);
    // `"<<": x` is an ordinary key to the `yaml` path; in js-yaml's output it looks like a merge.
    if (result === MERGE_KEY && first !== 60 /* < */ && isKey(s)) return 'a quoted merge key';
    if (kind === 'scalar' ? s.line !== openLine || isBlockScalar(first) : kind !== null) {
      const odd = this.oddNode(s, content);
      if (odd !== undefined) return odd;
    }
    return first === 42 /* * */ ? this.alias(s, content) : undefined;
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
  private oddNode(s: ListenerState, content: number): string | undefined {
    const { input, position: end, kind } = s;
    const c = input.charCodeAt(content);
    if (kind !== 'scalar' && c !== 123 /* { */ && c !== 91 /* [ */) {
      const lineStart = lineStartOf(input, content);
      if (!blockCollectionPrefix(input, lineStart, content)) return 'a block collection on the line of its key';
      // At the top, js-yaml takes entries at different columns (` - a` then `- b`).
      if (s.depth === 1 && content > lineStart) return 'an indented document';
      // After an empty item (`-` alone on its line) js-yaml reads on without checking the column,
      // taking an entry left of the sequence into it (`  -` then `- b`).
      if (kind !== 'sequence' || !(s.result as unknown[]).includes(null)) return undefined;
      return this.outdented(input, content, end, content - lineStart, true) ? 'an entry left of its collection' : undefined;
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
