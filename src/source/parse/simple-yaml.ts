// A scan of a file's text that proves it free of everything the fast path's guard (fast-guard.ts)
// watches js-yaml's parse for, so that js-yaml may read it without a listener called on every
// node. It vouches only for a narrow subset of YAML, the way resource files are written:
//
//   key: value            (a plain key of letters, digits and `_./-`, starting with a letter or
//   key:                   `_`, or a quoted key without escapes; a block below it, or nothing)
//   - value   - key: value   - key:
//   `---` alone (or with a comment), comment lines, blank lines
//
// where a value is a plain scalar on one line (no `: ` in it, nothing that may read as a number
// that is not finite), a quoted scalar closed on its line, a flow sequence of such scalars closed
// on its line, `{}`, or a block scalar (`|`, `>`, with `-` or `+`, no indentation indicator). Each
// document starts at column 0. After a line that ends with a value, the next line that is not
// blank is not indented past the key (or `-`) the value belongs to, so no scalar runs on to a
// further line. Anything else (anchors, aliases, tags, null or quoted `<<` keys, merge keys, flow
// mappings with content, empty or null sequence entries, tabs, CR line breaks, ...) is left to
// the guard: the file is not vouched for. The node budget and depth limit the guard keeps are
// bounded from the text (lines per document, commas, columns), so a vouched file cannot reach them.
// A file without block scalars is checked by one regular expression over its whole text; others
// line by line. test/source/parse/simple-yaml.test.ts holds the guard to finding nothing in what
// either vouches for, and the whole-text check to the line scan's answer.

/** Where js-yaml opens a document's root node, as the guard records it. */
export interface DocumentStart {
  offset: number;
  line: number;
  column: number;
}

/** The guard's bounds: closed nodes per document, and the depth it declines at. */
export interface GuardLimits {
  nodes: number;
  depth: number;
}

/**
 * Nodes js-yaml closes for one line at most (a sequence, its entry twice, a mapping, key, value,
 * and a flow sequence's last entry: its others are counted by their commas).
 */
const CLOSES_PER_LINE = 9;
/** Nodes closed per document besides its lines (the root, an empty key at its end). */
const CLOSES_PER_DOCUMENT = 8;
/** Depth of a node on a line beyond the column of its content, at most. */
const DEPTH_PAST_COLUMN = 6;

export const SPACE = 32;
export const HASH = 35;

// One regular expression reads a content line after its indentation (compiled to machine code at
// once, where a loop over characters would first run in the interpreter). Groups: 1 `- `, 2 a key,
// 3 a block scalar's header, 4 a key's value, 5 an entry's value. Loops are written unrolled,
// `a*(?:b a*)*`, so that the engine keeps no state per character.
export const DQ = String.raw`"[^"\\\n]*(?:\\.[^"\\\n]*)*"`;
export const SQ = String.raw`'[^'\n]*(?:''[^'\n]*)*'`;
/** Not a text the core schema reads as a number that is not finite (`.inf`, `.nan`, `1e400`, 400 digits); some finite ones too. */
const FINITE = String.raw`(?![-+]?(?:\.(?:inf|Inf|INF|nan|NaN|NAN)|[0-9.]+[eE]|[0-9.]{300}|0[xo][0-9a-fA-F]{250}))`;
/** A plain scalar on one line: no indicator first, no `: ` (it would be a key), ` #` starts a comment. */
export const PLAIN = String.raw`${FINITE}(?:[^\s#&*!%@\`,\]}?:\[{"'|>-]|-(?=\S))[^:#\n]*(?:(?::(?=[^ \n])|(?<! )#)[^:#\n]*)*`;
const FLOW_PLAIN = String.raw`${FINITE}[^\s,\[\]{}#:&*!|>%@\`?'"-][^,\[\]{}#:\n]*`;
/** A scalar in a flow sequence: quoted, or plain with its trailing spaces. */
export const FLOW_SCALAR = String.raw`(?:${DQ}|${SQ}|${FLOW_PLAIN})`;
const FLOW_ITEM = String.raw`${FLOW_SCALAR} *`;
export const FLOW = String.raw`\[ *(?:${FLOW_ITEM}(?:, *${FLOW_ITEM})*)?\]`;
/** Keys: plain (letters, digits, `_./-`), or quoted without escapes; not null, not a quoted `<<`, not over 1000 characters. */
export const KEY = String.raw`(?!(?:null|Null|NULL):)[A-Za-z_][\w./-]{0,999}|"(?!(?:null|<<)")[^"\\\n]{0,998}"|'(?!(?:null|<<)')(?:[^'\n]|''){0,998}'`;
/** An entry that reads as null: the guard looks further at sequences holding one. */
const NOT_NULL = String.raw`(?!(?:~|[Nn]ull|NULL)(?: +#.*| *)$)`;
const VALUE = String.raw`${DQ}|${SQ}|${FLOW}|\{ *\}|${PLAIN}`;
// (`- {}`: the guard takes the entry for a key of the mapping it opens.)
const ENTRY = String.raw`${DQ}|${SQ}|${FLOW}|${NOT_NULL}${PLAIN}`;
export const CONTENT_LINE = new RegExp(String.raw`(- +(?!- ))?(?:(${KEY}):(?: +(?:([|>])[-+]?|(${VALUE})))?|(${ENTRY}))(?: +#.*| *)$`, 'my');

