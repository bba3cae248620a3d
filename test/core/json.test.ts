import fc from 'fast-check';
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

  it('compares as canonicalJson does, without making the texts: members left undefined, key order, nesting, __proto__', () => {
    expect(jsonEqual({ a: 1, b: undefined } as unknown as JsonObject, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: null }, {})).toBe(false);
    expect(jsonEqual([undefined] as unknown as JsonObject, [null])).toBe(true);
    expect(jsonEqual(JSON.parse('{"__proto__": {}}') as JsonObject, {})).toBe(false);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
    expect(jsonEqual({ a: '1' }, { a: 1 })).toBe(false);
    // Values that differ in a few places, or only in key order, drawn from the same pool so that equal pairs are common.
    const leaf = fc.constantFrom<unknown>(null, undefined, 0, 1, '', '1', 'a', true, false);
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', '__proto__'), tie('node'), { maxKeys: 3 })),
    })).node;
    const reversed = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(reversed) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v;
    fc.assert(
      fc.property(value, value, fc.boolean(), (a, b, same) => {
        const right = same ? reversed(a) : b;
        const [x, y] = [a, right] as [JsonObject, JsonObject];
        const expected = x === y || (x !== null && y !== null && typeof x === 'object' && typeof y === 'object' && canonicalJson(x) === canonicalJson(y));
        expect(jsonEqual(x, y)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
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
