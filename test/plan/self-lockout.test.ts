import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/plan/index.js';
import { PlanMemo } from '../../src/plan/plan-memo.js';
import type { SelfIdentity } from '../../src/plan/index.js';
import type { Desired, Inventory, LiveState, Policy } from '../../src/core/types.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, policyOf, resource, wire } from './builders.js';

const ci = wire.token('tok_ci', 'ci');
const other = wire.token('tok_other', 'other');
const SELF: SelfIdentity = { tokenIds: { ids: ['tok_ci'], how: '--self-token-id' } };
const prune = policyOf({ prune: true, maxDeleteRatio: 1, allowEmpty: true });

function plan(desired: Desired, live: LiveState, inventory: Inventory, policy: Policy, self?: SelfIdentity) {
  return planChanges(desired, live, inventory, policy, self ? { self } : {});
}

describe('the API token wsync runs with', () => {
  it('is never deleted: the delete is held, with a refusal that names --allow-self-lockout', () => {
    const p = plan(desiredOf(), liveOf([ci, other]), inventoryOf([owns(ci, 'ci'), owns(other, 'other')]), prune, SELF);
    expect(changeOf(p, 'ApiToken', 'ci')).toMatchObject({ action: 'refused' });
    expect(changeOf(p, 'ApiToken', 'ci').reason).toContain('held: self-lockout: it is the API token wsync runs with (--self-token-id)');
    expect(changeOf(p, 'ApiToken', 'ci').heldFrom).toBeUndefined();
    expect(changeOf(p, 'ApiToken', 'other').action).toBe('delete');
    expect(p.refusals).toEqual([
      'Refusing to delete ApiToken/ci (id tok_ci): it is the API token wsync runs with (--self-token-id), so wsync would lock itself out. ' +
        'Re-run with --allow-self-lockout if that is what you want.',
    ]);
  });

  it('is never regenerated (a missing secret, a changed spec)', () => {
    const declared = resource('ApiToken', 'ci', { description: 'new' });
    const p = planChanges(desiredOf(declared), liveOf([ci]), inventoryOf([owns(ci, 'ci')]), policyOf(), { self: SELF, heldSecrets: new Set(['ApiToken/ci']) });
    expect(changeOf(p, 'ApiToken', 'ci').action).toBe('refused');
    expect(p.refusals[0]).toContain('Refusing to regenerate ApiToken/ci (id tok_ci)');
  });

  it('--allow-self-lockout lets it through', () => {
    const p = plan(desiredOf(), liveOf([ci]), inventoryOf([owns(ci, 'ci')]), policyOf({ ...prune, allowSelfLockout: true }), SELF);
    expect(changeOf(p, 'ApiToken', 'ci').action).toBe('delete');
    expect(p.refusals).toEqual([]);
  });

  it('an approval of the held fingerprint does not let it through', () => {
    const budget = policyOf({ prune: true, maxDeletes: 0, allowEmpty: true, maxDeleteRatio: 1 });
    const first = plan(desiredOf(), liveOf([ci]), inventoryOf([owns(ci, 'ci')]), budget, SELF);
    const approve = first.held?.fingerprint;
    const p = planChanges(desiredOf(), liveOf([ci]), inventoryOf([owns(ci, 'ci')]), budget, { self: SELF, ...(approve ? { approve } : {}) });
    expect(changeOf(p, 'ApiToken', 'ci').action).toBe('refused');
    expect(p.refusals.some((r) => r.includes('it is the API token wsync runs with'))).toBe(true);
  });

  it('without knowing which token is calling, nothing is held for it', () => {
    const p = plan(desiredOf(), liveOf([ci]), inventoryOf([owns(ci, 'ci')]), prune);
    expect(changeOf(p, 'ApiToken', 'ci').action).toBe('delete');
  });
});

