import { describe, expect, it } from 'vitest';
import { OBSERVE_REASON } from '../../src/plan/index.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource } from './builders.js';
import { caseOf, CHANGEABLE, KIND_CASES, type KindCase } from './kind-cases.js';

const byKind = <T extends KindCase>(cases: T[]) => cases.map((c) => [c.kind, c] as const);

describe('planChanges: each action for each kind', () => {
  it.each(byKind(KIND_CASES))('%s: declared, not live -> create (DatasetField: skipped, fields come from ingest; UserRole: an error)', (kind, c) => {
    const p = plan(desiredOf(resource(kind, c.name, c.spec)), liveOf(c.context));
    const change = changeOf(p, kind, c.key);
    if (c.whenMissingError !== undefined) {
      expect(change.action).toBe('refused');
      expect(p.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'missing', message: c.whenMissingError, file: 'userroles.yaml', line: 1 })]);
      return;
    }
    if (c.whenMissing !== undefined) {
      expect(change.action).toBe('skipped');
      expect(change.reason).toBe(c.whenMissing);
    } else {
      expect(change.action).toBe('create');
      expect(change.id).toBeUndefined();
      expect(change.owned).toBe(false);
      if (kind !== 'Org') expect(change.diffs.length).toBeGreaterThan(0);
      for (const diff of change.diffs) expect(diff).not.toHaveProperty('before');
    }
    expect(p.diagnostics).toEqual([]);
  });

  it.each(byKind(KIND_CASES))('%s: owned and equal to the live object (as the emulator shapes it) -> noop', (kind, c) => {
    const p = plan(desiredOf(resource(kind, c.name, c.spec)), liveOf([c.live, ...c.context]), inventoryOf([owns(c.live, c.key)]));
    const change = changeOf(p, kind, c.key);
    expect(change).toMatchObject({ action: 'noop', id: c.live.id, owned: true, diffs: [] });
    expect(p.summary.noop).toBe(1);
    expect(p.changes).toHaveLength(1);
  });

  it.each(byKind(KIND_CASES))('%s: live but not owned -> adopt', (kind, c) => {
    const p = plan(desiredOf(resource(kind, c.name, c.spec)), liveOf([c.live, ...c.context]));
    expect(changeOf(p, kind, c.key)).toMatchObject({ action: 'adopt', id: c.live.id, owned: false, diffs: [] });
  });

  it.each(byKind(CHANGEABLE))('%s: owned and different -> update (ApiToken: replace)', (kind, c) => {
    const p = plan(desiredOf(resource(kind, c.name, c.changed.spec)), liveOf([c.live, ...c.context]), inventoryOf([owns(c.live, c.key)]));
    const change = changeOf(p, kind, c.key);
    if (c.whenChanged === 'update') {
      expect(change.action).toBe('update');
    } else {
      expect(change.action).toBe('replace');
      expect(change.reason?.startsWith(c.whenChanged.replace)).toBe(true);
    }
    expect(change.diffs.map((d) => d.path)).toContain(c.changed.path);
    expect(change.id).toBe(c.live.id);
  });

  it.each(byKind(CHANGEABLE))('%s: not owned and different -> adopt with the diffs (ApiToken: replace)', (kind, c) => {
    const p = plan(desiredOf(resource(kind, c.name, c.changed.spec)), liveOf([c.live, ...c.context]));
    const change = changeOf(p, kind, c.key);
    expect(change.action).toBe(c.whenChanged === 'update' ? 'adopt' : 'replace');
    expect(change.owned).toBe(false);
    expect(change.diffs.map((d) => d.path)).toContain(c.changed.path);
  });

  it.each(byKind(CHANGEABLE))('%s: wsync/mode observe -> skipped, drift kept', (kind, c) => {
    const observed = resource(kind, c.name, c.changed.spec, { annotations: { 'wsync/mode': 'observe' } });
    const p = plan(desiredOf(observed), liveOf([c.live, ...c.context]), inventoryOf([owns(c.live, c.key)]));
    const change = changeOf(p, kind, c.key);
    expect(change.action).toBe('skipped');
    expect(change.reason).toBe(OBSERVE_REASON);
    expect(change.diffs.map((d) => d.path)).toContain(c.changed.path);
  });

  it.each(byKind(KIND_CASES))('%s: --no-adopt and an unowned live object of the same key -> refused with an error', (kind, c) => {
    const p = plan(desiredOf(resource(kind, c.name, c.spec, { line: 7 })), liveOf([c.live, ...c.context]), inventoryOf(), policyOf({ adopt: false }));
    expect(changeOf(p, kind, c.key)).toMatchObject({ action: 'refused', id: c.live.id });
    expect(p.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'adoption-refused', kind, line: 7, file: expect.any(String) }),
    ]);
    expect(p.summary.refused).toBe(1);
  });

  it.each(byKind(KIND_CASES))('%s: owned, no longer declared, --prune -> delete (never for Org and DatasetField)', (kind, c) => {
    const p = plan(
      desiredOf(),
      liveOf([c.live, ...c.context]),
      inventoryOf([owns(c.live, c.key)]),
      policyOf({ prune: true, maxDeleteRatio: 1, allowEmpty: true, allowDeletion: [kind] }),
    );
    if (c.neverDeleted) {
      // Shown all the same: an owned object the files no longer declare is always in the plan.
      expect(p.changes).toEqual([
        expect.objectContaining({ kind, key: c.key, action: 'skipped', owned: true, reason: `no longer declared: kept, ${kind} objects cannot be deleted through the API` }),
      ]);
      return;
    }
    expect(p.changes).toEqual([
      expect.objectContaining({ kind, key: c.key, action: 'delete', id: c.live.id, owned: true, reason: 'owned by wsync and no longer declared' }),
    ]);
    expect(p.refusals).toEqual([]);
  });

  it.each(byKind(KIND_CASES.filter((c) => !c.neverDeleted)))(
    '%s: a prune over the delete budget -> refused, with refusals',
    (kind, c) => {
      const p = plan(desiredOf(), liveOf([c.live, ...c.context]), inventoryOf([owns(c.live, c.key)]), policyOf({ prune: true, allowDeletion: [kind] }));
      expect(changeOf(p, kind, c.key).action).toBe('refused');
      expect(p.refusals.length).toBeGreaterThan(0);
      expect(p.summary.delete).toBe(0);
      expect(p.summary.refused).toBe(1);
    },
  );

  it('every change carries its kind level and the declaring document', () => {
    const resources = KIND_CASES.map((c) => resource(c.kind, c.name, c.spec, { file: `f/${c.kind}.yaml`, line: 3 }));
    const p = plan(desiredOf(...resources), liveOf(KIND_CASES.flatMap((c) => c.context)));
    for (const change of p.changes) {
      expect(change.source).toEqual({ file: `f/${change.kind}.yaml`, line: 3, column: 1 });
      expect(change.level).toBe(caseOf(change.kind).level);
    }
    expect(Object.values(p.summary).reduce((a, b) => a + b, 0)).toBe(p.changes.length);
  });
});

