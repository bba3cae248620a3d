// Text that comes from files, from the API or from file names is shown to people: a terminal runs
// the escape sequences in it, a pull-request comment renders it as markdown, bidi controls reorder
// what a reviewer reads and zero-width characters make two names look the same. Every such string
// is passed through here before it is printed.

/**
 * Characters never printed raw: controls (C0, DEL, C1), line and paragraph separators, lone
 * surrogates, and the default-ignorable code points (bidi controls, zero-width characters, tags,
 * soft hyphen), except the variation selectors that emoji use.
 */
const UNSAFE_CHARACTER = /(?![\ufe00-\ufe0f])[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;
const UNSAFE = new RegExp(UNSAFE_CHARACTER.source, 'gu');

/** Longest value shown whole: a name may have 256 characters, a key a few parts more. */
export const MAX_SHOWN_VALUE = 320;
/** Longest message shown whole: a message quotes what it is about, which may be anything. */
export const MAX_SHOWN_MESSAGE = 2000;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeCharacter(character: string): string {
  const short = SHORT[character];
  if (short !== undefined) return short;
  const code = character.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** True when `text` holds a character that safeLine would escape. */
export function hasUnsafeCharacters(text: string): boolean {
  return UNSAFE_CHARACTER.test(text);
}

/** `text` with every unsafe character escaped visibly (`\n`, `\u202e`), never cut: for messages. */
export function safeLine(text: string): string {
  return text.replace(UNSAFE, escapeCharacter);
}

/**
 * A user-controlled value as it may be printed: unsafe characters escaped visibly, and cut with an
 * ellipsis after `max` characters (so a name of a megabyte is not echoed whole).
 */
export function safeText(text: string, max: number = MAX_SHOWN_VALUE): string {
  if (text.length <= max && !hasUnsafeCharacters(text)) return text;
  let out = '';
  for (const character of text) {
    const piece = UNSAFE_CHARACTER.test(character) ? escapeCharacter(character) : character;
    if (out.length + piece.length > max) return `${out}…`;
    out += piece;
  }
  return out;
}

/** A message (which may quote anything) as it may be printed: escaped, and cut after MAX_SHOWN_MESSAGE characters. */
export function safeMessage(text: string): string {
  return safeText(text, MAX_SHOWN_MESSAGE);
}
