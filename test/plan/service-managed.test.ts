// Objects the service manages itself (groups that directory sync makes): never written, adopted
// or deleted, whatever the files and the policy say.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { changeOf, desiredOf, inventoryOf, liveOf, plan, policyOf, resource, wire } from './builders.js';

const synced = wire.group('grp_sync', 'engineering', { isManaged: true, description: 'from the directory' });
const mine = wire.group('grp_mine', 'on-call');

describe('service-managed objects', () => {
  it('a managed group is recognised by isManaged', () => {
    expect(KINDS.Group.managedByService?.(synced.raw)).toBe(true);
    expect(KINDS.Group.managedByService?.(mine.raw)).toBe(false);
  });

  it('a file declaring one is skipped with a warning at its line, not adopted or updated', () => {
    const declared = resource('Group', 'engineering', { description: 'mine now' }, { file: 'groups.yaml', line: 4 });
    const p = plan(desiredOf(declared), liveOf([synced]));
    expect(changeOf(p, 'Group', 'engineering')).toMatchObject({
      action: 'skipped',
      id: 'grp_sync',
      reason: 'managed by the service (id grp_sync): wsync never writes, adopts or deletes it',
    });
    expect(p.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'service-managed', kind: 'Group', file: 'groups.yaml', line: 4 }),
    ]);
  });

  it('is never pruned, not even when the kind is declared authoritative', () => {
    const p = plan(desiredOf(), liveOf([synced, mine]), inventoryOf(), policyOf({ prune: true, pruneAll: ['Group'], maxDeleteRatio: 1 }));
    expect(p.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['delete on-call']);
  });
});
