// One declared resource per kind with its live twin (equal in meaning, shaped as the emulator
// answers it: defaults filled, sets in another order, timestamps in another form), and what the
// planner does with it. A record by kind: a new kind does not compile until it has its case.
import type { JsonObject, KindName, LiveObject } from '../../src/core/types.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { obj, wire } from './builders.js';

export interface KindCase {
  kind: KindName;
  /** Dependency level of the kind. */
  level: number;
  /** Declared but not live: the reason it is skipped; absent when it is created. */
  whenMissing?: string;
  /** Owned and different: updated in place, or replaced (with this reason). */
  whenChanged: 'update' | { replace: string };
  /** Declared but not live: a plan error (refused), with this message; absent when it is not one. */
  whenMissingError?: string;
  /** Never deleted by wsync, whatever prune says. */
  neverDeleted?: true;
  name: string;
  key: string;
  spec: JsonObject;
  live: LiveObject;
  /** A spec that differs from the live object, and the diff path it gives; absent when nothing can differ (Org). */
  changed?: { spec: JsonObject; path: string };
  /** Other live objects the case needs (the owner of a starred query). */
  context: LiveObject[];
}

const ada = wire.user('usr_ada', 'ada@example.com', 'Ada');

const sreRole = wire.role('role_sre', 'sre');

/** A dashboard document as a file declares it, and as the emulator answers it (uid inside, owner in lower case). */
const board: JsonObject = {
  name: 'Checkout',
  charts: [
    { id: 'errors', type: 'TimeSeries', query: { apl: "['http'] | count" } },
    { id: 'note', type: 'Note', text: 'hello' },
  ],
  layout: [
    { i: 'errors', x: 0, y: 0, w: 6, h: 4 },
    { i: 'note', x: 6, y: 0, w: 6, h: 4 },
  ],
  refreshTime: 60,
  schemaVersion: 2,
  timeWindowStart: 'qr-now-1h',
  timeWindowEnd: 'qr-now',
};

