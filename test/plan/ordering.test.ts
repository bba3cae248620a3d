import { describe, expect, it } from 'vitest';
import { desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

describe('ordering', () => {
  it('writes by kind level (then kind order, then key), deletes after them in reverse', () => {
    const gone = [
      wire.role('role_old', 'old-role'),
      wire.user('usr_old', 'old@example.com', 'Old'),
      wire.monitor('mon_old', 'old-monitor', { type: 'MatchEvent', aplQuery: 'q' }),
      wire.notifier('notify_old', 'old-notifier', { webhook: { url: 'https://o.example.com' } }),
      wire.token('tok_old', 'old-token'),
    ];
    const desired = desiredOf(
      resource('ApiToken', 'tok', {}),
      resource('Monitor', 'b-monitor', { type: 'MatchEvent', aplQuery: 'q', notifiers: ['n'] }),
      resource('Monitor', 'a-monitor', { type: 'MatchEvent', aplQuery: 'q' }),
      resource('User', 'ada@example.com', { name: 'Ada', role: 'r' }),
      resource('Org', 'acme', {}),
      resource('Notifier', 'n', { properties: { webhook: { url: 'https://n.example.com' } } }),
      resource('Role', 'r', {}),
      resource('StarredQuery', 'q', { owner: 'ada@example.com', query: { apl: 'x' } }),
    );
    const p = plan(
      desired,
      liveOf(gone),
      inventoryOf(gone.map((o) => owns(o, ''))),
      policyOf({ prune: true, maxDeleteRatio: 1, allowEmpty: true }),
    );
    expect(p.changes.map((c) => `${c.action} ${c.kind}/${c.key}`)).toEqual([
      'create Role/r',
      'create Notifier/n',
      'create Org/acme',
      'create User/ada@example.com',
      'create Monitor/a-monitor',
      'create Monitor/b-monitor',
      'create StarredQuery/ada@example.com/q',
      'create ApiToken/tok',
      'delete ApiToken/old-token',
      'delete Monitor/old-monitor',
      'delete User/old@example.com',
      'delete Notifier/old-notifier',
      'delete Role/old-role',
    ]);
    expect(p.changes.map((c) => c.level)).toEqual([1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 2, 1, 1]);
    expect(p.changes.find((c) => c.key === 'ada@example.com/q')?.dependsOn).toEqual(['User/ada@example.com']);
    expect(p.changes.find((c) => c.key === 'b-monitor')?.dependsOn).toEqual(['Notifier/n']);
  });

  it('the order does not depend on the order of the inputs', () => {
    const resources = [
      resource('Monitor', 'm2', { type: 'MatchEvent', aplQuery: 'q' }),
      resource('Monitor', 'm1', { type: 'MatchEvent', aplQuery: 'q' }),
      resource('Role', 'r', {}),
    ];
    const live = [wire.monitor('mon_2', 'm2', { type: 'MatchEvent', aplQuery: 'x' }), wire.monitor('mon_1', 'm1', { type: 'MatchEvent', aplQuery: 'q' })];
    const forward = plan(desiredOf(...resources), liveOf(live));
    const backward = plan(desiredOf(...[...resources].reverse()), liveOf([...live].reverse()));
    expect(backward).toEqual(forward);
  });
});
