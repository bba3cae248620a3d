import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/core/suggest.js';

describe('didYouMean', () => {
  it('finds near misses: a dropped letter, a swap, another case', () => {
    expect(didYouMean('treshold', ['threshold', 'tolerance'])).toBe('threshold');
    expect(didYouMean('apiVerison', ['apiVersion', 'kind'])).toBe('apiVersion');
    expect(didYouMean('slackURL', ['slackUrl'])).toBe('slackUrl');
    expect(didYouMean('monitor', ['monitors', 'notifiers'])).toBe('monitors');
  });

  it('keeps quiet when nothing is close', () => {
    expect(didYouMean('colour', ['threshold', 'operator'])).toBeUndefined();
    expect(didYouMean('x', ['y'])).toBe('y');
    expect(didYouMean('ab', ['xyz'])).toBeUndefined();
  });

  it('measures edits with transpositions, capped', () => {
    expect(editDistance('abcd', 'abdc', 3)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
  });
});
