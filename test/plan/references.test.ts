import { describe, expect, it } from 'vitest';
import { buildNameIndex, resolveIdFromLive } from '../../src/plan/index.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

const monitorSpec = (notifiers: string[]) => ({ type: 'MatchEvent', aplQuery: "['http']", notifiers });
const slackLive = wire.notifier('notify_slack', 'slack', { webhook: { url: 'https://hooks.example.com/a' } });

describe('references', () => {
  it('a name declared in the files resolves and orders the create of its target first', () => {
    const p = plan(
      desiredOf(
        resource('Monitor', 'm', monitorSpec(['pager'])),
        resource('Notifier', 'pager', { properties: { webhook: { url: 'https://pager.example.com' } } }),
      ),
      liveOf([]),
    );
    expect(p.diagnostics).toEqual([]);
    expect(changeOf(p, 'Monitor', 'm').dependsOn).toEqual(['Notifier/pager']);
    expect(p.changes.map((c) => `${c.kind}/${c.key}`)).toEqual(['Notifier/pager', 'Monitor/m']);
  });

  it('a name that exists live (not declared, not owned) resolves without a dependency', () => {
    const live = wire.monitor('mon_1', 'm', { type: 'MatchEvent', aplQuery: "['http']", notifierIds: ['notify_slack'] });
    const p = plan(desiredOf(resource('Monitor', 'm', monitorSpec(['slack']))), liveOf([slackLive, live]), inventoryOf([owns(live, 'm')]));
    expect(p.diagnostics).toEqual([]);
    expect(changeOf(p, 'Monitor', 'm')).toMatchObject({ action: 'noop', dependsOn: [] });
  });

  it('a declared target that already exists live adds no dependency', () => {
    const p = plan(
      desiredOf(resource('Monitor', 'm', monitorSpec(['slack'])), resource('Notifier', 'slack', { properties: { webhook: { url: 'https://hooks.example.com/b' } } })),
      liveOf([slackLive]),
      inventoryOf([owns(slackLive, 'slack')]),
    );
    expect(changeOf(p, 'Notifier', 'slack').action).toBe('update');
    expect(changeOf(p, 'Monitor', 'm').dependsOn).toEqual([]);
  });

  it('an unresolvable name is an error naming the file, line and field', () => {
    const m = resource('Monitor', 'm', monitorSpec(['slack', 'pager']), {
      file: 'monitors/m.yaml',
      locations: { '/spec/notifiers/1': { file: 'monitors/m.yaml', line: 9, column: 7 }, '/spec/notifiers': { file: 'monitors/m.yaml', line: 8, column: 3 } },
    });
    const p = plan(desiredOf(m), liveOf([slackLive]));
    expect(p.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unresolved-reference',
        kind: 'Monitor',
        name: 'm',
        field: 'spec.notifiers[1]',
        file: 'monitors/m.yaml',
        line: 9,
        column: 7,
        message: 'spec.notifiers[1]: no Notifier named "pager" is declared or exists live',
      },
    ]);
  });

  it('falls back to the field, then to the document, when the node has no location', () => {
    const m = resource('Monitor', 'm', monitorSpec(['pager']), { file: 'm.yaml', line: 20 });
    const p = plan(desiredOf(m), liveOf([]));
    expect(p.diagnostics[0]).toMatchObject({ file: 'm.yaml', line: 20 });
  });

  it('a name two live objects share is an error, and the declared twin is skipped with a warning', () => {
    const twin = wire.notifier('notify_twin', 'slack', { webhook: { url: 'https://hooks.example.com/c' } });
    const p = plan(
      desiredOf(resource('Monitor', 'm', monitorSpec(['slack'])), resource('Notifier', 'slack', { properties: { webhook: { url: 'https://x.example.com' } } })),
      liveOf([slackLive, twin]),
    );
    expect(p.diagnostics.map((d) => [d.severity, d.code])).toEqual(
      expect.arrayContaining([
        ['error', 'ambiguous-reference'],
        ['warning', 'ambiguous'],
      ]),
    );
    expect(p.diagnostics.find((d) => d.code === 'ambiguous-reference')?.message).toBe(
      'spec.notifiers[0]: Notifier "slack" is ambiguous: 2 live objects have this key (ids notify_slack, notify_twin); resolve by hand',
    );
    expect(changeOf(p, 'Notifier', 'slack')).toMatchObject({
      action: 'skipped',
      reason: 'ambiguous: 2 live objects have this key (ids notify_slack, notify_twin); resolve by hand',
    });
  });

  it('user roles: built-in names are not references; a custom Role declared in the files is a dependency', () => {
    const p = plan(
      desiredOf(
        resource('User', 'ada@example.com', { name: 'Ada', role: 'sre' }),
        resource('User', 'grace@example.com', { name: 'Grace', role: 'read-only' }),
        resource('Role', 'sre', { description: 'SRE' }),
      ),
      liveOf([]),
    );
    expect(p.diagnostics).toEqual([]);
    expect(changeOf(p, 'User', 'ada@example.com').dependsOn).toEqual(['Role/sre']);
    expect(changeOf(p, 'User', 'grace@example.com').dependsOn).toEqual([]);
  });

  it('role members are deferrable: resolved (case-insensitively) but no dependency edge', () => {
    const p = plan(
      desiredOf(resource('Role', 'sre', { members: ['Ada@Example.com'] }), resource('User', 'ada@example.com', { name: 'Ada', role: 'sre' })),
      liveOf([]),
    );
    expect(p.diagnostics).toEqual([]);
    expect(changeOf(p, 'Role', 'sre').dependsOn).toEqual([]);
    expect(changeOf(p, 'User', 'ada@example.com').dependsOn).toEqual(['Role/sre']);
  });

  it('a starred query owner resolves by email against live users; an unknown owner is an error', () => {
    const ada = wire.user('usr_ada', 'ada@example.com', 'Ada');
    const ok = plan(desiredOf(resource('StarredQuery', 'q', { owner: 'ADA@example.com', query: { apl: 'x' } })), liveOf([ada]));
    expect(ok.diagnostics).toEqual([]);
    const bad = plan(desiredOf(resource('StarredQuery', 'q', { owner: 'bob@example.com', query: { apl: 'x' } })), liveOf([ada]));
    expect(bad.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(/^spec\.owner: no User named "bob@example\.com" is declared or exists live/),
    ]);
  });

  it('a reference to an object this plan deletes is an error', () => {
    const p = plan(
      desiredOf(resource('Monitor', 'm', monitorSpec(['slack']))),
      liveOf([slackLive, ...Array.from({ length: 4 }, (_, i) => wire.notifier(`notify_${i}`, `n${i}`, { webhook: { url: 'https://e.example.com' } }))]),
      inventoryOf([owns(slackLive, 'slack')]),
      policyOf({ prune: true, allowEmpty: true }),
    );
    expect(changeOf(p, 'Notifier', 'slack').action).toBe('delete');
    expect(p.diagnostics.map((d) => d.code)).toEqual(['reference-to-deleted']);
  });

  describe('a notifier id the notifier list does not show (id:<id>)', () => {
    const live = wire.monitor('mon_1', 'm', { type: 'MatchEvent', aplQuery: "['http']", notifierIds: ['notify_slack', 'notify_gone'] });

    it('a file that leaves it out is refused: the write would detach it', () => {
      const p = plan(desiredOf(resource('Monitor', 'm', monitorSpec(['slack']))), liveOf([slackLive, live]), inventoryOf([owns(live, 'm')]));
      expect(changeOf(p, 'Monitor', 'm')).toMatchObject({
        action: 'refused',
        diffs: [{ path: 'notifiers', before: ['slack', 'id:notify_gone'], after: ['slack'] }],
      });
      expect(p.diagnostics).toMatchObject([
        { severity: 'error', code: 'unlisted-reference-dropped', field: 'spec.notifiers', message: expect.stringContaining('notifiers: id:notify_gone') },
      ]);
    });

    it('wsync/detach-unlisted: "true" lets the update drop it', () => {
      const annotations = { 'wsync/detach-unlisted': 'true' };
      const p = plan(desiredOf(resource('Monitor', 'm', monitorSpec(['slack']), { annotations })), liveOf([slackLive, live]), inventoryOf([owns(live, 'm')]));
      expect(changeOf(p, 'Monitor', 'm')).toMatchObject({ action: 'update' });
      expect(p.diagnostics).toEqual([]);
    });

    it('a file that keeps it as id:<id> plans no change, and other changes send it', () => {
      const kept = plan(desiredOf(resource('Monitor', 'm', monitorSpec(['slack', 'id:notify_gone']))), liveOf([slackLive, live]), inventoryOf([owns(live, 'm')]));
      expect(changeOf(kept, 'Monitor', 'm').action).toBe('noop');
      expect(kept.diagnostics).toEqual([]);
      const edited = plan(
        desiredOf(resource('Monitor', 'm', { ...monitorSpec(['slack', 'id:notify_gone']), description: 'new' })),
        liveOf([slackLive, live]),
        inventoryOf([owns(live, 'm')]),
      );
      expect(changeOf(edited, 'Monitor', 'm')).toMatchObject({ action: 'update', diffs: [{ path: 'description', after: 'new' }] });
    });
  });
});

