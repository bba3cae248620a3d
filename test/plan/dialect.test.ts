// The service's dialect (#13, docs/wire-contract.md): what a real workspace answers must not read as
// drift, and what it cannot do must be said once, clearly.
import { describe, expect, it } from 'vitest';
import type { JsonObject, KindName, LiveObject } from '../../src/core/types.js';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { changeOf, desiredOf, inventoryOf, liveOf, obj, owns, plan, resource, wire } from './builders.js';

const user = (role: string) => resource('User', 'ada@example.com', { name: 'Ada', role });

describe('user roles', () => {
  it.each([
    ['owner', { id: 'owner', name: 'Owner' }],
    ['Owner', { id: 'owner', name: 'Owner' }],
    ['user', { id: 'user', name: 'User' }],
    ['READ-ONLY', { id: 'read-only', name: 'Read-only' }],
    ['none', { id: 'none', name: 'None' }],
  ])('a built-in role written %s converges with a read of %o, without reading roles', (role, read) => {
    const live = wire.user('usr_1', 'ada@example.com', 'Ada', read);
    const p = plan(desiredOf(user(role)), liveOf([live], { listedKinds: ['User'] }), inventoryOf([owns(live, 'ada@example.com')]));
    expect(changeOf(p, 'User', 'ada@example.com')).toMatchObject({ action: 'noop', diffs: [] });
    expect(p.diagnostics).toEqual([]);
  });

  it('a user without a role (null) is the base role none', () => {
    const live = obj('User', { id: 'usr_1', email: 'ada@example.com', name: 'Ada', role: null });
    const p = plan(desiredOf(user('none')), liveOf([live]), inventoryOf([owns(live, 'ada@example.com')]));
    expect(changeOf(p, 'User', 'ada@example.com').action).toBe('noop');
  });

  it('a custom role converges by its Role, and by its label when roles were not needed', () => {
    const sre = wire.role('role_1', 'SRE team');
    const live = wire.user('usr_1', 'ada@example.com', 'Ada', { id: 'role_1', name: 'SRE team' });
    const inventory = inventoryOf([owns(live, 'ada@example.com')]);
    expect(changeOf(plan(desiredOf(user('SRE team')), liveOf([sre, live]), inventory), 'User', 'ada@example.com').action).toBe('noop');
    expect(changeOf(plan(desiredOf(user('sre TEAM')), liveOf([sre, live]), inventory), 'User', 'ada@example.com').action).toBe('noop');
  });

  it('a role that is neither built-in nor a Role is a warning, and the plan writes it as written', () => {
    const live = wire.user('usr_1', 'ada@example.com', 'Ada', { id: 'user', name: 'User' });
    const p = plan(desiredOf(user('billing')), liveOf([live]), inventoryOf([owns(live, 'ada@example.com')]));
    expect(changeOf(p, 'User', 'ada@example.com')).toMatchObject({ action: 'update', diffs: [{ path: 'role', before: 'user', after: 'billing' }] });
    expect(p.diagnostics).toMatchObject([
      {
        severity: 'warning',
        code: 'unknown-value',
        field: 'spec.role',
        message:
          'spec.role: no Role named "billing" is declared or exists live nor a built-in one (owner, admin, user, read-only, none); it is sent as written, and the workspace may refuse it',
      },
    ]);
  });
});

describe('RBAC not available: kinds of an add-on the workspace lacks', () => {
  const unavailable = { Role: 'GET /v2/rbac/roles answered 403: RBAC is not available' };

  it('a tree without roles plans as usual', () => {
    const live = liveOf([], { listedKinds: ['User'] });
    const p = plan(desiredOf(user('admin')), { ...live, unavailable }, inventoryOf());
    expect(changeOf(p, 'User', 'ada@example.com').action).toBe('create');
    expect(p.diagnostics).toEqual([]);
  });

  it('a tree that declares roles gets one error naming the add-on, and its roles are skipped', () => {
    const live = { ...liveOf([], { listedKinds: ['User'] }), unavailable };
    const roles = ['sre', 'auditors', 'viewers'].map((name) => resource('Role', name, {}));
    const p = plan(desiredOf(...roles, user('admin')), live, inventoryOf());
    const errors = p.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'add-on-unavailable', kind: 'Role', name: 'sre', file: 'roles.yaml', line: 1 });
    expect(errors[0]?.message).toBe(
      'RBAC is not available on this workspace (GET /v2/rbac/roles answered 403: RBAC is not available), or the token may not read it: ' +
        'this tree declares Role and Group resources, which need it. Enable RBAC for the workspace, use a token that may read it, or remove them.',
    );
    for (const name of ['sre', 'auditors', 'viewers']) expect(changeOf(p, 'Role', name).action).toBe('skipped');
    expect(changeOf(p, 'User', 'ada@example.com').action).toBe('create');
  });

  it('a user naming a custom role says roles could not be read', () => {
    const p = plan(desiredOf(user('sre')), { ...liveOf([], { listedKinds: ['User'] }), unavailable }, inventoryOf());
    expect(p.diagnostics).toMatchObject([{ severity: 'warning', code: 'unknown-value', field: 'spec.role' }]);
    expect(p.diagnostics[0]?.message).toContain('(Role objects could not be read: GET /v2/rbac/roles answered 403: RBAC is not available)');
  });
});

