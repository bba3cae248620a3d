import { describe, expect, it } from 'vitest';
import type { ApplyResult } from '../../src/apply/index.js';
import type { Action, Change, Plan } from '../../src/core/types.js';
import { changeCounts, countByKind, driftOf, isDrift, pendingDrift } from '../../src/daemon/summary.js';

function change(kind: Change['kind'], key: string, action: Action, diffs: Change['diffs'] = []): Change {
  return { kind, key, name: key, action, diffs, dependsOn: [], level: 0, owned: true };
}

function plan(changes: Change[]): Plan {
  return {
    version: 1,
    changes,
    diagnostics: [],
    refusals: [],
    summary: { create: 0, update: 0, replace: 0, delete: 0, adopt: 0, abandon: 0, noop: 0, skipped: 0, refused: 0 },
    fingerprint: { desired: '', live: '', desiredObjects: {}, liveObjects: {} },
  };
}

function result(events: ApplyResult['events']): ApplyResult {
  return {
    created: 1,
    updated: 2,
    replaced: 0,
    deleted: 3,
    adopted: 1,
    abandoned: 0,
    failed: 1,
    skipped: 0,
    unchanged: 4,
    writes: 8,
    durationMs: 10,
    aborted: false,
    events,
  };
}

describe('drift', () => {
  const changes = [
    change('Monitor', 'a', 'noop'),
    change('Monitor', 'b', 'update', [{ path: 'threshold', before: 1, after: 2 }]),
    change('Notifier', 'c', 'create'),
    // observe mode: what would have been written is skipped, with its diffs
    change('Monitor', 'd', 'skipped', [{ path: 'threshold', before: 1, after: 3 }]),
    // a dependency failed: nothing to show, not drift
    change('Monitor', 'e', 'skipped'),
  ];

  it('counts every change that would write, and skipped changes with diffs', () => {
    expect(changes.map(isDrift)).toEqual([false, true, true, true, false]);
    expect(driftOf(plan(changes)).map((c) => c.key)).toEqual(['b', 'c', 'd']);
  });

  it('leaves pending what apply did not do', () => {
    const pending = pendingDrift(
      plan(changes),
      result([
        { kind: 'Monitor', key: 'b', action: 'update', outcome: 'done', durationMs: 1 },
        { kind: 'Notifier', key: 'c', action: 'create', outcome: 'failed', message: 'boom', durationMs: 1 },
      ]),
      (text) => text,
    );
    expect(pending.map((p) => `${p.kind}/${p.key}`)).toEqual(['Notifier/c', 'Monitor/d']);
    expect(countByKind(pending)).toEqual(new Map([['Notifier', 1], ['Monitor', 1]]));
    // Without an apply (observe mode), all drift is pending.
    expect(pendingDrift(plan(changes), undefined, (text) => text)).toHaveLength(3);
    // Keys and reasons go through the redaction.
    expect(pendingDrift(plan(changes), undefined, (text) => text.replace('c', '(sensitive)')).map((p) => p.key)).toEqual(['b', '(sensitive)', 'd']);
  });

  it('reads change counts from the apply result, zeros without one', () => {
    expect(changeCounts(undefined)).toEqual({ created: 0, updated: 0, deleted: 0, replaced: 0, adopted: 0, failed: 0, skipped: 0, writes: 0 });
    expect(changeCounts(result([]))).toMatchObject({ created: 1, updated: 2, deleted: 3, adopted: 1, failed: 1, writes: 8 });
  });
});
