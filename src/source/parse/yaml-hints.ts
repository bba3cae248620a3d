import type { Diagnostic } from '../../core/types.js';

// What a newcomer's YAML mistake is, in plain words, read from the text itself: the `yaml`
// library reports where its parse broke (often a line too early or late) and in its own terms
// ("Missing , or : between flow sequence items"), several times for one mistake. These hints are
// found line by line, once per mistake, and say what to write instead. Only files with something
// to report are looked at (the fast path reads clean files without them).

/** One mistake: where it is and what to do. */
export interface YamlHint {
  /** Offset into the text (its line and column are what the user sees). */
  offset: number;
  /** 1-based line of the offset. */
  line: number;
  message: string;
  /**
   * `syntax`: the text is not YAML here (stands in for the parser's messages). `meaning`: valid
   * YAML that reads differently from what was likely meant; it explains an error reported there.
   */
  type: 'syntax' | 'meaning';
  /** A `meaning` that changes the data without any error: worth a warning of its own. */
  silent?: true;
}

interface Line {
  /** 1-based. */
  number: number;
  start: number;
  text: string;
  indent: number;
}

/** What a value's first character makes of it, for a value written without quotes. */
const READS_AS: Record<string, string> = {
  '[': 'the start of a list',
  '{': 'the start of a mapping',
  '*': 'an alias (a reference to an &anchor)',
  '&': 'an anchor (a name for the value, left out of it)',
  '@': 'a reserved character',
  '`': 'a reserved character',
  '%': 'a directive',
  '|': 'a block of text on the lines below',
  '>': 'a block of text on the lines below',
  '#': 'the start of a comment (the value is empty)',
};

const KEY = /^([A-Za-z0-9_$][^:#]*?|"[^"]*"|'[^']*'):(?: +|$)/;
const NO_SPACE_AFTER_COLON = /^([A-Za-z_][\w.-]*):([^\s/:].*)$/;

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let number = 1; start <= text.length; number++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end).replace(/\r$/, '');
    lines.push({ number, start, text: raw, indent: raw.length - raw.trimStart().length });
    start = end + 1;
  }
  return lines;
}

/** The line as it should be written: the value quoted (JSON's quoting is valid YAML). */
function quoted(key: string, value: string, keyColumn: number, line: Line): string {
  const lead = line.text.slice(line.indent, keyColumn);
  return `${lead}${key}: ${JSON.stringify(value)}`;
}

/** The end of a flow collection or quoted string opened at `i`, or -1 when it does not end on the line. */
function closing(value: string): number {
  const open = value[0]!;
  if (open === "'" || open === '"') {
    for (let i = 1; i < value.length; i++) {
      if (open === '"' && value[i] === '\\') i++;
      else if (value[i] === open) {
        if (open === "'" && value[i + 1] === "'") i++;
        else return i;
      }
    }
    return -1;
  }
  let depth = 0;
  let quote = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      if (--depth === 0) return i;
    }
  }
  return -1;
}

/** Text after position `end` other than spaces and a comment. */
function trailing(value: string, end: number): boolean {
  const rest = value.slice(end + 1).trim();
  return rest !== '' && !rest.startsWith('#');
}

