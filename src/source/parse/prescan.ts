import type { Diagnostic } from '../../core/types.js';
import { MAX_DEPTH, MAX_EXACT_READ_NODES } from '../limits.js';
import { Positions } from './positions.js';
import { yamlLibrary } from './yaml-lib.js';

// A linear look at a file's lexemes (the pieces of text the `yaml` lexer yields; a "token", in
// wsync, is a credential) before the parser builds anything from them: the parser's memory grows
// with the nodes of a file and its recursion with the nesting, so a file deep or large enough to
// exhaust either is refused here, at the line where it passes the limit. It uses the `yaml`
// library's own lexer (a generator that keeps no tree), so it sees what the parser will: quotes,
// block scalars and comments are scalars to it.
// The fast path does not need it: js-yaml stops at its own depth limit (maxDepth) and the guard
// stops it at the node budget (fast-guard.ts), both as they read.

export interface Prescan {
  /** Offset of the lexeme where a limit was passed. */
  offset: number;
  message: string;
}

interface Collection {
  column: number;
  kind: 'seq' | 'map';
}

// The lexer's markers, which are not text: a document starts, a flow collection ends, a scalar follows.
const CONTROL_LEXEMES = new Set(['\x02', '\x18', '\x1f']);

/**
 * Tracks the block collections open at the current lexeme: their columns, as the parser derives
 * them from indentation, `- `, `? ` and `key:`. A sequence at the column of its mapping's keys
 * (`a:` then `- x`) is one more level, ended by the next key.
 */
class BlockNesting {
  readonly open: Collection[] = [];

  private top(): Collection | undefined {
    return this.open[this.open.length - 1];
  }

  /** The first lexeme of a line, at `column`: closes what that line is left of. */
  lineAt(column: number, lexeme: string): void {
    for (let top = this.top(); top !== undefined; top = this.top()) {
      if (top.column > column || (top.column === column && top.kind === 'seq' && lexeme !== '-')) this.open.pop();
      else break;
    }
  }

  /** A `-`, `?` or `:` whose collection starts at `column`; true when that opened one. */
  entry(kind: 'seq' | 'map', column: number): boolean {
    const top = this.top();
    if (top !== undefined && top.column === column && top.kind === kind) return false;
    this.open.push({ column, kind });
    return true;
  }
}

/**
 * The first place where `text` nests deeper than MAX_DEPTH or holds more than
 * MAX_EXACT_READ_NODES nodes, or undefined. Depth is the collections open at a lexeme: it never
 * exceeds what the parser builds, so a file this refuses, the reader would refuse too.
 */
