// Scheduling, with plain values: levels, dependency order, bounded concurrency, and what a change
// learns from the changes it depends on.
import { describe, expect, it } from 'vitest';
import { groupByLevel, orderByDependencies, runBounded, Schedule } from '../../src/apply/schedule.js';
import type { Change, KindName } from '../../src/core/types.js';

function change(kind: KindName, key: string, level: number, dependsOn: string[] = []): Change {
  return { kind, key, name: key, action: 'create', diffs: [], dependsOn, level, owned: false };
}

const keys = (changes: Change[]): string[] => changes.map((c) => `${c.kind}/${c.key}`);

describe('scheduling', () => {
  it('groups by level, ascending for writes and descending for deletes', () => {
    const changes = [change('Monitor', 'm', 2), change('Role', 'r', 0), change('User', 'u', 1), change('Notifier', 'n', 0)];
    expect(groupByLevel(changes, 'ascending').map(keys)).toEqual([['Role/r', 'Notifier/n'], ['User/u'], ['Monitor/m']]);
    expect(groupByLevel(changes, 'descending').map(keys)).toEqual([['Monitor/m'], ['User/u'], ['Role/r', 'Notifier/n']]);
  });

  it('puts a change after the changes of its level it depends on, and survives a cycle', () => {
    const a = change('Monitor', 'a', 2, ['Monitor/b']);
    const b = change('Monitor', 'b', 2, ['Monitor/c']);
    const c = change('Monitor', 'c', 2);
    expect(keys(orderByDependencies([a, b, c]))).toEqual(['Monitor/c', 'Monitor/b', 'Monitor/a']);
    const x = change('Monitor', 'x', 2, ['Monitor/y']);
    const y = change('Monitor', 'y', 2, ['Monitor/x']);
    expect(keys(orderByDependencies([x, y])).sort()).toEqual(['Monitor/x', 'Monitor/y']);
  });

  it('runs at most `concurrency` at once, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const startedOrder: number[] = [];
    const release: (() => void)[] = [];
    const done = runBounded([0, 1, 2, 3, 4], 2, async (item) => {
      startedOrder.push(item);
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running--;
    });
    while (startedOrder.length < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      release.shift()?.();
    }
    release.forEach((resolve) => resolve());
    await done;
    expect(most).toBe(2);
    expect(startedOrder).toEqual([0, 1, 2, 3, 4]);
  });

  it('tells a change that a dependency failed, was skipped, or comes after it', async () => {
    const notifier = change('Notifier', 'n', 0);
    const skippedNotifier = change('Notifier', 's', 0);
    const needsFailed = change('Monitor', 'm1', 2, ['Notifier/n']);
    const needsSkipped = change('Monitor', 'm2', 2, ['Notifier/s']);
    const needsLater = change('Monitor', 'm3', 2, ['Monitor/m4']);
    const later = change('Monitor', 'm4', 2);
    const free = change('Monitor', 'm5', 2, ['Role/not-in-this-plan']);
    const schedule = new Schedule([notifier, skippedNotifier, needsFailed, needsSkipped, needsLater, later, free], 4);

    expect(await schedule.waitForDependencies(notifier)).toBeUndefined();
    expect(await schedule.waitForDependencies(skippedNotifier)).toBeUndefined();
    schedule.settle(notifier, 'failed');
    schedule.settle(skippedNotifier, 'skipped');
    expect(await schedule.waitForDependencies(needsFailed)).toEqual({ outcome: 'skipped', message: 'depends on Notifier/n, which failed' });
    expect(await schedule.waitForDependencies(needsSkipped)).toEqual({ outcome: 'skipped', message: 'depends on Notifier/s, which was skipped' });
    expect(await schedule.waitForDependencies(needsLater)).toEqual({
      outcome: 'failed',
      message: 'depends on Monitor/m4, which the plan orders after it',
    });
    expect(await schedule.waitForDependencies(free)).toBeUndefined();
    expect(await schedule.outcomeOf(notifier)).toBe('failed');
  });
});
