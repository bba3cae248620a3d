import { describe, expect, it } from 'vitest';
import type { JsonObject, KindName } from '../../src/core/types.js';
import { dropEmptyObject } from '../../src/core/json.js';
import { UnresolvedReferenceError, withDefaultsFilled } from '../../src/kinds/common.js';
import { KIND_NAMES, KINDS, KINDS_IN_ORDER, parseKindName } from '../../src/kinds/index.js';
import type { ResolveId, ResolveName } from '../../src/kinds/types.js';

const ids: Record<string, string> = {
  'Notifier/oncall-slack': 'notify_1',
  'Notifier/pager': 'notify_2',
  'User/ada@example.com': 'usr_ada',
  'User/grace@example.com': 'usr_grace',
  'Role/sre': 'role_sre',
};
const resolve: ResolveName = (kind, name) => ids[`${kind}/${name}`];
const resolveId: ResolveId = (kind, id) => {
  const hit = Object.entries(ids).find(([k, v]) => v === id && k.startsWith(`${kind}/`));
  return hit ? hit[0].slice(kind.length + 1) : undefined;
};

interface RoundTrip {
  name: string;
  /** The spec in the file form; toWire then fromWire must give it back. */
  spec: JsonObject;
  /** What the server adds to the written body when it lists the object (besides an id). */
  listed?: (wire: JsonObject, spec: JsonObject) => JsonObject;
}

/** Per kind (a new kind does not compile until it has its round trips). */
const roundTrips: Record<KindName, RoundTrip[]> = {
  // Map fields are written by their own request (followUpWrites); the list answers them with the dataset.
  Dataset: [
    {
      name: 'checkout',
      spec: { description: 'd', kind: 'otel:logs:v1', retentionDays: 30, useRetentionPeriod: true, mapFields: ['attributes'] },
      listed: (_wire, spec) => ({ mapFields: spec.mapFields ?? [] }),
    },
  ],
  Group: [{ name: 'on-call', spec: { description: 'd', members: ['ada@example.com'], roles: ['sre'] } }],
  View: [{ name: 'errors', spec: { aplQuery: "['checkout'] | where status >= 500", datasets: ['checkout'], description: 'd' } }],
  Notifier: [{ name: 'oncall-slack', spec: { properties: { slack: { slackUrl: 'https://hooks.example/x' } } } }],
  Monitor: [{ name: 'm', spec: { type: 'Threshold', aplQuery: 'q', operator: 'Above', threshold: 1, notifiers: ['pager', 'oncall-slack'] } }],
  Role: [
    {
      name: 'sre',
      spec: { description: 'd', members: ['ada@example.com'], orgCapabilities: { monitors: ['read'] }, datasetCapabilities: {}, viewCapabilities: {} },
    },
  ],
  User: ['ada@example.com', 'grace@example.com'].map((name, i) => ({
    name,
    spec: { name: i === 0 ? 'Ada' : 'Grace', role: i === 0 ? 'sre' : 'user' },
    listed: (wire: JsonObject, spec: JsonObject) => ({ email: name, role: { id: String(wire.role), name: String(spec.role) } }),
  })),
  // A UserRole writes the role only (`PUT /v2/users/{id}/role`); the list gives the whole user.
  UserRole: ['ada@example.com', 'grace@example.com'].map((name, i) => ({
    name,
    spec: { role: i === 0 ? 'sre' : 'read-only' },
    listed: (wire: JsonObject, spec: JsonObject) => ({ email: name, name: 'Ada', role: { id: String(wire.role), name: String(spec.role) } }),
  })),
  VirtualField: [{ name: 'v', spec: { dataset: 'checkout', expression: 'a + 1', description: 'x' } }],
  // The field's dataset is in the request path, not the body; the reader adds it to what it lists.
  DatasetField: [{ name: 'f', spec: { dataset: 'checkout', description: 'x', unit: 'ms', type: 'string' }, listed: () => ({ dataset: 'checkout' }) }],
  StarredQuery: [{ name: 'q', spec: { owner: 'ada@example.com', dataset: 'checkout', kind: 'apl', metadata: {}, query: { apl: 'x' } } }],
  Annotation: [{ name: 'Deploy', spec: { type: 'deploy', datasets: ['checkout'], time: '2026-01-01T00:00:00.000Z' } }],
  ApiToken: [{ name: 't', spec: { description: '', orgCapabilities: { annotations: ['create'] }, datasetCapabilities: {}, viewCapabilities: {} } }],
  Org: [{ name: 'acme', spec: {} }],
  // The write body is {uid, dashboard}; the list answers the same with the uid inside the document too.
  Dashboard: [
    {
      name: 'checkout',
      spec: {
        dashboard: {
          name: 'Checkout',
          owner: 'X-AXIOM-EVERYONE',
          charts: [{ id: 'n', type: 'Note', text: 'hi' }],
          layout: [{ i: 'n', x: 0, y: 0, w: 12, h: 2 }],
          refreshTime: 60,
          schemaVersion: 2,
          timeWindowStart: 'qr-now-1h',
          timeWindowEnd: 'qr-now',
        },
      },
      listed: (wire) => ({ version: 1, dashboard: { ...(wire.dashboard as JsonObject), uid: 'checkout' } }),
    },
  ],
};