describe('users', () => {
  const owner = wire.user('usr_a', 'a@example.com', 'A', { id: 'owner', name: 'Owner' });
  const admin = wire.user('usr_b', 'b@example.com', 'B', { id: 'admin', name: 'Admin' });
  const declare = (email: string, role: string) => resource('User', email, { name: email[0]?.toUpperCase() ?? '', role });

  it('the last owner is never demoted', () => {
    const p = plan(desiredOf(declare('a@example.com', 'admin'), declare('b@example.com', 'admin')), liveOf([owner, admin]), inventoryOf([owns(owner, 'a@example.com'), owns(admin, 'b@example.com')]), policyOf());
    expect(changeOf(p, 'User', 'a@example.com').action).toBe('refused');
    expect(p.refusals).toEqual(['Refusing User/a@example.com: no user of the organization would keep the owner role. Re-run with --allow-self-lockout if that is what you want.']);
  });

  it('the last owner is never deleted, but one owner of two may go', () => {
    const p = plan(desiredOf(declare('b@example.com', 'admin')), liveOf([owner, admin]), inventoryOf([owns(owner, 'a@example.com'), owns(admin, 'b@example.com')]), prune);
    expect(changeOf(p, 'User', 'a@example.com').action).toBe('refused');
    const second = wire.user('usr_c', 'c@example.com', 'C', { id: 'owner', name: 'Owner' });
    const q = plan(desiredOf(declare('b@example.com', 'admin'), declare('c@example.com', 'owner')), liveOf([owner, admin, second]), inventoryOf([owns(owner, 'a@example.com'), owns(admin, 'b@example.com'), owns(second, 'c@example.com')]), prune);
    expect(changeOf(q, 'User', 'a@example.com').action).toBe('delete');
    expect(q.refusals).toEqual([]);
  });

  it('a promotion in the same plan does not count: promote in one apply, demote in the next', () => {
    const p = plan(desiredOf(declare('a@example.com', 'admin'), declare('b@example.com', 'owner')), liveOf([owner, admin]), inventoryOf([owns(owner, 'a@example.com'), owns(admin, 'b@example.com')]), policyOf());
    // The two updates run side by side: if the promotion failed, nobody would be owner.
    expect(changeOf(p, 'User', 'a@example.com').action).toBe('refused');
    expect(changeOf(p, 'User', 'b@example.com').action).toBe('update');
  });

  it('an edit the daemon plans from its memo still holds the last owner', () => {
    const memo = new PlanMemo();
    const live = liveOf([owner, admin]);
    const inventory = inventoryOf([owns(owner, 'a@example.com'), owns(admin, 'b@example.com')]);
    const policy = policyOf();
    const b = declare('b@example.com', 'admin');
    const first = planChanges(desiredOf(declare('a@example.com', 'owner'), b), live, inventory, policy, { memo });
    expect(first.refusals).toEqual([]);
    const edited = planChanges(desiredOf(declare('a@example.com', 'admin'), b), live, inventory, policy, { memo });
    expect(changeOf(edited, 'User', 'a@example.com').action).toBe('refused');
    expect(memo.made.incremental).toBe(0);
  });

  it('the user of a personal token is not demoted below admin nor deleted', () => {
    const self: SelfIdentity = { user: { id: 'usr_b', how: 'GET /v2/user names it' } };
    const second = wire.user('usr_c', 'c@example.com', 'C', { id: 'owner', name: 'Owner' });
    const entries = [owns(owner, 'a@example.com'), owns(admin, 'b@example.com'), owns(second, 'c@example.com')];
    const p = plan(desiredOf(declare('a@example.com', 'owner'), declare('b@example.com', 'user'), declare('c@example.com', 'owner')), liveOf([owner, admin, second]), inventoryOf(entries), policyOf(), self);
    expect(changeOf(p, 'User', 'b@example.com').action).toBe('refused');
    expect(p.refusals[0]).toContain('Refusing to give the role "user" to User/b@example.com: it is the user whose personal token wsync runs with');
    const promoted = plan(desiredOf(declare('a@example.com', 'owner'), declare('b@example.com', 'owner'), declare('c@example.com', 'owner')), liveOf([owner, admin, second]), inventoryOf(entries), policyOf(), self);
    expect(changeOf(promoted, 'User', 'b@example.com').action).toBe('update');
    const deleted = plan(desiredOf(declare('a@example.com', 'owner'), declare('c@example.com', 'owner')), liveOf([owner, admin, second]), inventoryOf(entries), prune, self);
    expect(changeOf(deleted, 'User', 'b@example.com').action).toBe('refused');
  });
});
