// One valid request per in-scope operation (and one that breaks the OpenAPI request schema), with
// the objects they need created through the admin token first.
import type { TestEmulator } from '../support/emulator.js';

export interface Fixtures {
  notifierId: string;
  userId: string;
  roleId: string;
  monitorId: string;
  vfieldId: string;
  starredQueryId: string;
  annotationId: string;
  tokenId: string;
  orgId: string;
  /** A dataset of its own (PUT and DELETE need one), with the map field `attributes`. */
  datasetId: string;
  groupId: string;
  /** A view's id is its name. */
  viewId: string;
  dashboardUid: string;
}

let counter = 0;
export const unique = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;
const inOneDay = (): string => new Date(Date.now() + 24 * 3600 * 1000).toISOString();
const inOneWeek = (): string => new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();

export const bodies = {
  notifier: () => ({ name: unique('notifier'), properties: { slack: { slackUrl: 'https://hooks.slack.com/services/T/B/X' } } }),
  user: () => ({ name: 'Test User', email: `${unique('user')}@example.com`, role: 'user' }),
  role: (fx: { userId: string }) => ({
    name: unique('role'),
    description: 'test role',
    members: [fx.userId],
    orgCapabilities: { monitors: ['read'] },
  }),
  monitor: (fx: { notifierId: string }) => ({
    name: unique('monitor'),
    type: 'Threshold',
    aplQuery: "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)",
    operator: 'Above',
    threshold: 25,
    intervalMinutes: 5,
    rangeMinutes: 10,
    notifierIds: [fx.notifierId],
  }),
  vfield: () => ({ dataset: 'checkout', name: unique('vfield'), expression: 'status >= 500', type: 'bool' }),
  starredQuery: (fx: { userId: string }) => ({
    kind: 'apl',
    name: unique('query'),
    who: fx.userId,
    dataset: 'checkout',
    query: { apl: "['checkout'] | count" },
    metadata: {},
  }),
  annotation: () => ({ datasets: ['checkout'], type: 'deploy', title: unique('deploy'), time: new Date().toISOString() }),
  token: () => ({ name: unique('token'), orgCapabilities: { monitors: ['read'] } }),
  org: () => ({ name: unique('Org') }),
  dataset: () => ({ name: unique('ds'), description: 'made by a test' }),
  group: (fx: { userId: string; roleId: string }) => ({ name: unique('group'), description: 'test group', members: [fx.userId], roles: [fx.roleId] }),
  view: () => ({ name: unique('view'), aplQuery: "['checkout'] | where status >= 500", datasets: ['checkout'], description: 'errors' }),
  dashboard: () => ({
    dashboard: {
      name: unique('Board'),
      owner: 'X-AXIOM-EVERYONE',
      charts: [{ id: 'errors', type: 'TimeSeries', query: { apl: "['checkout'] | count" } }],
      layout: [{ i: 'errors', x: 0, y: 0, w: 6, h: 4 }],
      refreshTime: 60,
      schemaVersion: 2,
      timeWindowStart: 'qr-now-1h',
      timeWindowEnd: 'qr-now',
    },
  }),
};

export async function createFixtures(harness: TestEmulator): Promise<Fixtures> {
  const id = async (path: string, body: unknown): Promise<string> =>
    String((await harness.ok<{ id: string }>('POST', path, body)).id);
  const notifierId = await id('/v2/notifiers', bodies.notifier());
  const userId = await id('/v2/users', bodies.user());
  const roleId = await id('/v2/rbac/roles', bodies.role({ userId }));
  const datasetId = await id('/v2/datasets', bodies.dataset());
  await harness.ok('POST', `/v2/datasets/${datasetId}/mapfields`, { name: 'attributes' });
  const view = bodies.view();
  await harness.ok('POST', '/v2/views', view);
  return {
    notifierId,
    userId,
    roleId,
    datasetId,
    groupId: await id('/v2/rbac/groups', bodies.group({ userId, roleId })),
    viewId: view.name,
    monitorId: await id('/v2/monitors', bodies.monitor({ notifierId })),
    vfieldId: await id('/v2/vfields', bodies.vfield()),
    starredQueryId: await id('/v2/apl-starred-queries', bodies.starredQuery({ userId })),
    annotationId: await id('/v2/annotations', bodies.annotation()),
    tokenId: await id('/v2/tokens', bodies.token()),
    orgId: await id('/v2/orgs', bodies.org()),
    // A dashboard is addressed by its uid, and PUT makes one that does not exist yet.
    dashboardUid: (await harness.ok<{ dashboard: { uid: string } }>('PUT', `/v2/dashboards/uid/${unique('board')}`, bodies.dashboard())).dashboard.uid,
  };
}