const roundTripRows = KIND_NAMES.flatMap((kind) => roundTrips[kind].map((trip) => [kind, trip.name, trip] as const));

describe('kind modules', () => {
  it.each(roundTripRows)('%s %s: toWire then fromWire gives the spec back (with the defaults toWire sends)', (kind, name, { spec, listed }) => {
    const module = KINDS[kind];
    const wire = module.toWire(name, spec, resolve);
    const back = module.fromWire({ ...wire, id: 'x_1', ...(listed?.(wire, spec) ?? {}) }, resolveId);
    expect(back.name).toBe(name);
    const settled = (s: JsonObject): JsonObject => dropEmptyObject(withDefaultsFilled(s, module.defaults));
    expect(settled(back.spec)).toEqual(settled(spec));
  });

  it('a UserRole writes only the role, never an email or a name, and has no create or delete', () => {
    const module = KINDS.UserRole;
    expect(module.toWire('Ada@Example.com', { role: 'Admin' }, resolve)).toEqual({ role: 'admin' });
    expect(module.toWire('ada@example.com', { role: 'sre' }, resolve)).toEqual({ role: 'role_sre' });
    expect(module.create).toBeUndefined();
    expect(module.remove).toBeUndefined();
    expect(module.update?.('usr_ada', {})).toEqual({ method: 'PUT', path: '/v2/users/usr_ada/role' });
    expect(module.keyOf('Ada@Example.com', {})).toBe('ada@example.com');
    // Exported (only with --kind UserRole), a member's file says the role alone.
    expect(module.exportSpec).toBeUndefined();
    expect(module.fromWire({ id: 'usr_ada', email: 'Ada@Example.com', name: 'Ada', role: { id: 'admin', name: 'Admin' } }, () => undefined)).toEqual({
      name: 'ada@example.com',
      spec: { role: 'admin' },
    });
  });

  it('turns names into ids on the wire', () => {
    const wire = KINDS.Monitor.toWire('m', { type: 'MatchEvent', aplQuery: 'q', notifiers: ['pager'] }, resolve);
    expect(wire.notifierIds).toEqual(['notify_2']);
    expect(wire).not.toHaveProperty('notifiers');
    const query = KINDS.StarredQuery.toWire('q', { owner: 'Ada@Example.com', query: { apl: 'x' } }, resolve);
    expect(query.who).toBe('usr_ada');
  });

  it('throws an UnresolvedReferenceError naming the field for an unknown name', () => {
    expect(() => KINDS.Monitor.toWire('m', { type: 'MatchEvent', aplQuery: 'q', notifiers: ['nope'] }, resolve)).toThrow(
      UnresolvedReferenceError,
    );
  });

  it('sends a user role it cannot resolve as written (the service may know it), and a built-in by its key', () => {
    expect(KINDS.User.toWire('x@example.com', { name: 'X', role: 'ghost-role' }, resolve).role).toBe('ghost-role');
    expect(KINDS.User.toWire('x@example.com', { name: 'X', role: 'Read-Only' }, resolve).role).toBe('read-only');
    expect(KINDS.User.toWire('x@example.com', { name: 'X', role: 'sre' }, resolve).role).toBe('role_sre');
  });

  it('leaves out role members that do not exist yet (written again after the users)', () => {
    const wire = KINDS.Role.toWire('sre', { members: ['ada@example.com', 'new@example.com'] }, resolve);
    expect(wire.members).toEqual(['usr_ada']);
    expect(KINDS.Role.references[0]?.deferrable).toBe(true);
  });

  it('sends only the role when a user is updated', () => {
    const live = { kind: 'User' as const, id: 'usr_ada', raw: { id: 'usr_ada' } };
    expect(KINDS.User.toWire('ada@example.com', { name: 'Ada', role: 'admin' }, resolve, live)).toEqual({ role: 'admin' });
  });

  it('keeps notifier ids it cannot name as id:<id>, which a file can hold and a write sends as that id', () => {
    const back = KINDS.Monitor.fromWire({ id: 'mon_1', name: 'm', type: 'MatchEvent', notifierIds: ['notify_gone'] }, resolveId);
    expect(back.spec.notifiers).toEqual(['id:notify_gone']);
    const body = KINDS.Monitor.toWire('m', { type: 'MatchEvent', aplQuery: 'q', notifiers: ['id:notify_gone'] }, () => undefined);
    expect(body.notifierIds).toEqual(['notify_gone']);
  });

  it('a monitor naming a listed notifier by id:<id> reads back in that form (no drift)', () => {
    const raw = { id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: 'q', notifierIds: ['notify_a', 'notify_b'] };
    const live = KINDS.Monitor.fromWire(raw, (_kind, id) => ({ notify_a: 'a', notify_b: 'b' })[id]);
    const desired = { type: 'MatchEvent', aplQuery: 'q', notifiers: ['a', 'id:notify_b'] };
    expect(KINDS.Monitor.alignLive?.(desired, live.spec, raw).notifiers).toEqual(['a', 'id:notify_b']);
  });

  it('drops null channels that the service returns for unused notifier kinds', () => {
    const back = KINDS.Notifier.fromWire({ id: 'n', name: 'n', properties: { slack: null, email: { emails: ['a@b.c'] } } }, resolveId);
    expect(back.spec).toEqual({ properties: { email: { emails: ['a@b.c'] } } });
  });

  it('addresses dataset fields by dataset and field, keeping the ingest type', () => {
    const live = { kind: 'DatasetField' as const, id: 'checkout/duration_ms', raw: { name: 'duration_ms', type: 'float', dataset: 'checkout' } };
    expect(KINDS.DatasetField.update?.('checkout/duration_ms', {})).toEqual({
      method: 'PUT',
      path: '/v2/datasets/checkout/fields/duration_ms',
    });
    expect(KINDS.DatasetField.toWire('duration_ms', { dataset: 'checkout', unit: 'ms' }, resolve, live)).toEqual({
      name: 'duration_ms',
      description: '',
      hidden: false,
      unit: 'ms',
      type: 'float',
    });
  });

  it('computes natural keys as docs/design.md lists them', () => {
    expect(KINDS.User.keyOf('Ada@Example.com', {})).toBe('ada@example.com');
    expect(KINDS.VirtualField.keyOf('v', { dataset: 'd' })).toBe('d/v');
    expect(KINDS.StarredQuery.keyOf('q', { owner: 'A@b.c' })).toBe('a@b.c/q');
    expect(KINDS.Annotation.keyOf('Deploy', { type: 'deploy', time: '2026-03-01T13:00:00+01:00' })).toBe('deploy/2026-03-01T12:00:00.000Z/Deploy');
    expect(KINDS.Annotation.keyOf('untitled deploy', { type: 'deploy', time: '2026-03-01T12:00:00Z', title: '' })).toBe('deploy/2026-03-01T12:00:00.000Z/');
  });

  it('orders kinds so that referenced kinds come first', () => {
    const order = KINDS_IN_ORDER.map((k) => k.kind);
    for (const module of KINDS_IN_ORDER) {
      for (const ref of module.references) {
        if (ref.deferrable) continue;
        expect(order.indexOf(ref.target), `${module.kind} -> ${ref.target}`).toBeLessThan(order.indexOf(module.kind));
        expect(KINDS[ref.target].level).toBeLessThan(module.level);
      }
    }
  });

  it('never deletes orgs or dataset fields, and cannot create dataset fields', () => {
    expect(KINDS.Org.remove).toBeUndefined();
    expect(KINDS.DatasetField.remove).toBeUndefined();
    expect(KINDS.DatasetField.create).toBeUndefined();
  });

  it('parses kind names the way users type them', () => {
    expect(parseKindName('monitors')).toBe('Monitor');
    expect(parseKindName('ApiToken')).toBe('ApiToken');
    expect(parseKindName('vfields')).toBe('VirtualField');
    expect(parseKindName('starred-queries')).toBe('StarredQuery');
    expect(parseKindName('nope')).toBeUndefined();
  });
});
