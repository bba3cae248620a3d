import { describe, expect, it } from 'vitest';
import type { LiveObject } from '../../src/core/types.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

const monitors = (n: number, prefix = 'm'): LiveObject[] =>
  Array.from({ length: n }, (_, i) => wire.monitor(`mon_${prefix}${i}`, `${prefix}${i}`, { type: 'MatchEvent', aplQuery: 'q' }));
const declare = (name: string) => resource('Monitor', name, { type: 'MatchEvent', aplQuery: 'q' });

describe('ownership and prune', () => {
  const [a, b] = monitors(2);
  // The budget is not what these cases are about.
  const open = { maxDeleteRatio: 1 };

  it.each([
    ['prune off: an owned undeclared object is kept', policyOf({ ...open, prune: false }), [owns(b!, 'm1')], undefined, 'no longer declared: kept, --prune deletes it'],
    ['prune on: an owned undeclared object is deleted', policyOf({ ...open, prune: true }), [owns(b!, 'm1')], 'owned by wsync and no longer declared'],
    ['prune on, but wsync/prune: disabled when last applied', policyOf({ ...open, prune: true }), [owns(b!, 'm1', { pruneDisabled: true })], undefined, 'no longer declared: kept, it carries wsync/prune: disabled'],
    ['prune on: an unowned undeclared object is never deleted', policyOf({ ...open, prune: true }), [], undefined],
    ['--prune=all:Monitor: an unowned undeclared object is deleted', policyOf({ ...open, pruneAll: ['Monitor'] }), [], 'not declared and Monitor is authoritative (--prune=all:Monitor)'],
    ['--prune=all:Monitor: an owned undeclared object is deleted too', policyOf({ ...open, pruneAll: ['Monitor'] }), [owns(b!, 'm1')], 'owned by wsync and no longer declared'],
    ['--prune=all:Notifier does not make monitors authoritative', policyOf({ ...open, pruneAll: ['Notifier'] }), [], undefined],
  ])('%s', (_label, policy, entries, reason, kept?: string) => {
    const p = plan(desiredOf(declare('m0')), liveOf([a!, b!]), inventoryOf([owns(a!, 'm0'), ...entries]), policy);
    const deletes = p.changes.filter((c) => c.action === 'delete');
    if (reason === undefined) {
      expect(deletes).toEqual([]);
      // An owned object is shown, kept; one wsync does not own is not wsync's business.
      if (kept === undefined) expect(p.changes).toHaveLength(1);
      else expect(changeOf(p, 'Monitor', 'm1')).toMatchObject({ action: 'skipped', id: 'mon_m1', owned: true, reason: kept });
    } else {
      expect(deletes).toEqual([expect.objectContaining({ kind: 'Monitor', key: 'm1', id: 'mon_m1', reason })]);
    }
  });

  it('inventory entries whose object is gone are ignored', () => {
    const p = plan(desiredOf(), liveOf([]), inventoryOf([{ kind: 'Monitor', key: 'gone', id: 'mon_gone' }]), policyOf({ prune: true }));
    expect(p.changes).toEqual([]);
  });

  it('ownership is by id: a same-key object recreated by hand is adopted, not updated', () => {
    const p = plan(desiredOf(declare('m0')), liveOf([a!]), inventoryOf([{ kind: 'Monitor', key: 'm0', id: 'mon_old' }]));
    expect(changeOf(p, 'Monitor', 'm0').action).toBe('adopt');
  });
});

describe('ambiguity', () => {
  const one = wire.monitor('mon_1', 'dup', { type: 'MatchEvent', aplQuery: 'q' });
  const two = wire.monitor('mon_2', 'dup', { type: 'MatchEvent', aplQuery: 'other' });

  it('declared: one skipped change naming both ids, a warning, nothing touched', () => {
    const p = plan(desiredOf(declare('dup')), liveOf([one, two]), inventoryOf([owns(one, 'dup')]));
    expect(p.changes).toEqual([
      expect.objectContaining({ action: 'skipped', reason: 'ambiguous: 2 live objects have this key (ids mon_1, mon_2); resolve by hand' }),
    ]);
    expect(p.changes[0]?.id).toBeUndefined();
    expect(p.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'ambiguous' })]);
  });

  it('undeclared and prunable: reported, not deleted', () => {
    const p = plan(desiredOf(), liveOf([one, two, ...monitors(10)]), inventoryOf([owns(one, 'dup')]), policyOf({ prune: true, allowEmpty: true }));
    expect(p.changes).toEqual([expect.objectContaining({ action: 'skipped', key: 'dup' })]);
    expect(p.summary.delete).toBe(0);
  });

  it('undeclared and not prunable: not mentioned at all', () => {
    expect(plan(desiredOf(), liveOf([one, two])).changes).toEqual([]);
  });
});

