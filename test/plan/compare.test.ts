import { describe, expect, it } from 'vitest';
import type { JsonObject, KindName, LiveObject } from '../../src/core/types.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, resource, wire } from './builders.js';

/** Plans one owned object against one declared spec and returns its change. */
function compare(kind: KindName, name: string, key: string, spec: JsonObject, live: LiveObject, annotations: Record<string, string> = {}, context: LiveObject[] = []) {
  const p = plan(desiredOf(resource(kind, name, spec, { annotations })), liveOf([live, ...context]), inventoryOf([owns(live, key)]));
  return changeOf(p, kind, key);
}

const monitorBase = { type: 'Threshold', aplQuery: 'q', operator: 'Above', threshold: 1 };
const monitorLive = (fields: JsonObject = {}) => wire.monitor('mon_1', 'm', { ...monitorBase, ...fields });

describe('comparison in spec space', () => {
  describe('sets compare without order', () => {
    const cases: Array<[string, KindName, string, string, JsonObject, LiveObject, LiveObject[]]> = [
      ['monitor notifiers', 'Monitor', 'm', 'm', { ...monitorBase, notifiers: ['b', 'a'] }, monitorLive({ notifierIds: ['n_a', 'n_b'] }), [
        wire.notifier('n_a', 'a', { webhook: { url: 'https://a.example.com' } }),
        wire.notifier('n_b', 'b', { webhook: { url: 'https://b.example.com' } }),
      ]],
      ['notifier emails', 'Notifier', 'e', 'e', { properties: { email: { emails: ['z@x.io', 'a@x.io'] } } }, wire.notifier('n1', 'e', { email: { emails: ['a@x.io', 'z@x.io'] } }), []],
      ['role members and capabilities', 'Role', 'r', 'r', {
        members: ['B@x.io', 'a@x.io'],
        orgCapabilities: { monitors: ['update', 'read'] },
        datasetCapabilities: { '*': { query: ['read'], starredQueries: ['read', 'create'] } },
      }, wire.role('role_1', 'r', {
        members: ['u_a', 'u_b'],
        orgCapabilities: { monitors: ['read', 'update'] },
        datasetCapabilities: { '*': { starredQueries: ['create', 'read'], query: ['read'] } },
      }), [wire.user('u_a', 'a@x.io', 'A'), wire.user('u_b', 'b@x.io', 'B')]],
      ['annotation datasets', 'Annotation', 'A', 'deploy/2026-01-01T00:00:00.000Z/A', { type: 'deploy', datasets: ['b', 'a'], time: '2026-01-01T00:00:00Z' }, wire.annotation('ann_1', 'A', { type: 'deploy', datasets: ['a', 'b'], time: '2026-01-01T00:00:00.000Z' }), []],
      ['token capabilities', 'ApiToken', 't', 't', { viewCapabilities: { v: { share: ['read', 'create'] } } }, wire.token('tok_1', 't', { viewCapabilities: { v: { share: ['create', 'read'] } } }), []],
      ['starred query libraries', 'StarredQuery', 'q', 'a@x.io/q', { owner: 'a@x.io', query: { apl: 'x', libraries: ['l2', 'l1'] } }, wire.starred('sq_1', 'q', 'u_a', { query: { apl: 'x', libraries: ['l1', 'l2'] } }), [wire.user('u_a', 'a@x.io', 'A')]],
    ];
    it.each(cases)('%s: same members in another order -> noop', (_label, kind, name, key, spec, live, context) => {
      expect(compare(kind, name, key, spec, live, {}, context)).toMatchObject({ action: 'noop', diffs: [] });
    });

    it('a different member is a diff of the whole set, shown in the file order', () => {
      const change = compare('Notifier', 'e', 'e', { properties: { email: { emails: ['z@x.io', 'b@x.io'] } } }, wire.notifier('n1', 'e', { email: { emails: ['a@x.io', 'z@x.io'] } }));
      expect(change.diffs).toEqual([{ path: 'properties.email.emails', before: ['a@x.io', 'z@x.io'], after: ['z@x.io', 'b@x.io'] }]);
    });

    it('arrays that are not sets keep their order', () => {
      const change = compare('StarredQuery', 'q', 'a@x.io/q', { owner: 'a@x.io', query: { apl: 'x', defaultOrder: [{ field: 'b' }, { field: 'a' }] } },
        wire.starred('sq_1', 'q', 'u_a', { query: { apl: 'x', defaultOrder: [{ field: 'a' }, { field: 'b' }] } }), {}, [wire.user('u_a', 'a@x.io', 'A')]);
      expect(change.diffs.map((d) => d.path)).toEqual(['query.defaultOrder']);
    });
  });

  describe('server defaults: no perpetual diff, but drift from the default is a diff', () => {
    it('every monitor default the file leaves out equals the server default', () => {
      expect(compare('Monitor', 'm', 'm', monitorBase, monitorLive())).toMatchObject({ action: 'noop' });
    });

    it.each<[string, JsonObject, JsonValueLike, JsonValueLike]>([
      ['description', { description: 'set by hand' }, 'set by hand', undefined],
      ['disabled', { disabled: true }, true, false],
      ['secondDelay', { secondDelay: 30 }, 30, 0],
      ['triggerFromNRuns', { triggerFromNRuns: 3 }, 3, 1],
    ])('monitor %s changed by hand, left out of the file -> back to the default', (path, drift, before, after) => {
      const change = compare('Monitor', 'm', 'm', monitorBase, monitorLive(drift));
      expect(change.action).toBe('update');
      const expected: JsonObject = { path };
      if (before !== undefined) expected.before = before;
      if (after !== undefined) expected.after = after;
      expect(change.diffs).toEqual([expected]);
    });

    it('a value equal to the default written in the file is not a diff either', () => {
      expect(compare('Monitor', 'm', 'm', { ...monitorBase, disabled: false, description: '', notifiers: [] }, monitorLive())).toMatchObject({ action: 'noop' });
    });

    it('absent is empty: null, "", [] and {} on either side mean nothing is set', () => {
      const live = wire.notifier('n1', 'w', { webhook: { url: 'https://w.example.com' }, slack: null, email: null }, { disabledUntil: null });
      expect(compare('Notifier', 'w', 'w', { properties: { webhook: { url: 'https://w.example.com' } } }, live)).toMatchObject({ action: 'noop' });
      const sq = wire.starred('sq_1', 'q', 'u_a', { query: { apl: 'x' }, metadata: {} });
      expect(compare('StarredQuery', 'q', 'a@x.io/q', { owner: 'a@x.io', kind: 'apl', metadata: {}, query: { apl: 'x', libraries: [] } }, sq, {}, [wire.user('u_a', 'a@x.io', 'A')])).toMatchObject({ action: 'noop' });
    });

    it('fields the server computes (dataset edge deployment, dataset field type) are no drift when the file leaves them out', () => {
      expect(compare('Dataset', 'logs', 'logs', {}, wire.dataset('logs', { edgeDeployment: 'cloud.us-east-1.aws' }))).toMatchObject({ action: 'noop' });
      expect(compare('DatasetField', 'f', 'http/f', { dataset: 'http' }, wire.field('http', 'f', { type: 'integer' }))).toMatchObject({ action: 'noop' });
      const pinned = compare('DatasetField', 'f', 'http/f', { dataset: 'http', type: 'string' }, wire.field('http', 'f', { type: 'integer' }));
      expect(pinned.diffs).toEqual([{ path: 'type', before: 'integer', after: 'string' }]);
    });
  });

  describe('timestamps compare as instants', () => {
    it('the same instant written differently -> noop; another instant -> diff with the file value', () => {
      const live = monitorLive({ disabledUntil: '2026-05-01T10:00:00.000Z' });
      expect(compare('Monitor', 'm', 'm', { ...monitorBase, disabledUntil: '2026-05-01T12:00:00+02:00' }, live)).toMatchObject({ action: 'noop' });
      expect(compare('Monitor', 'm', 'm', { ...monitorBase, disabledUntil: '2026-05-02T10:00:00Z' }, live).diffs).toEqual([
        { path: 'disabledUntil', before: '2026-05-01T10:00:00.000Z', after: '2026-05-02T10:00:00Z' },
      ]);
    });
  });

  describe('wsync/ignore-fields', () => {
    const live = monitorLive({ description: 'edited in the UI', threshold: 9 });
    it.each([
      ['description', ['threshold']],
      ['description, threshold', []],
      ['threshold,description', []],
      ['nothing.here', ['description', 'threshold']],
    ])('ignore-fields "%s" leaves diffs %j', (ignore, paths) => {
      const change = compare('Monitor', 'm', 'm', monitorBase, live, { 'wsync/ignore-fields': ignore });
      expect(change.diffs.map((d) => d.path)).toEqual(paths);
      expect(change.action).toBe(paths.length > 0 ? 'update' : 'noop');
    });

    it('a prefix ignores its subtree, and * matches any key', () => {
      const role = wire.role('role_1', 'r', { orgCapabilities: { monitors: ['read'], users: ['read'] }, datasetCapabilities: { a: { query: ['read'] } } });
      const spec = { orgCapabilities: { monitors: ['read', 'update'] }, datasetCapabilities: { b: { query: ['read'] } } };
      expect(compare('Role', 'r', 'r', spec, role, { 'wsync/ignore-fields': 'orgCapabilities' }).diffs.map((d) => d.path)).toEqual([
        'datasetCapabilities.a.query',
        'datasetCapabilities.b.query',
      ]);
      expect(compare('Role', 'r', 'r', spec, role, { 'wsync/ignore-fields': 'orgCapabilities,datasetCapabilities.*.query' }).action).toBe('noop');
    });

    it('a create previews every field apply sends: ignored ones included, secrets marked sensitive', () => {
      const annotations = { 'wsync/ignore-fields': 'properties.email.emails,properties.slack' };
      const p = plan(
        desiredOf(
          resource('Notifier', 'e', { properties: { email: { emails: ['a@x.io', 'b@x.io'] } } }, { annotations }),
          resource('Notifier', 's', { properties: { slack: { slackUrl: 'https://hooks.example.com/new' } } }, { annotations }),
        ),
        liveOf([]),
      );
      expect(changeOf(p, 'Notifier', 'e')).toMatchObject({ action: 'create', diffs: [{ path: 'properties.email.emails', after: ['a@x.io', 'b@x.io'] }] });
      const slack = changeOf(p, 'Notifier', 's');
      expect(slack.diffs.map((d) => [d.path, d.sensitive === true])).toEqual([['properties.slack.slackUrl', true]]);
      expect(JSON.stringify(slack)).not.toContain('hooks.example.com/new');
    });

    it('ignoring an object also ignores the secrets under it', () => {
      const live = wire.notifier('n1', 's', { slack: { slackUrl: 'https://hooks.example.com/old' } });
      expect(compare('Notifier', 's', 's', { properties: { slack: { slackUrl: 'https://hooks.example.com/new' } } }, live, { 'wsync/ignore-fields': 'properties.slack' }).action).toBe('noop');
    });
  });

  const owner = [wire.user('u_a', 'a@x.io', 'A')];
  const query = (metadata: JsonObject): JsonObject => ({ owner: 'a@x.io', query: { apl: 'x' }, metadata });

  it('field diffs point at the smallest differing node, absent sides omitted', () => {
    const live = wire.starred('sq_1', 'q', 'u_a', { query: { apl: 'x' }, metadata: { A: '1', B: '2' } });
    const change = compare('StarredQuery', 'q', 'a@x.io/q', query({ A: '1', C: '3' }), live, {}, owner);
    expect(change.diffs).toEqual([
      { path: 'metadata.B', before: '2' },
      { path: 'metadata.C', after: '3' },
    ]);
  });

  it('keys named like prototype members are data, and ignore patterns never reach the prototype', () => {
    const live = wire.starred('sq_1', 'q', 'u_a', { query: { apl: 'x' }, metadata: JSON.parse('{"__proto__": "p", "toString": "t"}') as JsonObject });
    const spec = query(JSON.parse('{"__proto__": "q", "toString": "t"}') as JsonObject);
    const change = compare('StarredQuery', 'q', 'a@x.io/q', spec, live, { 'wsync/ignore-fields': '__proto__.hasOwnProperty,constructor' }, owner);
    expect(change.diffs).toEqual([{ path: 'metadata.__proto__', before: 'p', after: 'q' }]);
    expect(typeof Object.prototype.hasOwnProperty).toBe('function');
    expect(typeof ({} as { constructor?: unknown }).constructor).toBe('function');
  });

  it('custom webhook headers are secrets: a changed, added or removed one is a sensitive diff without values', () => {
    const live = wire.notifier('n1', 'w', { customWebhook: { url: 'https://a.example.com', body: 'b', headers: { Authorization: 'Bearer OLD-7a7a', B: '2' } } });
    const spec = { properties: { customWebhook: { url: 'https://a.example.com', body: 'b', headers: { Authorization: 'Bearer NEW-8b8b', C: '3' } } } };
    const change = compare('Notifier', 'w', 'w', spec, live);
    expect(change.diffs).toEqual([
      { path: 'properties.customWebhook.headers.Authorization', sensitive: true },
      { path: 'properties.customWebhook.headers.B', sensitive: true },
      { path: 'properties.customWebhook.headers.C', sensitive: true },
    ]);
    expect(JSON.stringify(change)).not.toMatch(/OLD-7a7a|NEW-8b8b/);
    const same = compare('Notifier', 'w', 'w', { properties: { customWebhook: { url: 'https://a.example.com', body: 'b', headers: { Authorization: 'Bearer OLD-7a7a', B: '2' } } } }, live);
    expect(same.action).toBe('noop');
  });

  it('a value from ${env:} outside a secret field is compared but never shown', () => {
    const live = monitorLive({ aplQuery: 'old query' });
    const p = plan(
      desiredOf(resource('Monitor', 'm', { ...monitorBase, aplQuery: 'query with a token in it' }, { interpolated: ['/spec/aplQuery'] })),
      liveOf([live]),
      inventoryOf([owns(live, 'm')]),
    );
    expect(changeOf(p, 'Monitor', 'm').diffs).toEqual([{ path: 'aplQuery', sensitive: true }]);
    const same = plan(
      desiredOf(resource('Monitor', 'm', { ...monitorBase, aplQuery: 'old query' }, { interpolated: ['/spec/aplQuery'] })),
      liveOf([live]),
      inventoryOf([owns(live, 'm')]),
    );
    expect(changeOf(same, 'Monitor', 'm').action).toBe('noop');
  });
});

type JsonValueLike = string | number | boolean | undefined;