describe('monitors: the service answers every default', () => {
  const minimal = { type: 'MatchEvent', aplQuery: "['http'] | where status >= 500" };
  /** What the service answers for a monitor written with only its required fields. */
  const answered = wire.monitor('mon_1', 'm', minimal);

  it('a monitor written with its required fields only is no change against the answer', () => {
    const p = plan(desiredOf(resource('Monitor', 'm', minimal)), liveOf([answered]), inventoryOf([owns(answered, 'm')]));
    expect(changeOf(p, 'Monitor', 'm')).toMatchObject({ action: 'noop', diffs: [] });
  });

  it('a field removed from the file is an update back to its default, written explicitly', () => {
    const live = wire.monitor('mon_1', 'm', { ...minimal, triggerAfterNPositiveResults: 3, threshold: 5, operator: 'Above' });
    const p = plan(desiredOf(resource('Monitor', 'm', minimal)), liveOf([live]), inventoryOf([owns(live, 'm')]));
    expect(changeOf(p, 'Monitor', 'm').diffs).toEqual([
      { path: 'operator', before: 'Above' },
      { path: 'threshold', before: 5, after: 0 },
      { path: 'triggerAfterNPositiveResults', before: 3, after: 0 },
    ]);
    const body = KINDS.Monitor.toWire('m', minimal, () => undefined, live);
    expect(body).toMatchObject({ operator: '', threshold: 0, triggerAfterNPositiveResults: 0, triggerFromNRuns: 1, disabledUntil: null });
  });

  it('the schedule the file leaves out is the service\'s, and an update keeps it', () => {
    const live = wire.monitor('mon_1', 'm', { ...minimal, intervalMinutes: 5, rangeMinutes: 10 });
    const p = plan(desiredOf(resource('Monitor', 'm', minimal)), liveOf([live]), inventoryOf([owns(live, 'm')]));
    expect(changeOf(p, 'Monitor', 'm').action).toBe('noop');
  });

  it('an MPL monitor read back with its query in aplQuery is no change; another query is', () => {
    const mpl = { type: 'MatchEvent', mplQuery: 'metrics:cpu | avg' };
    const live = wire.monitor('mon_1', 'm', { type: 'MatchEvent', aplQuery: 'metrics:cpu | avg' });
    const inventory = inventoryOf([owns(live, 'm')]);
    expect(changeOf(plan(desiredOf(resource('Monitor', 'm', mpl)), liveOf([live]), inventory), 'Monitor', 'm').action).toBe('noop');
    const changed = plan(desiredOf(resource('Monitor', 'm', { ...mpl, mplQuery: 'metrics:mem | avg' })), liveOf([live]), inventory);
    expect(changeOf(changed, 'Monitor', 'm').diffs).toEqual([
      { path: 'aplQuery', before: 'metrics:cpu | avg' },
      { path: 'mplQuery', after: 'metrics:mem | avg' },
    ]);
  });

  it('reads notifiers under notifierIds or notifierIDs, and null as none', () => {
    const notifier = wire.notifier('notify_1', 'pager', { email: { emails: ['a@example.com'] } });
    const desired = desiredOf(resource('Monitor', 'm', { ...minimal, notifiers: ['pager'] }));
    const spellings: JsonObject[] = [{ notifierIds: ['notify_1'] }, { notifierIDs: ['notify_1'] }, { notifierIds: null, notifierIDs: ['notify_1'] }];
    for (const ids of spellings) {
      const { notifierIds: _documented, ...rest } = answered.raw;
      const live = obj('Monitor', { ...rest, id: 'mon_1', ...ids });
      expect(changeOf(plan(desired, liveOf([notifier, live]), inventoryOf([owns(live, 'm')])), 'Monitor', 'm').action).toBe('noop');
    }
    const none = obj('Monitor', { ...answered.raw, id: 'mon_1', notifierIds: null });
    expect(changeOf(plan(desiredOf(resource('Monitor', 'm', minimal)), liveOf([none]), inventoryOf([owns(none, 'm')])), 'Monitor', 'm').action).toBe(
      'noop',
    );
  });
});