// The same grammar over the whole text, for a file without block scalars or `-` followed by more
// than one space (most files): one match from its start, a line at a time, where a value's line
// must not be followed by one indented past its key or `-` (group 1 is the line's indentation).
// Every way to match a line ends at its end, and nothing follows the repetition: a line outside
// the grammar stops the match there, with no backtracking into the lines before.
const TAIL = String.raw`(?: +#.*| *)`;
/** The next line that is not blank is not indented past the line's indentation and `more`. */
const NOT_PAST = (more: string): string => String.raw`(?!(?: *\n)*\1${more} )`;
const KEY_LINE = (more: string): string => String.raw`(?:${KEY}):(?:${TAIL}\n| +(?:${VALUE})${TAIL}\n${NOT_PAST(more)})`;
let wholeText: { depth: number; line: RegExp } | undefined;

/** The whole-text grammar, with content lines indented little enough that no node reaches `depth`. */
function wholeTextGrammar(depth: number): RegExp | undefined {
  if (wholeText?.depth === depth) return wholeText.line;
  // An entry's content is two columns right of its indentation (`- `).
  const indent = depth - DEPTH_PAST_COLUMN - 3;
  if (indent < 0) return undefined;
  const line = new RegExp(
    String.raw`(?: *(?:#.*)?\n|---${TAIL}\n|( {0,${indent}})(?:- (?:${KEY_LINE('  ')}|(?:${ENTRY})${TAIL}\n${NOT_PAST('')})|${KEY_LINE('')}))*`,
    'my',
  );
  wholeText = { depth, line };
  return line;
}

