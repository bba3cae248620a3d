// The base of a change (plan --base), with plain values: what the base declares and the change
// removes is planned as the change's deletes, under the daemon's --prune and delete budget.
import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/core/types.js';
import { planChanges, removedByChange, type BaseRemovals } from '../../src/plan/index.js';
import { renderMarkdown, renderText } from '../../src/render/index.js';
import { changeOf, desiredOf, inventoryOf, liveOf, obj, owns, policyOf, resource, wire } from '../plan/builders.js';

const notifier = (id: string, name: string) => wire.notifier(id, name, { email: { emails: ['sre@example.com'] } });
const monitorSpec = { type: 'MatchEvent', aplQuery: "['http'] | where status >= 500" };
const monitor = (id: string, name: string, notifierIds: string[] = []) => wire.monitor(id, name, { type: 'MatchEvent', aplQuery: monitorSpec.aplQuery, notifierIds });
const removals = (...resources: { kind: 'Monitor' | 'Notifier'; key: string; pruneDisabled?: boolean }[]): BaseRemovals => ({
  label: 'the base (main)',
  resources: resources.map((r) => ({ pruneDisabled: false, ...r })),
});

describe('removedByChange', () => {
  it('keeps what the base declares and the head does not', () => {
    const base = [
      { kind: 'Monitor' as const, key: 'a', pruneDisabled: false },
      { kind: 'Monitor' as const, key: 'b', pruneDisabled: true },
      { kind: 'Notifier' as const, key: 'a', pruneDisabled: false },
    ];
    expect(removedByChange(base, [{ kind: 'Monitor', key: 'a' }])).toEqual(base.slice(1));
  });
});

describe('planning with the base', () => {
  const live = liveOf([monitor('mon_a', 'a'), monitor('mon_b', 'b'), monitor('mon_c', 'c'), monitor('mon_d', 'd'), notifier('notify_n', 'n')]);
  const head = desiredOf(resource('Monitor', 'a', monitorSpec), resource('Monitor', 'c', monitorSpec), resource('Monitor', 'd', monitorSpec));

  it('deletes, with --prune, what the change removes, though no inventory owns it, marked as the change\'s', () => {
    const made = planChanges(head, live, inventoryOf(), policyOf({ prune: true, maxDeleteRatio: 1 }), { removals: removals({ kind: 'Monitor', key: 'b' }) });
    const b = changeOf(made, 'Monitor', 'b');
    expect(b).toMatchObject({ action: 'delete', id: 'mon_b', owned: true, removedByChange: true, reason: 'declared in the base (main) and removed by this change' });
    // What the head still declares is adopted quietly, as without a base; nothing else is deleted.
    expect(made.changes.filter((c) => c.action === 'delete')).toEqual([b]);
    expect(made.summary.delete).toBe(1);
  });

  it('shows it kept, and why, without --prune or when the base opts it out of pruning', () => {
    const off = planChanges(head, live, inventoryOf(), policyOf(), { removals: removals({ kind: 'Monitor', key: 'b' }) });
    expect(changeOf(off, 'Monitor', 'b')).toMatchObject({ action: 'skipped', removedByChange: true, reason: 'removed by this change; not deleted: prune is off (--prune deletes it)' });
    const disabled = planChanges(head, live, inventoryOf(), policyOf({ prune: true }), { removals: removals({ kind: 'Monitor', key: 'b', pruneDisabled: true }) });
    expect(changeOf(disabled, 'Monitor', 'b')).toMatchObject({ action: 'skipped', reason: 'removed by this change; not deleted: it carries wsync/prune: disabled' });
  });

  it('applies the delete budget, as the daemon would', () => {
    const removed = removals({ kind: 'Monitor', key: 'b' }, { kind: 'Monitor', key: 'c' }, { kind: 'Monitor', key: 'd' });
    const few = desiredOf(resource('Monitor', 'a', monitorSpec));
    const made = planChanges(few, live, inventoryOf(), policyOf({ prune: true, maxDeletes: 2 }), { removals: removed });
    expect(made.refusals.join('\n')).toMatch(/Refusing to delete 3 objects: more than --max-deletes 2/);
    expect(made.changes.filter((c) => c.removedByChange).map((c) => c.action)).toEqual(['refused', 'refused', 'refused']);
  });

  it('plans nothing for what the change removes but does not exist live', () => {
    const made = planChanges(head, live, inventoryOf(), policyOf({ prune: true }), { removals: removals({ kind: 'Monitor', key: 'gone' }) });
    expect(made.changes.some((c) => c.key === 'gone')).toBe(false);
  });

  it('still refuses to delete what the head still references', () => {
    const withRef = liveOf([monitor('mon_a', 'a', ['notify_n']), notifier('notify_n', 'n')]);
    const refs = desiredOf(resource('Monitor', 'a', { ...monitorSpec, notifiers: ['n'] }));
    const made = planChanges(refs, withRef, inventoryOf(), policyOf({ prune: true, maxDeleteRatio: 1, allowEmpty: true }), { removals: removals({ kind: 'Notifier', key: 'n' }) });
    expect(changeOf(made, 'Notifier', 'n').action).toBe('delete');
    expect(made.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('\n')).toMatch(/"n"/);
  });

  it('tells the change\'s deletes apart from other deletes (drift of the local inventory)', () => {
    const drifted = obj('Notifier', { id: 'notify_n', name: 'n', properties: { email: { emails: ['x@example.com'] } } });
    const made = planChanges(head, live, inventoryOf([owns(drifted, 'n')]), policyOf({ prune: true, maxDeleteRatio: 1, allowEmpty: true }), {
      removals: removals({ kind: 'Monitor', key: 'b' }),
    });
    const deletes = made.changes.filter((c) => c.action === 'delete');
    expect(deletes.map((c: Change) => [c.kind, c.key, c.removedByChange === true])).toEqual([
      ['Monitor', 'b', true],
      ['Notifier', 'n', false],
    ]);
    const md = renderMarkdown(made);
    expect(md).toContain('#### :wastebasket: Removed by this change (1)\n\nDeclared in the base and no longer in the files: what merging deletes.\n\n- **delete** `Monitor/b` (id `mon_b`) — declared in the base (main) and removed by this change\n');
    expect(md).toContain('#### Other deletes (1)\n\n- **delete** `Notifier/n` (id `notify_n`) — owned by wsync and no longer declared\n');
    expect(renderText(made, { color: false })).toContain('  - delete  Monitor/b (id mon_b)\n        # declared in the base (main) and removed by this change\n');
  });
});
