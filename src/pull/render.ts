// Values as YAML text for one place in an existing file: a scalar in the style it had (plain,
// quoted, a block), a collection in the style of where it goes (flow inside flow, block
// otherwise), lines after the first indented to the column they start at.
import { stringify } from 'yaml';
import { isJsonObject } from '../core/json.js';
import type { JsonValue } from '../core/types.js';

/** How a scalar was written: yaml's Scalar.type. */
export type ScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED' | undefined;

// Quoted by YAML 1.1 rules as export writes them (`"yes"`): the same text under 1.2, which wsync reads.
const SCALAR_OPTIONS = { version: '1.1', lineWidth: 0, minContentWidth: 0 } as const;

function isCollection(value: JsonValue): value is JsonValue[] | { [key: string]: JsonValue } {
  return Array.isArray(value) || isJsonObject(value);
}

/** A scalar in flow context: quoted when a plain one would hold `,[]{}`. */
function flowScalar(value: JsonValue): string {
  const text = stringify([value], { ...SCALAR_OPTIONS, collectionStyle: 'flow', flowCollectionPadding: false }).trimEnd();
  return text.slice(1, -1);
}

/** A collection on one line, `[a, b]` and `{k: v}` as people write them. */
export function flowText(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(flowText).join(', ')}]`;
  if (isJsonObject(value)) return `{${Object.entries(value).map(([k, v]) => `${flowScalar(k)}: ${flowText(v)}`).join(', ')}}`;
  return flowScalar(value);
}

/** A key of a block mapping, quoted only when it has to be. */
export function keyText(key: string): string {
  return stringify(key, SCALAR_OPTIONS).trimEnd();
}

function blockScalar(value: string, style: 'BLOCK_LITERAL' | 'BLOCK_FOLDED', column: number): string {
  const trailing = /\n*$/.exec(value)?.[0].length ?? 0;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = value.slice(0, value.length - trailing).split('\n');
  // A folded scalar joins lines: only a literal one keeps them as the value has them.
  const header = `${style === 'BLOCK_LITERAL' || body.length > 1 ? '|' : '>'}${chomp}`;
  const pad = ' '.repeat(column);
  const lines = body.map((line) => (line === '' ? '' : `${pad}${line}`));
  return `${header}\n${lines.join('\n')}\n${'\n'.repeat(Math.max(0, trailing - 1))}`;
}

/**
 * A scalar replacing one written in `style`. `inFlow`: inside `[...]`/`{...}`. `blockColumn`: where
 * a block scalar's lines start. A multi-line string that was not a block is written double-quoted.
 */
export function scalarText(value: JsonValue, style: ScalarStyle, inFlow: boolean, blockColumn: number): string {
  if (typeof value !== 'string') return value === null ? 'null' : String(value);
  if (style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED') {
    if (!inFlow) return blockScalar(value, style, blockColumn);
  }
  if (value.includes('\n')) return JSON.stringify(value);
  if (inFlow) {
    if (style === 'QUOTE_SINGLE' || style === 'QUOTE_DOUBLE') return stringify(value, { ...SCALAR_OPTIONS, defaultStringType: style }).trimEnd();
    return flowScalar(value);
  }
  const type = style === 'QUOTE_SINGLE' || style === 'QUOTE_DOUBLE' ? style : 'PLAIN';
  return stringify(value, { ...SCALAR_OPTIONS, defaultStringType: type, defaultKeyType: 'PLAIN' }).trimEnd();
}

/** `text` with every line but the first indented by `column` spaces (empty lines stay empty). */
function indentRest(text: string, column: number): string {
  const pad = ' '.repeat(column);
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : `${pad}${line}`))
    .join('\n');
}

/** A collection in block style, its first line to follow where it starts (column `column`), no final newline. */
export function blockText(value: JsonValue, column: number, indent: number): string {
  const text = stringify(value, { ...SCALAR_OPTIONS, indent, aliasDuplicateObjects: false }).replace(/\n$/, '');
  return indentRest(text, column);
}

/**
 * `key: value` for a block mapping whose keys start at `column`, no final newline: a scalar or an
 * empty collection on the key's line, a collection on the lines below.
 */
export function pairText(key: string, value: JsonValue, column: number, indent: number): string {
  if (!isCollection(value) || (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0)) {
    return `${key}: ${isCollection(value) ? flowText(value) : scalarText(value, 'PLAIN', false, column + indent)}`;
  }
  const childColumn = column + indent;
  return `${key}:\n${' '.repeat(childColumn)}${blockText(value, childColumn, indent)}`;
}

/** `- value` for a block sequence whose dashes are at `column`, no final newline. */
export function itemText(value: JsonValue, column: number, indent: number): string {
  if (!isCollection(value)) return `- ${scalarText(value, 'PLAIN', false, column + indent)}`;
  return `- ${blockText(value, column + 2, indent)}`;
}

export { isCollection };
