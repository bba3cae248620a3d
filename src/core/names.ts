// What a name (metadata.name, the natural key people read) may hold. A name is printed in plans and
// pull-request comments and compared by people: characters that reorder text (bidi controls), that
// cannot be seen (zero-width spaces) or that break lines would let two names look alike or a name
// look like something else. The JSON Schemas' metadata.name pattern is built from the same list.

/** The character classes of FORBIDDEN_IN_NAMES, as a JSON Schema pattern writes them. */
const FORBIDDEN_RANGES =
  '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060\\u2066-\\u2069\\ufeff';

/** The metadata.name pattern of schemas/envelope.json (a test checks they agree). */
export const NAME_PATTERN = `^[^${FORBIDDEN_RANGES}]+$`;

const FORBIDDEN_IN_NAMES = new RegExp(`[${FORBIDDEN_RANGES}]`, 'u');

const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why `name` is not a valid name because of a character in it, or undefined when none is wrong. */
export function forbiddenNameCharacter(name: string): string | undefined {
  const found = FORBIDDEN_IN_NAMES.exec(name);
  if (!found) return undefined;
  const code = found[0].codePointAt(0) ?? 0;
  const at = codePoint(code);
  if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return `a line break (${at})`;
  if (code === 0x09) return `a tab (${at})`;
  if (BIDI.has(code)) return `a bidi control (${at}), which makes text read in another order than it is stored`;
  if (code < 0xa0) return `a control character (${at})`;
  return `an invisible character (${at}), which makes two different names look the same`;
}
