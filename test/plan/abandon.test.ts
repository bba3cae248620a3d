import { describe, expect, it } from 'vitest';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

const ABANDON = { 'wsync/mode': 'abandon' };
const live = wire.monitor('mon_1', 'errors', { type: 'MatchEvent', aplQuery: 'q', threshold: 5 });
// The file says something else than the live object: an abandoned object is never compared or written.
const declared = resource('Monitor', 'errors', { type: 'MatchEvent', aplQuery: 'other' }, { annotations: ABANDON });

describe('wsync/mode: abandon', () => {
  it('an owned live object is abandoned: no write, it leaves the inventory and stays live', () => {
    const p = plan(desiredOf(declared), liveOf([live]), inventoryOf([owns(live, 'errors')]));
    expect(changeOf(p, 'Monitor', 'errors')).toMatchObject({ action: 'abandon', id: 'mon_1', owned: true, diffs: [] });
    expect(changeOf(p, 'Monitor', 'errors').reason).toContain('stays live, no longer owned');
    expect(p.summary.abandon).toBe(1);
    expect(p.summary.update).toBe(0);
  });

  it('an object wsync does not own is left as it is: not adopted, not written', () => {
    const p = plan(desiredOf(declared), liveOf([live]), inventoryOf());
    expect(changeOf(p, 'Monitor', 'errors')).toMatchObject({ action: 'noop', id: 'mon_1', owned: false });
    expect(changeOf(p, 'Monitor', 'errors').reason).toContain('not owned by wsync');
  });

  it('an object that is not live is never created', () => {
    const p = plan(desiredOf(declared), liveOf([]), inventoryOf());
    expect(changeOf(p, 'Monitor', 'errors')).toMatchObject({ action: 'noop' });
    expect(p.summary.create).toBe(0);
  });

  it('observe mode reports what it would abandon and abandons nothing', () => {
    const p = plan(desiredOf(declared), liveOf([live]), inventoryOf([owns(live, 'errors')]), policyOf({ mode: 'observe' }));
    expect(changeOf(p, 'Monitor', 'errors')).toMatchObject({ action: 'skipped', id: 'mon_1' });
    expect(changeOf(p, 'Monitor', 'errors').reason).toContain('would abandon');
  });

  it('its references are not checked: it is no longer written', () => {
    const withNotifier = resource('Monitor', 'errors', { type: 'MatchEvent', aplQuery: 'q', notifiers: ['gone'] }, { annotations: ABANDON });
    const p = plan(desiredOf(withNotifier), liveOf([live]), inventoryOf([owns(live, 'errors')]));
    expect(p.diagnostics).toEqual([]);
  });

  it('once abandoned (not owned), removing the declaration deletes nothing, even with --prune', () => {
    const p = plan(desiredOf(), liveOf([live]), inventoryOf(), policyOf({ prune: true, allowEmpty: true, maxDeleteRatio: 1 }));
    expect(p.changes).toEqual([]);
  });
});
