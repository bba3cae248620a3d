// UserRole (the provider's axiom_user_role): the role of a user already in the organization,
// planned with plain values. Never created, never deleted, and never declared twice with a User.
import { describe, expect, it } from 'vitest';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

const lin = wire.user('usr_lin', 'lin@example.com', 'Lin', { id: 'read-only', name: 'Read-only' });
const asUserRole = { ...lin, kind: 'UserRole' as const };
const PRUNE_ALL = policyOf({ prune: true, pruneAll: ['User', 'UserRole'], maxDeleteRatio: 1, allowEmpty: true });

describe('UserRole', () => {
  it('a role change is one update of the role only, and the same role is no change', () => {
    const changed = plan(desiredOf(resource('UserRole', 'Lin@Example.com', { role: 'Admin' })), liveOf([lin, asUserRole]));
    expect(changeOf(changed, 'UserRole', 'lin@example.com')).toMatchObject({
      action: 'adopt',
      id: 'usr_lin',
      diffs: [{ path: 'role', before: 'read-only', after: 'admin' }],
    });
    expect(changed.diagnostics).toEqual([]);
    // The user it names is left alone: no User change at all.
    expect(changed.changes.map((c) => c.kind)).toEqual(['UserRole']);

    const same = plan(desiredOf(resource('UserRole', 'lin@example.com', { role: 'read-only' })), liveOf([lin, asUserRole]));
    expect(changeOf(same, 'UserRole', 'lin@example.com')).toMatchObject({ action: 'adopt', diffs: [] });
  });

  it('declared only as a UserRole, the user is never pruned as a User, even with --prune=all:User', () => {
    const p = plan(desiredOf(resource('UserRole', 'lin@example.com', { role: 'admin' })), liveOf([lin, asUserRole]), inventoryOf(), PRUNE_ALL);
    expect(p.changes.filter((c) => c.action === 'delete')).toEqual([]);
    expect(p.changes.map((c) => `${c.kind}/${c.key}`)).toEqual(['UserRole/lin@example.com']);
  });

  it('no longer declared (its file removed), an owned UserRole deletes nothing, whatever prune says', () => {
    const policy = policyOf({ prune: true, pruneAll: ['UserRole'], maxDeleteRatio: 1, allowEmpty: true });
    const p = plan(desiredOf(), liveOf([lin, asUserRole]), inventoryOf([owns(asUserRole, 'lin@example.com')]), policy);
    // The User lin is not owned by wsync: only its role was, and a UserRole has no delete.
    expect(p.changes.filter((c) => c.action === 'delete')).toEqual([]);
    // (--prune=all:User would delete every undeclared member: what a UserRole's file says does not count then.)
  });

  it('one email declared both as a User and as a UserRole is an error naming the UserRole file and line', () => {
    const p = plan(
      desiredOf(
        resource('User', 'lin@example.com', { name: 'Lin', role: 'user' }, { file: 'access/users.yaml', line: 3 }),
        resource('UserRole', 'Lin@Example.com', { role: 'admin' }, { file: 'access/roles-only.yaml', line: 12 }),
      ),
      liveOf([lin, asUserRole]),
    );
    expect(changeOf(p, 'UserRole', 'lin@example.com')).toMatchObject({ action: 'refused', reason: 'also declared as a User (see the error)' });
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'declared-twice',
        kind: 'UserRole',
        file: 'access/roles-only.yaml',
        line: 12,
        message: expect.stringMatching(/^UserRole "lin@example\.com" is also declared as a User: one object, two owners\./),
      }),
    ]);
  });
});
