// Property: the equal case's shortcut (plan/compare-equal.ts) says "equal" exactly when the full
// walk of compareSpecs finds no difference, for kinds whose rules sit on top-level fields, and
// never says it wrongly for the others: defaults, ignore-fields, secrets, computed fields, sets,
// timestamps and keyed arrays.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue, KindName } from '../../src/core/types.js';
import { KINDS } from '../../src/kinds/index.js';
import type { KindModule } from '../../src/kinds/types.js';
import { equalWhenCompared } from '../../src/plan/compare-equal.js';
import { compareSpecs, walkedDifferences, type CompareInput } from '../../src/plan/compare.js';

/** A kind with a top-level secret and a set that is also a timestamp list: rules no real kind has together. */
const SYNTHETIC: KindModule = { ...KINDS.Monitor, secretFields: ['token'], setFields: ['notifiers', 'tags'], defaults: { ...KINDS.Monitor.defaults, token: '' } };
const FLAT: KindModule[] = [KINDS.Monitor, KINDS.Group, KINDS.Dataset, KINDS.Annotation, KINDS.DatasetField, KINDS.User, SYNTHETIC];
const NESTED: KindName[] = ['Notifier', 'Role', 'Dashboard', 'ApiToken', 'StarredQuery'];

/** One instant in three forms, then "no time" in three, then text that is no time. */
const INSTANT = ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00+01:00'];
const TIMES = [...INSTANT, '0001-01-01T00:00:00Z', '', null, 'soon'];
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>(null, '', 0, 1, true, false, 'a', 'b', 'Above', 'id:n_1'),
  fc.constantFrom<JsonValue>(...TIMES),
);
const value: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(fc.oneof(scalar, fc.constantFrom('x', 'y', 'z')), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('k', 'l', 'apl', 'name'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

function fieldsOf(module: KindModule): string[] {
  return [...new Set([...Object.keys(module.defaults), ...module.setFields, ...module.timestamps, ...module.computed, ...module.secretFields, 'type', 'other'])].map((f) => f.split('.')[0] as string);
}

/** A spec over the kind's fields, and a live one made from it by edits that keep or change its meaning. */
function specsOf(module: KindModule): fc.Arbitrary<{ desired: JsonObject; live: JsonObject; ignore: string[][] }> {
  const fields = fieldsOf(module);
  // Sets and timestamps mostly hold what they are for, so that their rules are met often.
  const members = fc.array(fc.constantFrom('x', 'y', 'z', 'x'), { maxLength: 4 });
  const spec = fc.dictionary(fc.constantFrom(...fields), fc.oneof(value, members, fc.constantFrom<JsonValue>(...TIMES)), { maxKeys: fields.length });
  const how = fc.constantFrom('default', 'empty', 'reverse', 'time', 'drop', 'set', 'keep', 'keep');
  const edit = fc.record({ field: fc.constantFrom(...fields), how, to: value, pick: fc.nat() });
  return fc.record({ desired: spec, edits: fc.array(edit, { maxLength: 4 }), ignore: fc.array(fc.constantFrom(...fields, '*', 'a.b'), { maxLength: 2 }) }).map(({ desired, edits, ignore }) => {
    const live: JsonObject = { ...desired };
    for (const { field, how, to, pick } of edits) {
      const was = live[field];
      if (how === 'default') live[field] = (module.defaults as JsonObject)[field] ?? null;
      else if (how === 'empty') live[field] = [null, '', [], {}][pick % 4] as JsonValue;
      else if (how === 'reverse' && Array.isArray(was)) live[field] = [...was].reverse();
      // The same instant in another form, or another "no time".
      else if (how === 'time') live[field] = (INSTANT.includes(was as string) ? INSTANT[pick % 3] : TIMES[3 + (pick % 3)]) as JsonValue;
      else if (how === 'drop') delete live[field];
      else if (how === 'set') live[field] = to;
    }
    return { desired, live, ignore: ignore.map((p) => p.split('.')) };
  });
}

function inputOf(module: KindModule, desired: JsonObject, live: JsonObject, ignore: string[][]): CompareInput {
  return { module, desired, live, ignore, interpolated: [], secrets: { hashKey: '' } };
}

describe('the equal case without the walk', () => {
  it.each(FLAT.map((m, i) => [`${m.kind}${m === SYNTHETIC ? ' (synthetic)' : ''}`, i] as const))('%s: the shortcut says equal exactly when the walk finds nothing', (_label, i) => {
    const module = FLAT[i] as KindModule;
    const seen = { equal: 0, different: 0 };
    fc.assert(
      fc.property(specsOf(module), ({ desired, live, ignore }) => {
        const walked = walkedDifferences(inputOf(module, desired, live, ignore), live);
        const flatIgnore = ignore.every((p) => p.length === 1 && p[0] !== '*');
        const shortcut = equalWhenCompared(module, desired, live, ignore);
        if (shortcut) expect(walked).toEqual([]);
        if (flatIgnore) expect(shortcut).toBe(walked.length === 0);
        seen[walked.length === 0 ? 'equal' : 'different'] += 1;
      }),
      { numRuns: 400 },
    );
    // Both outcomes were met: the property was not held on one side only.
    expect(seen.equal).toBeGreaterThan(20);
    expect(seen.different).toBeGreaterThan(20);
  });

  it.each(NESTED)('%s (rules below the top level, or keyed arrays): never a shortcut, compareSpecs walks', (kind) => {
    const module = KINDS[kind];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('type', 'properties', 'dashboard', 'query'), value), (spec) => {
        expect(equalWhenCompared(module, spec, spec, [])).toBe(false);
        expect(compareSpecs(inputOf(module, spec, spec, [])).diffs).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it('cases: defaults, ignore-fields, computed, timestamps, sets', () => {
    const monitor = KINDS.Monitor;
    const live = { type: 'Threshold', description: '', disabled: false, threshold: 0, triggerFromNRuns: 1, intervalMinutes: 5, notifiers: ['a', 'b'], disabledUntil: '2026-01-01T00:00:00.000Z' };
    const equal = (desired: JsonObject, ignore: string[][] = [], l: JsonObject = live): boolean => equalWhenCompared(monitor, desired, l, ignore);
    // Defaults the file leaves out, a computed field it leaves out, a set in another order, an instant in another form.
    expect(equal({ type: 'Threshold', notifiers: ['b', 'a'], disabledUntil: '2026-01-01T01:00:00+01:00' })).toBe(true);
    // Drift from a default, and a computed field the file sets.
    expect(equal({ type: 'Threshold', notifiers: ['a', 'b'], disabledUntil: '2026-01-01T00:00:00Z', triggerFromNRuns: 2 })).toBe(false);
    expect(equal({ type: 'Threshold', notifiers: ['a', 'b'], disabledUntil: '2026-01-01T00:00:00Z', intervalMinutes: 10 })).toBe(false);
    // Ignored: the drift is tolerated; an empty list written for a computed field is compared.
    expect(equal({ type: 'Threshold', notifiers: ['a', 'b'], disabledUntil: '2026-01-01T00:00:00Z', intervalMinutes: 10 }, [['intervalMinutes']])).toBe(true);
    expect(equal({ type: 'Threshold', notifiers: ['a', 'b'], disabledUntil: '2026-01-01T00:00:00Z', rangeMinutes: [] }, [], { ...live, rangeMinutes: 5 })).toBe(false);
    // A pause that is no time on one side and absent on the other.
    expect(equal({ type: 'Threshold', notifiers: ['a', 'b'] }, [], { ...live, disabledUntil: '0001-01-01T00:00:00Z' })).toBe(true);
  });

  it('a secret field is never compared here: its value differs, the shortcut still says equal, and compareSpecs words it by hash', () => {
    const desired = { type: 'Threshold', token: 'new-secret' };
    const live = { type: 'Threshold', token: 'old-secret' };
    expect(equalWhenCompared(SYNTHETIC, desired, live, [])).toBe(true);
    const { diffs } = compareSpecs(inputOf(SYNTHETIC, desired, live, []));
    expect(diffs).toEqual([{ path: 'token', sensitive: true }]);
    expect(JSON.stringify(diffs)).not.toContain('secret');
  });
});
