import { describe, expect, it } from 'vitest';
import { sortKeys } from '../../src/core/json.js';
import type { JsonValue, Plan } from '../../src/core/types.js';
import { jsonChunks, parsePlanJson, renderJson } from '../../src/render/index.js';
import { datasetDeletePlan, emptyPlan, mixedPlan, refusedPlan } from './sample.js';

function keysSorted(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSorted);
  if (value === null || typeof value !== 'object') return true;
  const keys = Object.keys(value);
  return keys.join('\u0000') === [...keys].sort().join('\u0000') && Object.values(value).every(keysSorted);
}

describe('renderJson', () => {
  const text = renderJson(mixedPlan());

  it('is versioned, 2-space indented, keys sorted at every level, changes in plan order', () => {
    const doc = JSON.parse(text) as { version: number; changes: { kind: string; key: string }[] };
    expect(doc.version).toBe(1);
    expect(text.startsWith('{\n  "changes": [\n    {\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(keysSorted(doc)).toBe(true);
    expect(doc.changes.map((c) => `${c.kind}/${c.key}`)).toEqual(mixedPlan().changes.map((c) => `${c.kind}/${c.key}`));
  });

  it('is byte-stable and carries the fingerprint of desired and live state', () => {
    expect(renderJson(mixedPlan())).toBe(text);
    const doc = JSON.parse(text) as { fingerprint: { desired: string; live: string; desiredObjects: Record<string, string> } };
    expect(doc.fingerprint.desired).toMatch(/^sha256:/);
    expect(doc.fingerprint.live).toMatch(/^sha256:/);
    expect(Object.keys(doc.fingerprint.desiredObjects)).toContain('Monitor/m');
  });

  it('reads back with parsePlanJson; other versions and other files are refused plainly', () => {
    expect(parsePlanJson(text)).toEqual(JSON.parse(text));
    expect(() => parsePlanJson(text.replace('"version": 1', '"version": 2'))).toThrow('plan file version 2 is not supported (expected 1)');
    expect(() => parsePlanJson('[]')).toThrow('not a plan file');
    expect(() => parsePlanJson('{"version": 1}')).toThrow('not a plan file');
    expect(() => parsePlanJson('{')).toThrow('not a plan file');
  });

  it('comes in pieces, a change at a time, that make the bytes of the plan stringified whole', () => {
    const whole = (plan: Plan): string =>
      `${JSON.stringify(sortKeys(JSON.parse(JSON.stringify({ ...plan, version: 1 })) as JsonValue), null, 2)}\n`;
    for (const plan of [mixedPlan(), refusedPlan(), emptyPlan(), datasetDeletePlan()]) {
      const chunks = [...jsonChunks(plan)];
      expect(chunks.join('')).toBe(whole(plan));
      expect(chunks.length).toBeGreaterThan(plan.changes.length);
    }
  });
});