describe('"no time": null, "" and Go\'s zero time are absent for every kind\'s timestamps', () => {
  const NO_TIME = [null, '', '0001-01-01T00:00:00Z'];
  /** A declared resource and its live twin for each kind that has timestamps, without them. */
  const twins: Partial<Record<KindName, { spec: JsonObject; live: (extra: JsonObject) => LiveObject; key: string; keyParts?: string[] }>> = {
    Monitor: { key: 'm', spec: { type: 'MatchEvent', aplQuery: 'q' }, live: (x) => wire.monitor('mon_1', 'm', { type: 'MatchEvent', aplQuery: 'q', ...x }) },
    Notifier: {
      key: 'n',
      spec: { properties: { email: { emails: ['a@example.com'] } } },
      live: (x) => wire.notifier('notify_1', 'n', { email: { emails: ['a@example.com'] } }, x),
    },
    ApiToken: { key: 'n', spec: {}, live: (x) => wire.token('tok_1', 'n', x) },
    Annotation: {
      key: 'deploy/2026-03-01T12:00:00.000Z/n',
      spec: { type: 'deploy', datasets: ['http'], time: '2026-03-01T12:00:00Z' },
      live: (x) => wire.annotation('ann_1', 'n', { type: 'deploy', datasets: ['http'], time: '2026-03-01T12:00:00.000Z', ...x }),
      // The time is part of an annotation's key (the schema requires it): another time is another annotation.
      keyParts: ['time'],
    },
  };

  it('lists every kind with timestamps', () => {
    expect(KIND_NAMES.filter((kind) => KINDS[kind].timestamps.length > 0).sort()).toEqual(Object.keys(twins).sort());
  });

  for (const [kind, twin] of Object.entries(twins) as [KindName, NonNullable<(typeof twins)[KindName]>][]) {
    const name = twin.key.split('/').pop() ?? twin.key;
    for (const path of KINDS[kind].timestamps.filter((p) => !KINDS[kind].computed.includes(p) && !(twin.keyParts ?? []).includes(p))) {
      it.each(NO_TIME)(`${kind}.${path} = %j, live or in the file, is no change`, (value) => {
        const live = twin.live({ [path]: value });
        const inventory = inventoryOf([owns(live, twin.key)]);
        expect(changeOf(plan(desiredOf(resource(kind, name, twin.spec)), liveOf([live]), inventory), kind, twin.key).action).toBe('noop');
        const written = resource(kind, name, { ...twin.spec, [path]: value });
        expect(changeOf(plan(desiredOf(written), liveOf([twin.live({})]), inventory), kind, twin.key).action).toBe('noop');
      });
    }
  }
});

describe('annotations: what an update cannot clear is reported, not written again and again', () => {
  const spec = { type: 'deploy', datasets: ['http'], time: '2026-03-01T12:00:00Z' };
  const KEY = 'deploy/2026-03-01T12:00:00.000Z/Deploy';

  it('a removed end time is skipped with the reason; a removed description is cleared', () => {
    const live = wire.annotation('ann_1', 'Deploy', { ...spec, endTime: '2026-03-01T13:00:00.000Z' });
    const p = plan(desiredOf(resource('Annotation', 'Deploy', spec)), liveOf([live]), inventoryOf([owns(live, KEY)]));
    expect(changeOf(p, 'Annotation', KEY)).toMatchObject({
      action: 'skipped',
      reason: 'endTime cannot be cleared through the API (an update keeps what it leaves out); delete the object to clear it',
    });
    const both = wire.annotation('ann_1', 'Deploy', { ...spec, endTime: '2026-03-01T13:00:00.000Z', description: 'v2' });
    const update = changeOf(plan(desiredOf(resource('Annotation', 'Deploy', spec)), liveOf([both]), inventoryOf([owns(both, KEY)])), 'Annotation', KEY);
    expect(update.action).toBe('update');
    expect(update.reason).toContain('endTime cannot be cleared');
  });
});
