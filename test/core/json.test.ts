import { describe, expect, it } from 'vitest';
import {
  asJsonObject,
  canonicalJson,
  cloneJson,
  compareText,
  dropEmptyObject,
  isEmptyValue,
  isJsonObject,
  jsonEqual,
  ownChild,
  setOwn,
  sortedIfStrings,
  sortKeys,
} from '../../src/core/json.js';
import type { JsonObject } from '../../src/core/types.js';

describe('JSON values', () => {
  it('guards objects: not null, not arrays', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject('x')).toBe(false);
    expect(isJsonObject(undefined)).toBe(false);
    expect(asJsonObject([1])).toBeUndefined();
    expect(asJsonObject({ a: 1 })).toEqual({ a: 1 });
  });

  it('compares as JSON: key order does not matter, array order does', () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual('', undefined)).toBe(false);
    expect(jsonEqual(null, null)).toBe(true);
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });

  it('treats null, empty text, empty lists and empty objects as nothing', () => {
    for (const empty of [null, undefined, '', [], {}]) expect(isEmptyValue(empty), JSON.stringify(empty)).toBe(true);
    for (const value of [0, false, ' ', [null], { a: null }]) expect(isEmptyValue(value), JSON.stringify(value)).toBe(false);
    expect(dropEmptyObject({ a: '', b: { c: [] }, d: [null], e: 0 })).toEqual({ d: [null], e: 0 });
    expect(dropEmptyObject({ a: { b: {} } })).toEqual({});
  });

  it('makes sorted copies without touching the input', () => {
    const input: JsonObject = { b: ['y', 'x'], a: { d: 1, c: 2 } };
    expect(JSON.stringify(sortKeys(input))).toBe('{"a":{"c":2,"d":1},"b":["y","x"]}');
    expect(sortedIfStrings(['b', 'B', 'a'])).toEqual(['B', 'a', 'b']);
    expect(sortedIfStrings([2, 1])).toEqual([2, 1]);
    expect(input).toEqual({ b: ['y', 'x'], a: { d: 1, c: 2 } });
    expect(['b', 'a', 'B'].sort(compareText)).toEqual(['B', 'a', 'b']);
  });

  it('copies deeply', () => {
    const input: JsonObject = { a: { b: [1, { c: 2 }] } };
    const copy = cloneJson(input);
    expect(copy).toEqual(input);
    (((copy.a as JsonObject).b as JsonObject[])[1] as JsonObject).c = 3;
    expect(input).toEqual({ a: { b: [1, { c: 2 }] } });
  });

  it('keeps a key named __proto__ a field, and reads own properties only', () => {
    const out: JsonObject = {};
    setOwn(out, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(ownChild({}, 'toString')).toBeUndefined();
    expect(ownChild({ a: 1 }, 'a')).toBe(1);
  });
});