describe('delete budget and empty desired sets', () => {
  const live = monitors(20);
  const owned = live.map((m, i) => owns(m, `m${i}`));
  const keep = (n: number) => Array.from({ length: n }, (_, i) => declare(`m${i}`));

  it('within budget: deletes stand', () => {
    const p = plan(desiredOf(...keep(16)), liveOf(live), inventoryOf(owned), policyOf({ prune: true }));
    expect(p.summary.delete).toBe(4);
    expect(p.refusals).toEqual([]);
  });

  it('more than --max-deletes: every delete refused, one sentence naming the numbers and the flags', () => {
    const p = plan(desiredOf(...keep(14)), liveOf(live), inventoryOf(owned), policyOf({ prune: true, maxDeletes: 5, maxDeleteRatio: 1 }));
    expect(p.summary).toMatchObject({ delete: 0, refused: 6 });
    expect(p.refusals).toEqual([
      'Refusing to delete 6 objects: more than --max-deletes 5. Re-run with --force-deletes to delete them anyway, or raise --max-deletes.',
    ]);
    for (const c of p.changes.filter((x) => x.action === 'refused')) {
      expect(c.reason).toBe('owned by wsync and no longer declared; held: over the delete budget');
    }
  });

  it('more than --max-delete-ratio of a kind: refused with the ratio', () => {
    const p = plan(desiredOf(...keep(10)), liveOf(live), inventoryOf(owned), policyOf({ prune: true, maxDeletes: 100 }));
    expect(p.refusals).toEqual([
      'Refusing to delete 10 of 20 live Monitor objects (50%): more than --max-delete-ratio 0.25. Re-run with --force-deletes to delete them anyway, or raise --max-delete-ratio.',
    ]);
    expect(p.summary.refused).toBe(10);
  });

  it('a kind of at most 5 owned objects may lose one whatever the ratio; two, or a sixth owned object, and the ratio counts', () => {
    const three = live.slice(0, 3);
    const of3 = plan(desiredOf(...keep(2)), liveOf(three), inventoryOf(owned.slice(0, 3)), policyOf({ prune: true }));
    expect(of3.refusals).toEqual([]);
    expect(of3.summary).toMatchObject({ delete: 1, refused: 0 });
    const twoOf5 = plan(desiredOf(...keep(3)), liveOf(live.slice(0, 5)), inventoryOf(owned.slice(0, 5)), policyOf({ prune: true }));
    expect(twoOf5.summary).toMatchObject({ delete: 0, refused: 2 });
    const oneOf6 = plan(desiredOf(...keep(5)), liveOf(live.slice(0, 6)), inventoryOf(owned.slice(0, 6)), policyOf({ prune: true, maxDeleteRatio: 0.1 }));
    expect(oneOf6.refusals).toEqual([expect.stringContaining('Refusing to delete 1 of 6 live Monitor objects (17%)')]);
    // The absolute budget still counts the one delete.
    const noBudget = plan(desiredOf(...keep(2)), liveOf(three), inventoryOf(owned.slice(0, 3)), policyOf({ prune: true, maxDeletes: 0 }));
    expect(noBudget.summary).toMatchObject({ delete: 0, refused: 1 });
  });

  it('--force-deletes lets an over-budget plan through', () => {
    const p = plan(desiredOf(...keep(10)), liveOf(live), inventoryOf(owned), policyOf({ prune: true, allowOverBudget: true }));
    expect(p.refusals).toEqual([]);
    expect(p.summary.delete).toBe(10);
  });

  it('no resource of a kind declared while owned ones exist: refused unless --allow-empty', () => {
    const small = monitors(2);
    const inv = inventoryOf(small.map((m, i) => owns(m, `m${i}`)));
    const refused = plan(desiredOf(), liveOf(small), inv, policyOf({ prune: true, allowOverBudget: true }));
    expect(refused.refusals).toEqual([
      'Refusing to delete every owned Monitor: no Monitor is declared, and 2 owned Monitor objects exist live. If the files really should declare none, re-run with --allow-empty.',
    ]);
    expect(refused.summary).toMatchObject({ delete: 0, refused: 2 });
    const allowed = plan(desiredOf(), liveOf(small), inv, policyOf({ prune: true, allowOverBudget: true, allowEmpty: true }));
    expect(allowed.summary.delete).toBe(2);
    expect(allowed.refusals).toEqual([]);
  });

  it('a refused plan still lists everything else', () => {
    const p = plan(desiredOf(...keep(10), declare('new')), liveOf(live), inventoryOf(owned), policyOf({ prune: true }));
    expect(p.summary).toMatchObject({ create: 1, noop: 10, refused: 10 });
  });
});