describe('NameIndex and resolveIdFromLive (shared with apply)', () => {
  const ada = wire.user('usr_ada', 'Ada@Example.com', 'Ada');
  const q = wire.starred('sq_1', 'Slow', 'usr_ada', { query: { apl: 'x' } });
  const twinA = wire.role('role_a', 'dup');
  const twinB = wire.role('role_b', 'dup');
  const live = liveOf([q, ada, twinA, twinB, slackLive]);

  it('maps live ids to natural keys, including keys that depend on another object (owner/name)', () => {
    const keyOf = resolveIdFromLive(live);
    expect(keyOf('User', 'usr_ada')).toBe('ada@example.com');
    expect(keyOf('StarredQuery', 'sq_1')).toBe('ada@example.com/Slow');
    expect(keyOf('Notifier', 'nope')).toBeUndefined();
  });

  it('resolves names to ids for unambiguous objects only, and learns created ids', () => {
    const names = buildNameIndex(desiredOf(resource('Notifier', 'pager', { properties: {} })), live);
    expect(names.resolve('User', 'ADA@example.com')).toBe('usr_ada');
    expect(names.resolve('Notifier', 'slack')).toBe('notify_slack');
    expect(names.resolve('Role', 'dup')).toBeUndefined();
    expect(names.ambiguousIds('Role', 'dup')).toEqual(['role_a', 'role_b']);
    expect(names.isDeclared('Notifier', 'pager')).toBe(true);
    expect(names.resolve('Notifier', 'pager')).toBeUndefined();
    names.set('Notifier', 'pager', 'notify_new');
    expect(names.resolve('Notifier', 'pager')).toBe('notify_new');
  });
});
