import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/types.js';
import {
  deleteAt,
  findPaths,
  withValuesAt,
  withoutValuesAt,
  getAt,
  isPrefix,
  matchesPattern,
  patternIsPrefix,
  pointerSegments,
  putAt,
  replaceExisting,
  toPointer,
  withoutValueAt,
  withValueAt,
} from '../../src/core/json-paths.js';

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
    const next = withValueAt(spec, ['properties', 'customWebhook', 'url'], 'v');
    expect(getAt(next, ['properties', 'customWebhook', 'url'])).toBe('v');
    expect(spec.properties.customWebhook.url).toBe('u');
    expect(toPointer(['a', 0, 'b/c'])).toBe('/a/0/b~1c');
  });

  it('turns pointers into segments and back, escapes included', () => {
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/a/b~1c/d~0e')).toEqual(['a', 'b/c', 'd~e']);
    expect(toPointer(pointerSegments('/a/b~1c/d~0e'))).toBe('/a/b~1c/d~0e');
  });

  it('tells prefixes apart, with and without wildcards', () => {
    expect(isPrefix(['a'], ['a', 'b'])).toBe(true);
    expect(isPrefix(['a', 'b'], ['a'])).toBe(false);
    expect(patternIsPrefix(['a', '*'], ['a', 'x', 'y'])).toBe(true);
    expect(patternIsPrefix(['b', '*'], ['a', 'x'])).toBe(false);
  });

  it('removes a value in a copy, leaving the input as it was', () => {
    const next = withoutValueAt(spec, ['properties', 'customWebhook', 'url']);
    expect(getAt(next, ['properties', 'customWebhook', 'url'])).toBeUndefined();
    expect(getAt(next, ['properties', 'customWebhook', 'secretHeaders', 'Authorization'])).toBe('a');
    expect(spec.properties.customWebhook.url).toBe('u');
    expect(withoutValueAt(spec, ['nope', 'x'])).toBe(spec);
  });

  it('puts and deletes in place, creating objects on the way', () => {
    const root: JsonObject = { a: 1 };
    putAt(root, ['b', 'c'], 2);
    expect(root).toEqual({ a: 1, b: { c: 2 } });
    expect(deleteAt(root, ['b', 'c'])).toBe(true);
    expect(deleteAt(root, ['b', 'c'])).toBe(false);
    expect(root).toEqual({ a: 1, b: {} });
  });

  it('replaces only values that exist, array items included', () => {
    const root: JsonObject = { list: ['x', 'y'], o: { k: 'v' } };
    replaceExisting(root, ['list', '1'], 'Y');
    replaceExisting(root, ['list', '5'], 'Z');
    replaceExisting(root, ['o', 'k'], 'V');
    replaceExisting(root, ['o', 'missing'], 'M');
    expect(root).toEqual({ list: ['x', 'Y'], o: { k: 'V' } });
  });

  it('never reaches the prototype through a path from a file', () => {
    const root: JsonObject = {};
    expect(getAt(root, ['__proto__'])).toBeUndefined();
    expect(getAt(root, ['toString'])).toBeUndefined();
    expect(findPaths(root, ['constructor'])).toEqual([]);
    putAt(root, ['__proto__', 'polluted'], true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(root)).toEqual(['__proto__']);
    const copy = withValueAt({}, ['__proto__'], 'x');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
  });
});

describe('withValuesAt and withoutValuesAt', () => {
  it('put and remove many paths with one copy of each object on the way, never changing the input', () => {
    const spec = { a: { b: { c: 1, d: 2, e: 3 }, x: 1 }, keep: { y: 1 } };
    const before = JSON.stringify(spec);
    const removed = withoutValuesAt(spec, [['a', 'b', 'c'], ['a', 'b', 'd'], ['a', 'missing', 'z'], ['nope']]);
    expect(removed).toEqual({ a: { b: { e: 3 }, x: 1 }, keep: { y: 1 } });
    expect(removed.keep).toBe(spec.keep);
    const put = withValuesAt(spec, [[['a', 'b', 'c'], 9], [['n', 'm'], 'new']]);
    expect(put).toEqual({ a: { b: { c: 9, d: 2, e: 3 }, x: 1 }, keep: { y: 1 }, n: { m: 'new' } });
    expect(JSON.stringify(spec)).toBe(before);
    expect(withoutValuesAt(spec, [])).toBe(spec);
  });

  it('removes 60,000 keys of one object in one pass', () => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 60_000; i++) headers[`h${i}`] = 'v';
    const paths = Object.keys(headers).map((key) => ['headers', key]);
    expect(withoutValuesAt({ headers, other: 1 }, paths)).toEqual({ headers: {}, other: 1 });
  });
});
