// Deleting a dataset deletes its data: prune leaves datasets alone unless --allow-delete Dataset
// is given, and then the delete carries a loud warning, under the same delete budget as the rest.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, wire } from './builders.js';

const old = wire.dataset('old-logs');
const live = liveOf([old, wire.dataset('http'), wire.dataset('checkout'), wire.dataset('payments')]);
const owned = inventoryOf([owns(old, 'old-logs')]);

describe('dataset deletion', () => {
  it('is declared by the kind module: an opt-in and a warning', () => {
    expect(KINDS.Dataset.deletionOptIn).toBe('deleting a dataset deletes all of its data; re-run with --allow-delete Dataset to delete it');
    expect(KINDS.Dataset.deletionWarning).toMatch(/^DELETES THE DATASET AND ALL OF ITS DATA/);
  });

  it('--prune alone skips it, saying how to opt in', () => {
    const p = plan(desiredOf(), live, owned, policyOf({ prune: true, allowEmpty: true }));
    expect(changeOf(p, 'Dataset', 'old-logs')).toMatchObject({
      action: 'skipped',
      reason: 'owned by wsync and no longer declared; not deleted: deleting a dataset deletes all of its data; re-run with --allow-delete Dataset to delete it',
    });
    expect(changeOf(p, 'Dataset', 'old-logs').warning).toBeUndefined();
    expect(p.summary.delete).toBe(0);
  });

  it('--prune=all:Dataset alone does not delete unowned datasets either', () => {
    const p = plan(desiredOf(), live, inventoryOf(), policyOf({ prune: true, pruneAll: ['Dataset'], maxDeleteRatio: 1 }));
    expect(p.changes.map((c) => c.action)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
  });

  it('with the opt-in, the delete carries the warning', () => {
    const p = plan(desiredOf(), live, owned, policyOf({ prune: true, allowEmpty: true, allowDeletion: ['Dataset'] }));
    expect(changeOf(p, 'Dataset', 'old-logs')).toMatchObject({
      action: 'delete',
      reason: 'owned by wsync and no longer declared',
      warning: KINDS.Dataset.deletionWarning,
    });
  });

  it('the delete budget still applies: a refused delete keeps its warning', () => {
    // One of a kind this small is within the ratio's floor; the absolute budget holds all the same.
    const p = plan(desiredOf(), liveOf([old]), owned, policyOf({ prune: true, allowEmpty: true, allowDeletion: ['Dataset'], maxDeletes: 0 }));
    expect(changeOf(p, 'Dataset', 'old-logs')).toMatchObject({ action: 'refused', warning: KINDS.Dataset.deletionWarning });
    expect(p.refusals).toEqual([expect.stringContaining('Refusing to delete 1 object: more than --max-deletes 0')]);
  });

  it('no other kind needs an opt-in or carries a warning', () => {
    for (const module of Object.values(KINDS)) {
      if (module.kind === 'Dataset') continue;
      expect(module.deletionOptIn, module.kind).toBeUndefined();
      expect(module.deletionWarning, module.kind).toBeUndefined();
    }
  });
});
