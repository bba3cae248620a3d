import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, MAX_SHOWN_VALUE, safeLine, safeText } from '../../src/core/safe-text.js';

describe('safe text', () => {
  it.each([
    ['line breaks and tabs', 'a\nb\r\tc', 'a\\nb\\r\\tc'],
    ['an escape sequence (C0)', '\u001b[31mred', '\\u001b[31mred'],
    ['NUL and DEL', 'a\u0000b\u007f', 'a\\u0000b\\u007f'],
    ['a C1 control (CSI)', 'a\u009b31m', 'a\\u009b31m'],
    ['bidi overrides and isolates', 'abc\u202etxt.exe\u2066\u2069\u200f', 'abc\\u202etxt.exe\\u2066\\u2069\\u200f'],
    ['zero-width characters', 'ad\u200bmin\ufeff\u2060', 'ad\\u200bmin\\ufeff\\u2060'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a\\u2028b\\u2029'],
    ['tag characters', 'a\u{e0041}', 'a\\u{e0041}'],
    ['a lone surrogate', 'a\ud800b', 'a\\ud800b'],
  ])('escapes %s visibly', (_, input, shown) => {
    expect(hasUnsafeCharacters(input)).toBe(true);
    expect(safeLine(input)).toBe(shown);
    expect(safeText(input)).toBe(shown);
  });

  it('leaves ordinary text alone: accents, scripts, emoji with variation selectors, backslashes', () => {
    for (const text of ['café', 'Straße', '東京', 'данные', '❤️ on-call', 'a\\nb', "['http'] | count"]) {
      expect(hasUnsafeCharacters(text)).toBe(false);
      expect(safeText(text)).toBe(text);
    }
  });

  it('is idempotent: escaped text has nothing left to escape', () => {
    const once = safeLine('x\u202e\n\u001b');
    expect(safeLine(once)).toBe(once);
  });

  it('cuts a long value with an ellipsis, never inside an escape', () => {
    const long = 'x'.repeat(1_000_000);
    const shown = safeText(long);
    expect(shown).toHaveLength(MAX_SHOWN_VALUE + 1);
    expect(shown.endsWith('…')).toBe(true);
    expect(safeText('ab\ncd', 3)).toBe('ab…');
    expect(safeText('ab\ncd', 4)).toBe('ab\\n…');
    expect(safeText('a'.repeat(MAX_SHOWN_VALUE))).toBe('a'.repeat(MAX_SHOWN_VALUE));
  });
});
