import { describe, expect, it } from 'vitest';
import { findPaths, getAt, matchesPattern, setAt, toPointer } from '../../src/kinds/paths.js';

describe('spec paths', () => {
  const spec = {
    properties: { customWebhook: { url: 'u', secretHeaders: { Authorization: 'a', 'X/Key~1': 'b' } } },
  };

  it('finds every value under a wildcard pattern, in key order', () => {
    const found = findPaths(spec, ['properties.customWebhook.secretHeaders.*', 'properties.slack.slackUrl']);
    expect(found.map((f) => f.dotted)).toEqual([
      'properties.customWebhook.secretHeaders.Authorization',
      'properties.customWebhook.secretHeaders.X/Key~1',
    ]);
    expect(found[1]?.pointer).toBe('/properties/customWebhook/secretHeaders/X~1Key~01');
  });

  it('matches patterns segment by segment', () => {
    expect(matchesPattern(['orgCapabilities', 'monitors'], 'orgCapabilities.*')).toBe(true);
    expect(matchesPattern(['orgCapabilities'], 'orgCapabilities.*')).toBe(false);
  });

  it('reads and writes without changing the input', () => {
    expect(getAt(spec, ['properties', 'customWebhook', 'url'])).toBe('u');
    const next = setAt(spec, ['properties', 'customWebhook', 'url'], 'v');
    expect(getAt(next, ['properties', 'customWebhook', 'url'])).toBe('v');
    expect(spec.properties.customWebhook.url).toBe('u');
    expect(toPointer(['a', 0, 'b/c'])).toBe('/a/0/b~1c');
  });
});