/** Blank and comment lines from a line's start. */
const BLANK_OR_COMMENT_LINES = /(?: *(?:#.*)?\n)*/y;

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

class Scan {
  readonly starts: DocumentStart[] = [];
  /** The document js-yaml is in, counted as it counts them. */
  private doc = 0;
  private docHasContent = false;
  /** A `---` or content seen: the next `---` starts a new document. */
  private begun = false;
  private linesInDoc = 0;
  /** Commas in the file: a flow sequence's entries but its last are no more than its commas. */
  private readonly commas: number;
  private maxColumn = 0;
  /** The column a value's next line may not be indented past; -1 when any indentation may follow. */
  private owner = -1;
  /** In a block scalar: the column it belongs to, and its content's indentation (0 until a line is read). */
  private block = -1;
  private blockIndent = 0;
  private blockIndentFixed = false;

  constructor(
    private readonly text: string,
    private readonly limits: GuardLimits,
  ) {
    this.commas = count(text, ',');
  }

  run(): DocumentStart[] | undefined {
    const { text } = this;
    for (let start = 0, line = 0; start < text.length; line++) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (!this.line(start, end, line)) return undefined;
      start = end + 1;
    }
    return this.documentFits() && this.maxColumn + DEPTH_PAST_COLUMN < this.limits.depth ? this.starts : undefined;
  }

  /** Can the current document not close more nodes than the guard's budget? */
  private documentFits(): boolean {
    return this.linesInDoc * CLOSES_PER_LINE + this.commas + CLOSES_PER_DOCUMENT <= this.limits.nodes;
  }

  private line(start: number, end: number, line: number): boolean {
    const { text } = this;
    let first = start;
    while (text.charCodeAt(first) === SPACE) first++;
    const indent = first - start;
    if (this.block >= 0) {
      if (first === end) return this.blankInBlock(indent);
      if (indent > this.block) return this.blockContent(indent);
      this.block = -1;
    }
    if (first === end) return true;
    if (this.owner >= 0 && indent > this.owner) return false;
    if (text.charCodeAt(first) === HASH) {
      // A comment line ends a plain scalar: whatever follows a value finished is js-yaml's to refuse.
      this.owner = -1;
      return true;
    }
    if (indent === 0 && text.startsWith('---', first)) return this.marker(first + 3, end);
    if (!this.docHasContent) {
      if (indent !== 0) return false;
      this.starts[this.doc] = { offset: first, line, column: 0 };
      this.docHasContent = this.begun = true;
    }
    this.linesInDoc++;
    return this.content(first, indent);
  }

  /** A blank line in a block scalar: before its first line, js-yaml takes its spaces as the indentation. */
  private blankInBlock(indent: number): boolean {
    if (!this.blockIndentFixed && indent > this.blockIndent) this.blockIndent = indent;
    return true;
  }

  /** A line of a block scalar: one indented less than its first line is left to the guard. */
  private blockContent(indent: number): boolean {
    if (indent < this.blockIndent) return false;
    if (!this.blockIndentFixed) {
      this.blockIndent = indent;
      this.blockIndentFixed = true;
    }
    return true;
  }

  /** `---` at column 0: a document's start, alone or with a comment. */
  private marker(after: number, end: number): boolean {
    if (!this.documentFits()) return false;
    let i = after;
    while (this.text.charCodeAt(i) === SPACE) i++;
    if (i < end && !(i > after && this.text.charCodeAt(i) === HASH)) return false;
    if (this.begun) this.doc++;
    this.begun = true;
    this.docHasContent = false;
    this.linesInDoc = 0;
    this.owner = -1;
    return true;
  }

  /**
   * A content line from its first character: `- ` and then a key or a value, or a key. Sets where
   * it leaves the next line: a value's `owner`, a block scalar, or any indentation (`key:`).
   */
  private content(first: number, indent: number): boolean {
    CONTENT_LINE.lastIndex = first;
    const m = CONTENT_LINE.exec(this.text);
    if (m === null) return false;
    const [, dash, key, block, value, entry] = m;
    if (key === undefined && (dash === undefined || entry === undefined)) return false;
    const column = indent + (dash === undefined ? 0 : dash.length);
    if (column > this.maxColumn) this.maxColumn = column;
    const owner = key === undefined ? indent : column;
    this.owner = block !== undefined || (key !== undefined && value === undefined) ? -1 : owner;
    if (block !== undefined) {
      this.block = owner;
      this.blockIndent = owner + 1;
      this.blockIndentFixed = false;
    }
    return true;
  }
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The whole-text check: the document starts when every line is in the grammar (without block
 * scalars), no value's next line is indented past it, each document starts at column 0 and the
 * guard's limits are out of reach; undefined when the line scan must decide.
 */
export function wholeTextStarts(text: string, limits: GuardLimits): DocumentStart[] | undefined {
  if (text.includes('\t') || text.includes('\r')) return undefined;
  // (A last line without a line break is read with one.)
  const whole = text.endsWith('\n') ? text : `${text}\n`;
  const grammar = wholeTextGrammar(limits.depth);
  if (grammar === undefined) return undefined;
  grammar.lastIndex = 0;
  if (!grammar.test(whole) || grammar.lastIndex !== whole.length) return undefined;
  const starts: DocumentStart[] = [];
  let doc = 0;
  let begun = false;
  let line = 0;
  let counted = 0;
  for (let pos = 0; ; ) {
    // (Most documents start right after their `---`: no blank or comment line to skip.)
    const c = text.charCodeAt(pos);
    let first = pos;
    if (c === SPACE || c === HASH || c === 10) {
      BLANK_OR_COMMENT_LINES.lastIndex = pos;
      BLANK_OR_COMMENT_LINES.test(text);
      first = BLANK_OR_COMMENT_LINES.lastIndex;
      line += newlines(text, pos, first);
    }
    counted = first;
    if (first >= text.length) break;
    if (text.startsWith('---', first)) {
      if (begun) doc++;
      begun = true;
      pos = text.indexOf('\n', first) + 1;
      if (pos === 0) break;
      line++;
      counted = pos;
      continue;
    }
    if (text.charCodeAt(first) === SPACE) return undefined;
    starts[doc] = { offset: first, line, column: 0 };
    begun = true;
    const next = text.indexOf('\n---', first);
    if (next === -1) break;
    line += newlines(text, first, next + 1);
    pos = counted = next + 1;
  }
  const lines = line + newlines(text, counted, text.length) + 1;
  return lines * CLOSES_PER_LINE + count(text, ',') + CLOSES_PER_DOCUMENT <= limits.nodes ? starts : undefined;
}

/** The line scan alone (the whole-text check vouches for a part of what it vouches for, with the same starts). */
export function lineScanStarts(text: string, limits: GuardLimits): DocumentStart[] | undefined {
  if (text.includes('\t') || text.includes('\r')) return undefined;
  return new Scan(text, limits).run();
}

/**
 * The document starts (as js-yaml numbers its documents) of a text the guard would find nothing
 * in, or undefined when it is not one this scan can vouch for. `text` is one `declinedText` passed.
 */
export function simpleDocumentStarts(text: string, limits: GuardLimits): DocumentStart[] | undefined {
  return wholeTextStarts(text, limits) ?? lineScanStarts(text, limits);
}