describe('planChanges: special cases of actions', () => {
  it('User: a name change alone is reported as skipped; with a role change it is an update that says so', () => {
    const live = caseOf('User').live;
    const inv = inventoryOf([owns(live, 'ada@example.com')]);
    const nameOnly = plan(desiredOf(resource('User', 'ada@example.com', { name: 'Ada L.', role: 'user' })), liveOf([live]), inv);
    expect(changeOf(nameOnly, 'User', 'ada@example.com')).toMatchObject({
      action: 'skipped',
      reason: 'name changes are not applied through the API',
      diffs: [{ path: 'name', before: 'Ada', after: 'Ada L.' }],
    });
    const both = plan(desiredOf(resource('User', 'ada@example.com', { name: 'Ada L.', role: 'admin' })), liveOf([live]), inv);
    expect(changeOf(both, 'User', 'ada@example.com')).toMatchObject({
      action: 'update',
      reason: 'name changes are not applied through the API',
      diffs: [
        { path: 'name', before: 'Ada', after: 'Ada L.' },
        { path: 'role', before: 'user', after: 'admin' },
      ],
    });
  });

  it('policy mode observe: creates, updates and deletes are all skipped, noops stay noops', () => {
    const [role, notifier, monitor] = [caseOf('Role'), caseOf('Notifier'), caseOf('Monitor')];
    const p = plan(
      desiredOf(resource('Role', role.name, role.spec), resource('Monitor', monitor.name, monitor.changed!.spec), resource('Notifier', notifier.name, notifier.spec)),
      liveOf([monitor.live, notifier.live, wire2()]),
      inventoryOf([owns(monitor.live, 'errors'), owns(notifier.live, 'team-email'), owns(wire2(), 'old')]),
      policyOf({ mode: 'observe', prune: true, maxDeleteRatio: 1 }),
    );
    expect(changeOf(p, 'Role', 'sre')).toMatchObject({ action: 'skipped', reason: OBSERVE_REASON });
    expect(changeOf(p, 'Monitor', 'errors')).toMatchObject({ action: 'skipped', reason: OBSERVE_REASON, diffs: [{ path: 'threshold', before: 25, after: 30 }] });
    expect(changeOf(p, 'Notifier', 'team-email').action).toBe('noop');
    expect(changeOf(p, 'Notifier', 'old')).toMatchObject({ action: 'skipped', reason: `${OBSERVE_REASON} (would delete: owned by wsync and no longer declared)` });
    expect(p.summary).toMatchObject({ create: 0, update: 0, delete: 0, skipped: 3, noop: 1 });
  });

  it('an unowned object equal to the file is not adopted in observe mode (noop), nor refused by --no-adopt', () => {
    const role = caseOf('Role');
    const observed = resource('Role', role.name, role.spec, { annotations: { 'wsync/mode': 'observe' } });
    const p = plan(desiredOf(observed), liveOf([role.live]), inventoryOf(), policyOf({ adopt: false }));
    expect(changeOf(p, 'Role', 'sre')).toMatchObject({ action: 'noop', owned: false });
    expect(p.diagnostics).toEqual([]);
  });

  it('User: an unowned user whose only diff is the name is adopted, saying the name is not applied', () => {
    const live = caseOf('User').live;
    const p = plan(desiredOf(resource('User', 'ada@example.com', { name: 'Ada L.', role: 'user' })), liveOf([live]));
    expect(changeOf(p, 'User', 'ada@example.com')).toMatchObject({ action: 'adopt', reason: 'name changes are not applied through the API' });
  });

  it('Orgs are never deleted, not even when declared authoritative', () => {
    const org = caseOf('Org').live;
    const p = plan(desiredOf(), liveOf([org]), inventoryOf([owns(org, 'acme')]), policyOf({ prune: true, pruneAll: ['Org'], allowEmpty: true, maxDeleteRatio: 1 }));
    expect(p.changes).toEqual([expect.objectContaining({ kind: 'Org', action: 'skipped', reason: 'no longer declared: kept, Org objects cannot be deleted through the API' })]);
    expect(p.summary.delete).toBe(0);
  });

  it('a per-dataset kind whose dataset was not read cannot be planned (absence would read as "create")', () => {
    const vf = resource('VirtualField', 'x', { dataset: 'http', expression: '1' }, { locations: { '/spec/dataset': { file: 'vf.yaml', line: 4, column: 12 } } });
    const p = plan(desiredOf(vf), liveOf([], { listedDatasets: { VirtualField: ['checkout'] } }));
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'not-listed',
        message: 'the VirtualField objects of dataset "http" were not read from the workspace, so this resource cannot be planned',
        file: 'vf.yaml',
        line: 4,
        column: 12,
      }),
    ]);
    expect(changeOf(p, 'VirtualField', 'http/x').action).toBe('skipped');
  });

  it('a kind whose live list was not read cannot be planned (absence would read as "create")', () => {
    const notifier = caseOf('Notifier');
    const p = plan(desiredOf(resource('Notifier', notifier.name, notifier.spec)), liveOf([], { listedKinds: ['Monitor'] }));
    expect(p.diagnostics.map((d) => d.code)).toEqual(['not-listed']);
    expect(p.summary.create).toBe(0);
  });

  it('an empty inventory and an empty desired set give an empty plan', () => {
    const p = plan(desiredOf(), liveOf(KIND_CASES.map((c) => c.live)), inventoryOf([], ''), policyOf({ prune: true }));
    expect(p.changes).toEqual([]);
    expect(p.refusals).toEqual([]);
  });
});

function wire2() {
  return { kind: 'Notifier' as const, id: 'notify_old', raw: { id: 'notify_old', name: 'old', properties: { webhook: { url: 'https://old.example.com' } } } };
}
