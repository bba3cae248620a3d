import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/core/redact.js';

describe('createRedactor: the one redaction of every output', () => {
  it('replaces a secret as written and as it appears inside a JSON string', () => {
    const secret = 'pa"ss\\word\nline2';
    const redact = createRedactor([secret]);
    expect(redact(`header: ${secret}`)).toBe('header: (sensitive)');
    expect(redact(JSON.stringify({ key: `${secret}-alerts` }))).toBe('{"key":"(sensitive)-alerts"}');
  });

  it('replaces the longest secret first and leaves values under 4 characters alone', () => {
    const redact = createRedactor(['abcd', 'abcdefgh', 'x']);
    expect(redact('abcdefgh abcd x')).toBe('(sensitive) (sensitive) x');
    expect(createRedactor([])('nothing to hide')).toBe('nothing to hide');
  });
});
