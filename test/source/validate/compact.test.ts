import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactAnnotations, compactObject } from '../../../src/source/validate/compact.js';
import { desiredFromTexts } from '../../../src/source/index.js';
import type { JsonObject } from '../../../src/core/types.js';

describe('compactObject', () => {
  it('leaves a spec what it was (its text as JSON, keys in order, its prototype), long texts shared or not', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), fc.boolean(), (value, longTexts) => {
        const spec = value as JsonObject;
        const before = JSON.stringify(spec);
        const prototype: unknown = Object.getPrototypeOf(spec);
        compactObject(spec, longTexts);
        expect(JSON.stringify(spec)).toBe(before);
        expect(Object.getPrototypeOf(spec)).toBe(prototype);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an own __proto__ key an own key, and the prototype untouched', () => {
    const spec = JSON.parse('{"__proto__": ["a long text to share"], "list": [{"__proto__": "x"}]}') as JsonObject;
    compactObject(spec, true);
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(spec, '__proto__')).toBe(true);
    expect(JSON.stringify(spec)).toBe('{"__proto__":["a long text to share"],"list":[{"__proto__":"x"}]}');
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

describe('compactAnnotations', () => {
  it('keeps one frozen record for equal annotations in the same order, and tells apart any other', () => {
    const first = compactAnnotations({ 'wsync/prune': 'disabled', team: 'checkout' });
    expect(compactAnnotations({ 'wsync/prune': 'disabled', team: 'checkout' })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual({ 'wsync/prune': 'disabled', team: 'checkout' });
    const reordered = compactAnnotations({ team: 'checkout', 'wsync/prune': 'disabled' });
    expect(reordered).not.toBe(first);
    expect(Object.keys(reordered)).toEqual(['team', 'wsync/prune']);
    expect(compactAnnotations({ 'wsync/prune': 'enabled', team: 'checkout' })).toEqual({ 'wsync/prune': 'enabled', team: 'checkout' });
  });

  it('gives the resources of a tree that annotate alike one record, each its own otherwise', () => {
    const notifier = (name: string, prune: string): string =>
      `apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: ${name}\n  annotations:\n    wsync/prune: ${prune}\nspec:\n  properties:\n    email:\n      emails: [a@example.com]\n`;
    const desired = desiredFromTexts([{ path: 'n.yaml', text: [notifier('a', 'disabled'), notifier('b', 'disabled'), notifier('c', 'enabled')].join('---\n') }], { env: {} });
    expect(desired.diagnostics).toEqual([]);
    const [a, b, c] = desired.resources;
    expect(a?.annotations).toBe(b?.annotations);
    expect(a?.annotations).toEqual({ 'wsync/prune': 'disabled' });
    expect(c?.annotations).toEqual({ 'wsync/prune': 'enabled' });
  });
});