export interface Operation {
  /** `METHOD /openapi/path/{template}`, as the OpenAPI document names it (without /v2). */
  op: string;
  path(fx: Fixtures): string;
  body?(fx: Fixtures): unknown;
  /** The success status when the document lists more than one (a dashboard POST: 201 created, 200 updated). */
  status?: number;
  /**
   * The capability the emulator requires where the document's security entry names none (the
   * dashboards paths: the `dashboards` org capability exists; docs/wire-contract.md "Dashboards").
   */
  capability?: string;
  /** A body that violates the OpenAPI request schema. */
  invalidBody?(fx: Fixtures): unknown;
}

export const OPERATIONS: Operation[] = [
  {
    op: 'GET /annotations',
    path: () => '/annotations?datasets=checkout&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z',
  },
  {
    op: 'POST /annotations',
    path: () => '/annotations',
    body: bodies.annotation,
    invalidBody: () => ({ datasets: ['checkout'], type: 'Not A Slug' }),
  },
  { op: 'GET /annotations/{id}', path: (fx) => `/annotations/${fx.annotationId}` },
  {
    op: 'PUT /annotations/{id}',
    path: (fx) => `/annotations/${fx.annotationId}`,
    body: () => ({ title: 'renamed', description: 'moved', url: 'https://example.com/pr/1' }),
    invalidBody: () => ({ title: 42 }),
  },
  { op: 'DELETE /annotations/{id}', path: (fx) => `/annotations/${fx.annotationId}` },
  { op: 'GET /dashboards', path: () => '/dashboards?limit=10&offset=0', capability: 'dashboards|read' },
  {
    op: 'POST /dashboards',
    path: () => '/dashboards',
    status: 201,
    capability: 'dashboards|create',
    body: () => ({ uid: unique('board'), ...bodies.dashboard() }),
    invalidBody: () => ({ dashboard: { name: 5 } }),
  },
  { op: 'GET /dashboards/uid/{uid}', path: (fx) => `/dashboards/uid/${fx.dashboardUid}`, capability: 'dashboards|read' },
  {
    op: 'PUT /dashboards/uid/{uid}',
    path: (fx) => `/dashboards/uid/${fx.dashboardUid}`,
    capability: 'dashboards|update',
    body: () => ({ ...bodies.dashboard(), overwrite: true, message: 'from a test' }),
    invalidBody: () => ({ dashboard: { ...bodies.dashboard().dashboard, refreshTime: 'often' } }),
  },
  { op: 'DELETE /dashboards/uid/{uid}', path: (fx) => `/dashboards/uid/${fx.dashboardUid}`, capability: 'dashboards|delete' },
  { op: 'GET /datasets', path: () => '/datasets' },
  {
    op: 'POST /datasets',
    path: () => '/datasets',
    body: () => ({ name: unique('ds'), description: 'made by a test' }),
    invalidBody: () => ({ name: 5 }),
  },
  { op: 'GET /datasets/{dataset_id}', path: () => '/datasets/checkout' },
  {
    op: 'PUT /datasets/{dataset_id}',
    path: (fx) => `/datasets/${fx.datasetId}`,
    body: () => ({ description: 'changed', retentionDays: 7, useRetentionPeriod: true }),
    invalidBody: () => ({ retentionDays: 'a week' }),
  },
  { op: 'DELETE /datasets/{dataset_id}', path: (fx) => `/datasets/${fx.datasetId}` },
  { op: 'GET /datasets/{dataset_id}/mapfields', path: (fx) => `/datasets/${fx.datasetId}/mapfields` },
  {
    op: 'PUT /datasets/{dataset_id}/mapfields',
    path: (fx) => `/datasets/${fx.datasetId}/mapfields`,
    body: () => ['attributes', 'resource'],
    invalidBody: () => [7],
  },
  {
    op: 'POST /datasets/{dataset_id}/mapfields',
    path: (fx) => `/datasets/${fx.datasetId}/mapfields`,
    body: () => ({ name: 'labels' }),
    invalidBody: () => ({ name: 7 }),
  },
  {
    op: 'DELETE /datasets/{dataset_id}/mapfields/{map_field_name}',
    path: (fx) => `/datasets/${fx.datasetId}/mapfields/attributes`,
  },
  { op: 'GET /datasets/{dataset_id}/fields', path: () => '/datasets/checkout/fields' },
  { op: 'GET /datasets/{dataset_id}/fields/{field_id}', path: () => '/datasets/checkout/fields/status' },
  {
    op: 'PUT /datasets/{dataset_id}/fields/{field_id}',
    path: () => '/datasets/checkout/fields/duration_ms',
    body: () => ({ name: 'duration_ms', type: 'float', description: 'request duration', unit: 'ms', hidden: false }),
    invalidBody: () => ({ name: 'duration_ms', type: 7 }),
  },
  { op: 'GET /monitors', path: () => '/monitors' },
  {
    op: 'POST /monitors',
    path: () => '/monitors',
    body: bodies.monitor,
    invalidBody: (fx) => ({ ...bodies.monitor(fx), intervalMinutes: 0 }),
  },
  { op: 'GET /monitors/{id}', path: (fx) => `/monitors/${fx.monitorId}` },
  {
    op: 'PUT /monitors/{id}',
    path: (fx) => `/monitors/${fx.monitorId}`,
    body: (fx) => ({ ...bodies.monitor(fx), threshold: 50, disabled: true }),
    invalidBody: (fx) => ({ ...bodies.monitor(fx), operator: 'Sideways' }),
  },
  { op: 'DELETE /monitors/{id}', path: (fx) => `/monitors/${fx.monitorId}` },
  { op: 'GET /notifiers', path: () => '/notifiers' },
  {
    op: 'POST /notifiers',
    path: () => '/notifiers',
    body: bodies.notifier,
    invalidBody: () => ({ name: 'no properties' }),
  },
  { op: 'GET /notifiers/{id}', path: (fx) => `/notifiers/${fx.notifierId}` },
  {
    op: 'PUT /notifiers/{id}',
    path: (fx) => `/notifiers/${fx.notifierId}`,
    body: () => ({ name: unique('notifier'), properties: { pagerduty: { routingKey: 'rk', token: 'tk' } } }),
    invalidBody: () => ({ name: 'x', properties: { email: { emails: 'not-a-list' } } }),
  },
  { op: 'DELETE /notifiers/{id}', path: (fx) => `/notifiers/${fx.notifierId}` },
  { op: 'GET /orgs', path: () => '/orgs' },
  { op: 'POST /orgs', path: () => '/orgs', body: bodies.org, invalidBody: () => ({ name: 42 }) },
  { op: 'GET /orgs/{id}', path: (fx) => `/orgs/${fx.orgId}` },
  {
    op: 'PUT /orgs/{id}',
    path: (fx) => `/orgs/${fx.orgId}`,
    body: () => ({ name: unique('Renamed') }),
    invalidBody: () => ({}),
  },
  { op: 'GET /rbac/roles', path: () => '/rbac/roles' },
  {
    op: 'POST /rbac/roles',
    path: () => '/rbac/roles',
    body: bodies.role,
    invalidBody: () => ({ name: 'r', orgCapabilities: { monitors: ['fly'] } }),
  },
  { op: 'GET /rbac/roles/{id}', path: (fx) => `/rbac/roles/${fx.roleId}` },
  {
    op: 'PUT /rbac/roles/{id}',
    path: (fx) => `/rbac/roles/${fx.roleId}`,
    body: (fx) => ({ ...bodies.role(fx), datasetCapabilities: { checkout: { query: ['read'] } } }),
    invalidBody: () => ({ description: 'no name' }),
  },
  { op: 'DELETE /rbac/roles/{id}', path: (fx) => `/rbac/roles/${fx.roleId}` },
  { op: 'GET /rbac/groups', path: () => '/rbac/groups' },
  {
    op: 'POST /rbac/groups',
    path: () => '/rbac/groups',
    body: bodies.group,
    invalidBody: () => ({ description: 'no name' }),
  },
  { op: 'GET /rbac/groups/{id}', path: (fx) => `/rbac/groups/${fx.groupId}` },
  {
    op: 'PUT /rbac/groups/{id}',
    path: (fx) => `/rbac/groups/${fx.groupId}`,
    body: (fx) => ({ ...bodies.group(fx), members: [] }),
    invalidBody: () => ({ name: 'g', members: 'everyone' }),
  },
  { op: 'DELETE /rbac/groups/{id}', path: (fx) => `/rbac/groups/${fx.groupId}` },
  { op: 'GET /apl-starred-queries', path: () => '/apl-starred-queries?who=all&limit=10' },
  {
    op: 'POST /apl-starred-queries',
    path: () => '/apl-starred-queries',
    body: bodies.starredQuery,
    invalidBody: (fx) => ({ ...bodies.starredQuery(fx), kind: 'sql' }),
  },
  { op: 'GET /apl-starred-queries/{id}', path: (fx) => `/apl-starred-queries/${fx.starredQueryId}` },
  {
    op: 'PUT /apl-starred-queries/{id}',
    path: (fx) => `/apl-starred-queries/${fx.starredQueryId}`,
    body: (fx) => ({ ...bodies.starredQuery(fx), query: { apl: "['checkout'] | take 10", queryOptions: { priority: 'low' } } }),
    invalidBody: (fx) => ({ ...bodies.starredQuery(fx), query: { apl: 'x', queryOptions: { prio: 'low' } } }),
  },
  { op: 'DELETE /apl-starred-queries/{id}', path: (fx) => `/apl-starred-queries/${fx.starredQueryId}` },
  { op: 'GET /tokens', path: () => '/tokens' },
  { op: 'POST /tokens', path: () => '/tokens', body: bodies.token, invalidBody: () => ({ description: 'no name' }) },
  { op: 'GET /tokens/{id}', path: (fx) => `/tokens/${fx.tokenId}` },
  { op: 'DELETE /tokens/{id}', path: (fx) => `/tokens/${fx.tokenId}` },
  {
    op: 'POST /tokens/{id}/regenerate',
    path: (fx) => `/tokens/${fx.tokenId}/regenerate`,
    body: () => ({ existingTokenExpiresAt: inOneDay(), newTokenExpiresAt: inOneWeek() }),
    invalidBody: () => ({ newTokenExpiresAt: inOneWeek() }),
  },
  { op: 'GET /user', path: () => '/user' },
  { op: 'GET /users', path: () => '/users' },
  { op: 'POST /users', path: () => '/users', body: bodies.user, invalidBody: () => ({ name: 'No Role', email: 'x@example.com' }) },
  { op: 'GET /users/{id}', path: (fx) => `/users/${fx.userId}` },
  { op: 'DELETE /users/{id}', path: (fx) => `/users/${fx.userId}` },
  {
    op: 'PUT /users/{id}/role',
    path: (fx) => `/users/${fx.userId}/role`,
    body: () => ({ role: 'read-only' }),
    invalidBody: () => ({ role: 3 }),
  },
  { op: 'GET /vfields', path: () => '/vfields?dataset=checkout' },
  {
    op: 'POST /vfields',
    path: () => '/vfields',
    body: bodies.vfield,
    invalidBody: () => ({ dataset: 'checkout', name: 'no expression' }),
  },
  { op: 'GET /vfields/{id}', path: (fx) => `/vfields/${fx.vfieldId}` },
  {
    op: 'PUT /vfields/{id}',
    path: (fx) => `/vfields/${fx.vfieldId}`,
    body: () => ({ ...bodies.vfield(), unit: 'ms', description: 'changed' }),
    invalidBody: () => ({ ...bodies.vfield(), expression: 3 }),
  },
  { op: 'DELETE /vfields/{id}', path: (fx) => `/vfields/${fx.vfieldId}` },
  { op: 'GET /views', path: () => '/views' },
  { op: 'POST /views', path: () => '/views', body: bodies.view, invalidBody: () => ({ name: 'v' }) },
  { op: 'GET /views/{id}', path: (fx) => `/views/${fx.viewId}` },
  {
    op: 'PUT /views/{id}',
    path: (fx) => `/views/${fx.viewId}`,
    body: (fx) => ({ ...bodies.view(), name: fx.viewId, description: 'changed' }),
    invalidBody: (fx) => ({ name: fx.viewId, aplQuery: 5 }),
  },
  { op: 'DELETE /views/{id}', path: (fx) => `/views/${fx.viewId}` },
];

/** The method of an `op`. */
export const methodOf = (operation: Operation): string => operation.op.split(' ')[0] ?? 'GET';
