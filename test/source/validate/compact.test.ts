import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactObject } from '../../../src/source/validate/compact.js';
import type { JsonObject } from '../../../src/core/types.js';

describe('compactObject', () => {
  it('leaves a spec what it was (its text as JSON, keys in order, its prototype)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (value) => {
        const spec = value as JsonObject;
        const before = JSON.stringify(spec);
        const prototype: unknown = Object.getPrototypeOf(spec);
        compactObject(spec);
        expect(JSON.stringify(spec)).toBe(before);
        expect(Object.getPrototypeOf(spec)).toBe(prototype);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an own __proto__ key an own key, and the prototype untouched', () => {
    const spec = JSON.parse('{"__proto__": ["a"], "list": [{"__proto__": "x"}]}') as JsonObject;
    compactObject(spec);
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(spec, '__proto__')).toBe(true);
    expect(JSON.stringify(spec)).toBe('{"__proto__":["a"],"list":[{"__proto__":"x"}]}');
  });

  it('copies lists (no room kept for more) and leaves nested objects in place', () => {
    const inner = { a: 1 };
    const list = ['oncall-0'];
    const spec: JsonObject = { notifiers: list, nested: inner };
    compactObject(spec);
    expect(spec.notifiers).not.toBe(list);
    expect(spec.notifiers).toEqual(['oncall-0']);
    expect(spec.nested).toBe(inner);
  });
});