const CASES: Record<KindName, KindCase> = {
  Dataset: {
    kind: 'Dataset',
    level: 0,
    whenChanged: 'update',
    name: 'payments',
    key: 'payments',
    spec: { description: 'Payments', retentionDays: 30, useRetentionPeriod: true, mapFields: ['b', 'a'] },
    live: wire.dataset('payments', { description: 'Payments', retentionDays: 30, useRetentionPeriod: true, mapFields: ['a', 'b'] }),
    changed: { spec: { description: 'Payments', retentionDays: 90, useRetentionPeriod: true, mapFields: ['a', 'b'] }, path: 'retentionDays' },
    context: [],
  },
  Group: {
    kind: 'Group',
    level: 3,
    whenChanged: 'update',
    name: 'on-call',
    key: 'on-call',
    spec: { description: 'Pager', members: ['Ada@Example.com'], roles: ['sre'] },
    live: wire.group('grp_1', 'on-call', { description: 'Pager', members: ['usr_ada'], roles: ['role_sre'] }),
    changed: { spec: { description: 'Pager', members: [], roles: ['sre'] }, path: 'members' },
    context: [ada, sreRole],
  },
  View: {
    kind: 'View',
    level: 3,
    whenChanged: 'update',
    name: 'errors',
    key: 'errors',
    spec: { aplQuery: "['http'] | where status >= 500", datasets: ['http', 'checkout'] },
    live: wire.view('errors', { aplQuery: "['http'] | where status >= 500", datasets: ['checkout', 'http'] }),
    changed: { spec: { aplQuery: "['http'] | where status >= 400", datasets: ['http', 'checkout'] }, path: 'aplQuery' },
    context: [],
  },
  Role: {
    kind: 'Role',
    level: 1,
    whenChanged: 'update',
    name: 'sre',
    key: 'sre',
    spec: { description: 'SREs', orgCapabilities: { monitors: ['read', 'create'] } },
    live: wire.role('role_1', 'sre', { description: 'SREs', orgCapabilities: { monitors: ['create', 'read'] } }),
    changed: { spec: { description: 'Platform', orgCapabilities: { monitors: ['read', 'create'] } }, path: 'description' },
    context: [],
  },
  Notifier: {
    kind: 'Notifier',
    level: 1,
    whenChanged: 'update',
    name: 'team-email',
    key: 'team-email',
    spec: { properties: { email: { emails: ['b@example.com', 'a@example.com'] } } },
    live: wire.notifier('notify_1', 'team-email', { email: { emails: ['a@example.com', 'b@example.com'] } }),
    changed: { spec: { properties: { email: { emails: ['c@example.com'] } } }, path: 'properties.email.emails' },
    context: [],
  },
  Org: {
    kind: 'Org',
    level: 1,
    whenChanged: 'update',
    neverDeleted: true,
    name: 'acme',
    key: 'acme',
    spec: {},
    live: wire.org('org-acme-abc123', 'acme'),
    context: [],
  },
  User: {
    kind: 'User',
    level: 2,
    whenChanged: 'update',
    name: 'Ada@Example.com',
    key: 'ada@example.com',
    spec: { name: 'Ada', role: 'user' },
    live: wire.user('usr_1', 'Ada@Example.com', 'Ada'),
    changed: { spec: { name: 'Ada', role: 'admin' }, path: 'role' },
    context: [],
  },
  UserRole: {
    kind: 'UserRole',
    level: 2,
    whenMissingError:
      'UserRole "lin@example.com": user "Lin@Example.com" is not in the organization: invite them (or let single sign-on make them) ' +
      'before setting their role, or declare them as a User for wsync to invite them',
    whenChanged: 'update',
    neverDeleted: true,
    name: 'Lin@Example.com',
    key: 'lin@example.com',
    spec: { role: 'user' },
    live: { ...wire.user('usr_lin', 'Lin@Example.com', 'Lin'), kind: 'UserRole' },
    changed: { spec: { role: 'admin' }, path: 'role' },
    context: [],
  },
  Monitor: {
    kind: 'Monitor',
    level: 3,
    whenChanged: 'update',
    name: 'errors',
    key: 'errors',
    spec: { type: 'Threshold', aplQuery: "['http'] | count", operator: 'Above', threshold: 25, intervalMinutes: 5, rangeMinutes: 10 },
    live: wire.monitor('mon_1', 'errors', {
      type: 'Threshold',
      aplQuery: "['http'] | count",
      operator: 'Above',
      threshold: 25,
      intervalMinutes: 5,
      rangeMinutes: 10,
    }),
    changed: {
      spec: { type: 'Threshold', aplQuery: "['http'] | count", operator: 'Above', threshold: 30, intervalMinutes: 5, rangeMinutes: 10 },
      path: 'threshold',
    },
    context: [],
  },
  StarredQuery: {
    kind: 'StarredQuery',
    level: 3,
    whenChanged: 'update',
    name: 'Slow',
    key: 'ada@example.com/Slow',
    spec: { owner: 'Ada@Example.com', dataset: 'http', query: { apl: "['http'] | top 10 by d" } },
    live: wire.starred('sq_1', 'Slow', 'usr_ada', { dataset: 'http', query: { apl: "['http'] | top 10 by d" } }),
    changed: { spec: { owner: 'ada@example.com', dataset: 'http', query: { apl: "['http'] | top 5 by d" } }, path: 'query.apl' },
    context: [ada],
  },
  VirtualField: {
    kind: 'VirtualField',
    level: 3,
    whenChanged: 'update',
    name: 'dur',
    key: 'http/dur',
    spec: { dataset: 'http', expression: 'd / 1000' },
    live: wire.vfield('vfld_1', 'dur', { dataset: 'http', expression: 'd / 1000' }),
    changed: { spec: { dataset: 'http', expression: 'd / 1e3', unit: 's' }, path: 'expression' },
    context: [],
  },
  DatasetField: {
    kind: 'DatasetField',
    level: 3,
    whenMissing: 'field "duration_ms" does not exist in dataset "http" yet (fields come from ingest)',
    whenChanged: 'update',
    neverDeleted: true,
    name: 'duration_ms',
    key: 'http/duration_ms',
    spec: { dataset: 'http', description: 'Time to last byte', unit: 'ms' },
    live: wire.field('http', 'duration_ms', { type: 'integer', description: 'Time to last byte', unit: 'ms' }),
    changed: { spec: { dataset: 'http', description: 'Latency', unit: 'ms' }, path: 'description' },
    context: [],
  },
  Annotation: {
    kind: 'Annotation',
    level: 3,
    whenChanged: 'update',
    name: 'Deploy',
    key: 'deploy/2026-03-01T12:00:00.000Z/Deploy',
    spec: { type: 'deploy', datasets: ['http', 'checkout'], time: '2026-03-01T12:00:00Z' },
    live: wire.annotation('ann_1', 'Deploy', { type: 'deploy', datasets: ['checkout', 'http'], time: '2026-03-01T12:00:00.000Z' }),
    changed: { spec: { type: 'deploy', datasets: ['http', 'checkout'], time: '2026-03-01T12:00:00Z', description: 'v2' }, path: 'description' },
    context: [],
  },
  ApiToken: {
    kind: 'ApiToken',
    level: 3,
    whenChanged: { replace: 'API tokens are immutable: regenerate with the new spec' },
    name: 'ci',
    key: 'ci',
    spec: { description: 'CI', orgCapabilities: { annotations: ['read', 'create'] } },
    live: wire.token('tok_1', 'ci', { description: 'CI', orgCapabilities: { annotations: ['create', 'read'] } }),
    changed: { spec: { description: 'CI v2', orgCapabilities: { annotations: ['read', 'create'] } }, path: 'description' },
    context: [],
  },
  Dashboard: {
    kind: 'Dashboard',
    level: 2,
    whenChanged: 'update',
    name: 'checkout',
    key: 'checkout',
    spec: { dashboard: board },
    live: obj('Dashboard', {
      id: 'checkout',
      uid: 'checkout',
      version: 3,
      dashboard: { ...board, owner: 'x-axiom-everyone', uid: 'checkout', layout: [...(board.layout as JsonObject[])].reverse() },
      createdAt: '2026-03-01T12:00:00.000Z',
      updatedAt: '2026-03-01T12:00:00.000Z',
      createdBy: 'usr_1',
      updatedBy: 'usr_1',
    }),
    changed: { spec: { dashboard: { ...board, refreshTime: 300 } }, path: 'dashboard.refreshTime' },
    context: [],
  },
};

export const KIND_CASES: KindCase[] = KIND_NAMES.map((kind) => CASES[kind]);

/** The case of one kind. */
export function caseOf(kind: KindName): KindCase {
  return CASES[kind];
}

export const CHANGEABLE = KIND_CASES.filter((c): c is KindCase & { changed: NonNullable<KindCase['changed']> } => c.changed !== undefined);
