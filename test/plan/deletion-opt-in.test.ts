// A kind whose deletion needs an opt-in (KindModule.deletionOptIn; Datasets will): prune leaves
// its objects alone, saying how to opt in, until the policy names the kind. The registry is
// given such a kind here; no kind of today needs it.
import { describe, expect, it, vi } from 'vitest';
import { changeOf, desiredOf, inventoryOf, liveOf, obj, owns, plan, policyOf } from './builders.js';

const { OPT_IN } = vi.hoisted(() => ({ OPT_IN: 'deleting a virtual field needs --allow-delete=VirtualField' }));

vi.mock('../../src/kinds/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/kinds/index.js')>();
  return { ...original, KINDS: { ...original.KINDS, VirtualField: { ...original.KINDS.VirtualField, deletionOptIn: OPT_IN } } };
});

const field = obj('VirtualField', { id: 'vfld_1', name: 'dur', dataset: 'http', expression: 'd / 1000' });
const pruneAll = { prune: true, maxDeleteRatio: 1, allowEmpty: true };

describe('deletion opt-in', () => {
  it('skips the delete of an owned object no longer declared, saying how to opt in', () => {
    const p = plan(desiredOf(), liveOf([field]), inventoryOf([owns(field, 'http/dur')]), policyOf(pruneAll));
    expect(changeOf(p, 'VirtualField', 'http/dur')).toMatchObject({
      action: 'skipped',
      id: 'vfld_1',
      owned: true,
      reason: `owned by wsync and no longer declared; not deleted: ${OPT_IN}`,
    });
    expect(p.summary.delete).toBe(0);
  });

  it('deletes once the policy opts in to the kind', () => {
    const p = plan(desiredOf(), liveOf([field]), inventoryOf([owns(field, 'http/dur')]), policyOf({ ...pruneAll, allowDeletion: ['VirtualField'] }));
    expect(changeOf(p, 'VirtualField', 'http/dur')).toMatchObject({ action: 'delete', reason: 'owned by wsync and no longer declared' });
  });

  it('leaves other kinds as they were', () => {
    const notifier = obj('Notifier', { id: 'notify_1', name: 'n', properties: { email: { emails: ['a@b.c'] } } });
    const p = plan(desiredOf(), liveOf([notifier]), inventoryOf([owns(notifier, 'n')]), policyOf(pruneAll));
    expect(changeOf(p, 'Notifier', 'n').action).toBe('delete');
  });
});
