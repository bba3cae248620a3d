// The wire view of stored objects where it differs from what is stored.
import { BUILT_IN_ROLES, DEFAULT_EDGE_DEPLOYMENT, EDGE_DEPLOYMENTS } from './constants.js';
import { isJsonObject, stringField, type JsonObject } from './json.js';
import type { Collection, Stored } from './collection.js';

/** PagerDuty routingKey and token come back blank from every read, as the real service does. */
export function notifierView(notifier: Stored): JsonObject {
  const properties = notifier.properties;
  if (!isJsonObject(properties) || !isJsonObject(properties.pagerduty)) return notifier;
  const pagerduty: JsonObject = { ...properties.pagerduty };
  if ('routingKey' in pagerduty) pagerduty.routingKey = '';
  if ('token' in pagerduty) pagerduty.token = '';
  return { ...notifier, properties: { ...properties, pagerduty } };
}

/** The token secret is returned only by create and regenerate. */
export function tokenView(token: Stored): JsonObject {
  const { token: _secret, ...rest } = token;
  return rest;
}

/**
 * A user's stored `role` is a built-in role key or a Role id; the wire has `{id, name}`: the key
 * and its label (`{"id": "user", "name": "User"}`), or the Role's id and name.
 */
export function userView(user: Stored, roles: Collection<Stored>): JsonObject {
  const roleId = stringField(user, 'role') ?? 'user';
  const roleName = BUILT_IN_ROLES[roleId] ?? stringField(roles.get(roleId) ?? {}, 'name') ?? roleId;
  return { id: user.id, name: user.name ?? '', email: user.email ?? '', role: { id: roleId, name: roleName } };
}

/** An Org as the service answers it; the emulator stores only id, name, primaryEmail and meta*. */
export function orgView(org: Stored, rateLimitPerSecond: number): JsonObject {
  const created = stringField(org, 'metaCreated') ?? new Date(0).toISOString();
  const billingEnd = new Date(Date.parse(created) + 30 * 24 * 3600 * 1000).toISOString();
  return {
    id: org.id,
    name: org.name ?? '',
    plan: 'personal',
    planCreated: created,
    defaultEdgeDeployment: DEFAULT_EDGE_DEPLOYMENT,
    lastUsageSync: created,
    paymentStatus: 'na',
    primaryEmail: org.primaryEmail ?? '',
    role: 'admin',
    metaCreated: created,
    metaModified: org.metaModified ?? created,
    metaVersion: org.metaVersion ?? '1',
    license: {
      id: `lic_${org.id}`,
      tier: 'personal',
      issuer: 'wsync-emulator',
      issuedTo: org.id,
      issuedAt: created,
      validFrom: created,
      expiresAt: null,
      billingPeriodStart: created,
      billingPeriodEnd: billingEnd,
      monthlyIngestGb: 500,
      monthlyQueryGbHours: 10,
      apiRateLimitPerSecond: rateLimitPerSecond,
      maxUsers: 1000,
      maxDatasets: 1000,
      maxMonitors: 100000,
      maxFields: 1024,
      maxEndpoints: 100,
      maxQueryWindowSeconds: 2592000,
      maxAuditWindowSeconds: 604800,
      storageAllowanceGB: 100,
      withAuths: [],
      features: {},
      defaultEdgeDeployment: DEFAULT_EDGE_DEPLOYMENT,
      edgeDeployments: [...EDGE_DEPLOYMENTS],
    },
  };
}

/** The owner shared with every user of the org; answered in lower case, as the service has been seen to. */
export const DASHBOARD_EVERYONE = 'x-axiom-everyone';

/**
 * A dashboard as GET /v2/dashboards answers it (DashboardResource): `id` is the server's own id,
 * `uid` the stable one; the document carries the uid and the owner (lower case for everyone).
 */
export function dashboardView(item: Stored): JsonObject {
  const document = isJsonObject(item.dashboard) ? item.dashboard : {};
  const owner = stringField(document, 'owner') ?? '';
  const everyone = owner === '' || owner.toLowerCase() === DASHBOARD_EVERYONE;
  return {
    uid: item.id,
    id: item.dashboardId ?? item.id,
    version: item.version ?? 1,
    dashboard: { ...document, owner: everyone ? DASHBOARD_EVERYONE : owner, uid: item.id },
    createdAt: item.createdAt ?? '',
    updatedAt: item.updatedAt ?? '',
    createdBy: item.createdBy ?? '',
    updatedBy: item.updatedBy ?? '',
  };
}