/** The mistakes of one `key: value` whose value starts at `column` of the line. */
function valueHints(line: Line, key: string, keyColumn: number, column: number, text: string): YamlHint[] {
  const value = line.text.slice(column).trimEnd();
  const offset = line.start + column;
  const first = value[0]!;
  const fix = (meant: string): string => `quote the value: ${quoted(key, meant, keyColumn, line)}`;
  const startsWith = (type: YamlHint['type']): YamlHint[] => [
    { offset, line: line.number, type, message: `the value of ${key} starts with "${first}", which YAML reads as ${READS_AS[first]}: ${fix(value)}` },
  ];
  if (first === '[' || first === '{') {
    const end = closing(value);
    return end !== -1 && trailing(value, end) ? startsWith('syntax') : [];
  }
  if (first === '"' || first === "'") {
    const quoteName = first === '"' ? 'a double quote' : 'a single quote';
    const end = closing(value);
    if (end === -1) {
      const message = `the value of ${key} starts with ${quoteName} and has no closing one on its line: end it with ${first} (a quoted text may go on over lines, but rarely should)`;
      return [{ offset, line: line.number, type: 'meaning', message }];
    }
    if (!trailing(value, end)) return [];
    const inner = value.endsWith(first) ? value.slice(1, -1) : value.slice(1);
    const meant = first === "'" ? `'${inner.replace(/'/g, "''")}'` : JSON.stringify(inner);
    const lead = line.text.slice(line.indent, keyColumn);
    const how = first === "'" ? `inside '...' a ' is written twice` : `inside "..." a " is written \\"`;
    return [{ offset, line: line.number, type: 'syntax', message: `the value of ${key} starts with ${quoteName}, which YAML reads as a quoted text that ends at the next one (column ${column + end + 1}); ${how}: ${lead}${key}: ${meant}` }];
  }
  if (first === '@' || first === '`' || first === '%') return startsWith('syntax');
  if ((first === '|' || first === '>') && !/^[|>][-+0-9]*\s*(#.*)?$/.test(value)) return startsWith('syntax');
  if (first === '*') {
    const name = /^\*([^\s,[\]{}]+)/.exec(value)?.[1];
    const defined = name !== undefined && new RegExp(`&${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(text);
    return !defined || /^\*\S+\s+[^#\s]/.test(value) ? startsWith('syntax') : [];
  }
  if (first === '&') {
    const name = /^&(\S+)/.exec(value)?.[1];
    return name !== undefined && !text.includes(`*${name}`) ? startsWith('meaning').map((h) => ({ ...h, silent: true as const })) : [];
  }
  if (first === '#') {
    return [{ offset, line: line.number, type: 'meaning', message: `the value of ${key} starts with "#", which YAML reads as ${READS_AS['#']}: ${fix(value)}` }];
  }
  const colon = value.search(/: |:$/);
  const comment = value.indexOf(' #');
  if (colon !== -1 && (comment === -1 || colon < comment)) {
    return [{ offset, line: line.number, type: 'syntax', message: `the value of ${key} holds ": ", which YAML reads as the start of another key: ${fix(value)}` }];
  }
  return [];
}

/** Lines that belong to a block of text (`key: |`), which hold anything. */
function blockText(lines: Line[], i: number): number {
  const opener = lines[i]!;
  let j = i + 1;
  while (j < lines.length && (lines[j]!.text.trim() === '' || lines[j]!.indent > opener.indent)) j++;
  return j;
}

interface Level {
  indent: number;
  line: Line;
  /** The key of a mapping member, to name the level. */
  key?: string;
  /** Can a deeper line be nested here: a key without a value or a `-` without one. */
  opens: boolean;
}

class Indentation {
  private readonly levels: Level[] = [];
  private previous: Level | undefined;

  /** The hint for a line at `indent` that starts a key or an item, if its indentation is wrong. */
  check(line: Line, indent: number, isItem: boolean): YamlHint | undefined {
    const previous = this.previous;
    const top = this.levels[this.levels.length - 1];
    if (top === undefined || indent > top.indent || (isItem && previous?.opens && previous.key !== undefined && indent === previous.indent)) {
      if (top === undefined || previous === undefined || previous.opens) return undefined;
      const name = previous.key === undefined ? 'the item above' : `"${previous.key}" above (line ${previous.line.number})`;
      return {
        offset: line.start + indent,
        line: line.number,
        type: 'syntax',
        message: `indentation: indented ${indent} spaces, deeper than ${name}, which already has a value: indent it ${previous.indent} spaces to continue the same mapping`,
      };
    }
    let popped: Level | undefined;
    while (this.levels.length > 0 && this.levels[this.levels.length - 1]!.indent > indent) popped = this.levels.pop();
    const now = this.levels[this.levels.length - 1];
    if (now === undefined || now.indent === indent || popped === undefined) return undefined;
    const name = popped.key === undefined ? `the item on line ${popped.line.number}` : `"${popped.key}" (line ${popped.line.number})`;
    return {
      offset: line.start + indent,
        line: line.number,
      type: 'syntax',
      message: `indentation: indented ${indent} spaces, where the lines above it at this level, ${name}, are indented ${popped.indent}: use the same indentation for all of them`,
    };
  }

  push(level: Level): void {
    const levels = this.levels;
    while (levels.length > 0 && levels[levels.length - 1]!.indent >= level.indent) levels.pop();
    levels.push(level);
    this.previous = level;
  }
}

/** Is the next line with content indented deeper than line `i` (its children)? */
function deeper(lines: Line[], i: number): boolean {
  for (let j = i + 1; j < lines.length; j++) {
    const trimmed = lines[j]!.text.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) return lines[j]!.indent > lines[i]!.indent || trimmed.startsWith('- ');
  }
  return false;
}

function tabHint(lines: Line[]): YamlHint[] {
  const tabbed = lines.filter((line) => /^ *\t/.test(line.text) && line.text.trim() !== '');
  if (tabbed.length === 0) return [];
  const first = tabbed[0]!;
  const where = tabbed.length === 1 ? `line ${first.number}` : `${tabbed.length} lines, the first on line ${first.number}`;
  return [{ offset: first.start, line: first.number, type: 'syntax', message: `indented with a tab (${where}): YAML indents with spaces only; replace the tabs with spaces` }];
}

/** The mistakes a newcomer makes in a YAML text, one hint each, in file order. */
export function yamlHints(text: string): YamlHint[] {
  const lines = linesOf(text);
  const hints = tabHint(lines);
  if (hints.length > 0) return hints;
  let indentation = new Indentation();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (/^(---|\.\.\.)(\s|$)/.test(line.text)) {
      indentation = new Indentation();
      continue;
    }
    let column = line.indent;
    let opened = -1;
    // `- ` items, as many as the line opens, then a key or a value.
    while (line.text[column] === '-' && (line.text[column + 1] === ' ' || column + 1 === line.text.length)) {
      const hint = indentation.check(line, column, true);
      if (hint) hints.push(hint);
      indentation.push({ indent: column, line, opens: column + 1 >= line.text.trimEnd().length });
      column += 1;
      while (line.text[column] === ' ') column++;
      opened = column;
    }
    const rest = line.text.slice(column).trimEnd();
    if (rest === '') continue;
    if (rest[0] === '-' && /^-[A-Za-z_]/.test(rest) && opened === -1) {
      hints.push({ offset: line.start + column, line: line.number, type: 'meaning', message: `"${rest.split(/\s/)[0]}" needs a space after "-" to be a list item: - ${rest.slice(1)}` });
    }
    const noSpace = NO_SPACE_AFTER_COLON.exec(rest);
    if (noSpace) {
      hints.push({ offset: line.start + column, line: line.number, type: 'meaning', message: `"${rest}" needs a space after ":" to be a key and its value: ${noSpace[1]}: ${noSpace[2]}` });
      continue;
    }
    const key = KEY.exec(rest);
    if (!key) continue;
    if (opened !== column) {
      const hint = indentation.check(line, column, false);
      if (hint) hints.push(hint);
    }
    const valueColumn = column + key[0].length;
    const value = line.text.slice(valueColumn).trim();
    const name = key[1]!.replace(/^["']|["']$/g, '');
    indentation.push({ indent: column, line, key: name, opens: value === '' || value.startsWith('#') || /^&\S+$/.test(value) });
    if (value === '' || (value.startsWith('#') && deeper(lines, i))) continue;
    hints.push(...valueHints(line, name, column, valueColumn, text));
    if (/^[|>]/.test(value)) i = blockText(lines, i) - 1;
  }
  return hints;
}

/** The syntax hints inside a document the parser refused (its range in the text). */
export function syntaxHintsIn(hints: readonly YamlHint[], range: readonly [number, number, number], errorLines: ReadonlySet<number>): YamlHint[] {
  const inside = hints.filter((h) => h.offset >= range[0] && h.offset <= range[2]);
  const syntax = inside.filter((h) => h.type === 'syntax');
  if (syntax.length > 0) return syntax;
  // Valid YAML read otherwise than meant explains a parser error on its line or the next.
  return inside.filter((h) => errorLines.has(h.line) || errorLines.has(h.line + 1));
}

/**
 * Adds what YAML made of a value to the error reported about it (`spec.description: must be a
 * string` for `description: #1 fan`): at the hint's line, or at the key above whose value it is.
 * An anchor that no alias uses changes a text without an error: a warning of its own.
 */
export function explainDiagnostics(text: string, file: string, diagnostics: Diagnostic[]): void {
  const errors = diagnostics.some((d) => d.severity === 'error' && d.code !== 'yaml-syntax');
  if (!errors && !text.includes('&')) return;
  const hints = yamlHints(text).filter((h) => h.type === 'meaning');
  if (hints.length === 0) return;
  const lines = linesOf(text);
  const explained = new Set<Diagnostic>();
  for (const hint of hints) {
    const column = hint.offset - lines[hint.line - 1]!.start;
    let parent = hint.line - 2;
    while (parent >= 0 && (/^\s*(#|$)/.test(lines[parent]!.text) || lines[parent]!.indent >= column)) parent--;
    const at = new Set([hint.line, parent + 1]);
    const d = diagnostics.find((x) => x.severity === 'error' && x.code !== 'yaml-syntax' && !explained.has(x) && at.has(x.line ?? 0));
    if (d !== undefined) {
      explained.add(d);
      d.message = `${d.message}; ${hint.message}`;
    } else if (hint.silent) {
      diagnostics.push({ severity: 'warning', code: 'yaml-meaning', file, line: hint.line, column: column + 1, message: hint.message });
    }
  }
}