export function prescanYaml(text: string, maxNodes = MAX_EXACT_READ_NODES): Prescan | undefined {
  const { Lexer } = yamlLibrary();
  let offset = 0;
  let lineStart = 0;
  let flow = 0;
  let block = new BlockNesting();
  let atLineStart = true;
  /** Column where the node being read on this line starts (a key, if `:` follows), or -1. */
  let nodeStart = -1;
  let nodeStartOffset = 0;
  let scalarNext = false;
  let blockScalarNext = false;
  let lastWasScalar = false;
  let nodes = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (CONTROL_LEXEMES.has(lexeme)) {
      if (lexeme === '\x1f') scalarNext = true;
      else if (lexeme === '\x18') flow = 0;
      else block = new BlockNesting();
      continue;
    }
    const start = offset;
    offset += lexeme.length;
    const newline = lexeme.lastIndexOf('\n');
    const column = start - lineStart;
    if (newline !== -1) lineStart = start + newline + 1;
    if (scalarNext) {
      // A plain scalar or a block scalar's content: text, whatever it looks like.
      scalarNext = false;
      if (atLineStart && flow === 0 && !blockScalarNext) block.lineAt(column, lexeme);
      blockScalarNext = false;
      atLineStart = newline !== -1 && lexeme.length === newline + 1;
      if (nodeStart === -1) {
        nodeStart = column;
        nodeStartOffset = start;
      }
      lastWasScalar = true;
      if (++nodes > maxNodes) return tooMany(start, maxNodes);
      continue;
    }
    const c = lexeme.charCodeAt(0);
    if (lexeme === '' || lexeme === '\n' || lexeme === '\r\n') {
      atLineStart = true;
      nodeStart = -1;
      continue;
    }
    if (c === 32 || c === 9 /* space */ || c === 35 /* # */ || c === 37 /* % */) continue;
    if ((lexeme === '---' || lexeme === '...') && column === 0) {
      block = new BlockNesting();
      flow = 0;
      continue;
    }
    if (atLineStart && flow === 0) block.lineAt(column, lexeme);
    atLineStart = false;
    const wasScalar = lastWasScalar;
    lastWasScalar = false;
    let opened = false;
    if (lexeme === '[' || lexeme === '{') {
      flow++;
      opened = true;
    } else if (lexeme === ']' || lexeme === '}') {
      flow = Math.max(0, flow - 1);
    } else if (lexeme === ',') {
      // next item
    } else if (flow === 0 && (lexeme === '-' || lexeme === '?')) {
      opened = block.entry(lexeme === '-' ? 'seq' : 'map', column);
    } else if (lexeme === ':') {
      // The key before it was counted as a node; the mapping entry is one.
      if (wasScalar) nodes--;
      if (flow === 0) opened = block.entry('map', nodeStart === -1 ? column : nodeStart);
    } else {
      // A quoted scalar, an alias, a block scalar header, an anchor or a tag.
      lastWasScalar = c === 34 || c === 39 || c === 42; /* " ' * */
      if (c === 124 || c === 62 /* | > */) blockScalarNext = true;
      if (lastWasScalar && ++nodes > maxNodes) return tooMany(start, maxNodes);
    }
    // A mapping opened by `key:` is reported at its key.
    const at = lexeme === ':' && nodeStart !== -1 ? nodeStartOffset : start;
    if (lexeme === '-' || lexeme === '?' || lexeme === ':' || lexeme === ',') nodeStart = -1;
    else if (nodeStart === -1) {
      nodeStart = column;
      nodeStartOffset = start;
    }
    if (opened) {
      if (++nodes > maxNodes) return tooMany(at, maxNodes);
      // One more than the reader's limit: it takes a collection at depth MAX_DEPTH as long as it is empty.
      if (block.open.length + flow > MAX_DEPTH + 1) return { offset: at, message: `nested deeper than ${MAX_DEPTH} levels` };
    }
  }
  return undefined;
}

/** prescanYaml's refusal as the file's diagnostic, at its line and column. */
export function prescanDiagnostic(text: string, file: string): Diagnostic | undefined {
  const refused = prescanYaml(text);
  if (refused === undefined) return undefined;
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const position = new Positions(file, starts, text.charCodeAt(0) === 0xfeff ? 1 : 0).at(refused.offset);
  return { severity: 'error', code: 'yaml-limit', ...position, message: refused.message };
}

function tooMany(offset: number, maxNodes: number): Prescan {
  return {
    offset,
    message:
      `more than ${maxNodes} values in one file that must be read exactly (it has something to report, or a ` +
      'construct only the exact reader takes): split the file',
  };
}

/** A line that is a document marker: `---` or `...`, alone or followed by a space. */
function markerAt(text: string, i: number): '---' | '...' | undefined {
  const marker = text.startsWith('---', i) ? '---' : text.startsWith('...', i) ? '...' : undefined;
  if (marker === undefined) return undefined;
  const next = text.charCodeAt(i + 3);
  return Number.isNaN(next) || next === 32 || next === 9 || next === 10 || next === 13 ? marker : undefined;
}

/**
 * The documents in `text`, counted before it is parsed (a parser holds every document of a file
 * at once, so enough of them exhaust memory however small each is): one per `---`, and one for
 * text that no `---` starts (at the top, or after a `...`). Empty documents count too.
 */
/**
 * Whether `text` holds more than `room` documents (documentCount). Each document counted is a line
 * of its own with a character on it, so a text of n characters holds at most (n + 1) / 2: most
 * files are not counted at all.
 */
export function moreDocumentsThan(text: string, room: number): boolean {
  return (text.length + 1) / 2 > room && documentCount(text) > room;
}

export function documentCount(text: string): number {
  let count = 0;
  let bare = true;
  for (let i = 0; i < text.length; i = text.indexOf('\n', i) + 1 || text.length) {
    const marker = markerAt(text, i);
    if (marker !== undefined) {
      if (marker === '---') count++;
      bare = marker === '...';
      continue;
    }
    if (!bare) continue;
    let j = i;
    while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || text.charCodeAt(j) === 0xfeff) j++;
    const c = text.charCodeAt(j);
    // Blank, a comment, or a directive (which a `---` follows).
    if (Number.isNaN(c) || c === 10 || c === 13 || c === 35 /* # */ || c === 37 /* % */) continue;
    count++;
    bare = false;
  }
  return count;
}
