// Subset plans (--target, --kind) with plain values: only the selected resources are planned, their
// references are still checked, and nothing is pruned.
import { describe, expect, it } from 'vitest';
import { planChanges, type Selection } from '../../src/plan/index.js';
import { desiredOf, inventoryOf, liveOf, owns, policyOf, resource, wire } from '../plan/builders.js';

const query = { type: 'MatchEvent', aplQuery: "['http'] | where status >= 500" };
const email = { properties: { email: { emails: ['sre@example.com'] } } };
const desired = desiredOf(
  resource('Notifier', 'oncall', email),
  resource('Notifier', 'team-live', email),
  resource('Monitor', 'errors', { ...query, notifiers: ['oncall'] }),
  resource('Monitor', 'latency', { ...query, notifiers: ['team-live'] }),
  resource('Monitor', 'errors-eu', query),
);
const teamLive = wire.notifier('notify_t', 'team-live', email.properties);
const orphan = wire.monitor('mon_old', 'old', { type: 'MatchEvent', aplQuery: query.aplQuery });
const live = liveOf([teamLive, orphan]);
const inventory = inventoryOf([owns(orphan, 'old')]);
const select = (targets: [string, string][], kinds: ('Monitor' | 'Notifier')[] = []): Selection => ({
  targets: targets.map(([kind, name]) => ({ kind: kind as 'Monitor', name, text: `${kind}/${name}` })),
  kinds,
});
const planned = (selection: Selection) => planChanges(desired, live, inventory, policyOf({ prune: true, maxDeleteRatio: 1, allowEmpty: true }), { selection });
const refs = (selection: Selection) => planned(selection).changes.map((c) => `${c.action} ${c.kind}/${c.key}`);

describe('a subset plan', () => {
  it('plans only the targets, and prunes nothing though --prune is on', () => {
    expect(refs(select([['Monitor', 'errors-eu']]))).toEqual(['create Monitor/errors-eu']);
    // Without a selection the same policy deletes the owned, undeclared monitor.
    expect(planChanges(desired, live, inventory, policyOf({ prune: true, maxDeleteRatio: 1 })).changes.some((c) => c.action === 'delete')).toBe(true);
  });

  it('takes globs on the name, and whole kinds', () => {
    expect(refs(select([['Monitor', 'errors*']])).sort()).toEqual(['create Monitor/errors', 'create Monitor/errors-eu']);
    expect(refs(select([], ['Notifier'])).sort()).toEqual(['adopt Notifier/team-live', 'create Notifier/oncall']);
    expect(refs(select([['Monitor', 'err?rs']], ['Notifier'])).sort()).toEqual(['adopt Notifier/team-live', 'create Monitor/errors', 'create Notifier/oncall']);
  });

  it('refuses a target whose reference is declared, not selected and not live', () => {
    const made = planned(select([['Monitor', 'errors']]));
    expect(made.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.kind}/${d.name} ${d.message}`)).toEqual([
      'unselected-reference Monitor/errors spec.notifiers[0]: Notifier "oncall" is declared but not selected (--target, --kind) and does not exist live yet, so this cannot be applied without it: select it too (--target Notifier/oncall)',
    ]);
  });

  it('lets a target refer to what exists live, and orders it after a selected dependency', () => {
    expect(planned(select([['Monitor', 'latency']])).diagnostics).toEqual([]);
    const both = planned(select([['Monitor', 'errors'], ['Notifier', 'oncall']]));
    expect(both.diagnostics).toEqual([]);
    expect(both.changes.find((c) => c.key === 'errors')?.dependsOn).toEqual(['Notifier/oncall']);
  });

  it('says so when a target or kind selects nothing', () => {
    const made = planChanges(desired, live, inventory, policyOf(), { selection: { targets: [{ kind: 'Monitor', name: 'nope*', text: 'Monitor/nope*' }], kinds: ['User'] } });
    expect(made.diagnostics.map((d) => d.message)).toEqual(['--kind User: no User is declared', '--target Monitor/nope* matches no declared resource']);
    expect(made.changes).toEqual([]);
  });
});
