// Turns the seed fixture into the LiveState the list endpoints would give, as plain values, for the
// pure tests: ids assigned, dataset fields flattened, dashboards by uid, PagerDuty secrets blanked,
// token secrets gone.
import type { JsonObject, KindName, LiveObject, LiveState } from '../../src/core/types.js';

const SEED_KINDS: Record<string, KindName> = {
  roles: 'Role',
  users: 'User',
  notifiers: 'Notifier',
  monitors: 'Monitor',
  vfields: 'VirtualField',
  starredQueries: 'StarredQuery',
  annotations: 'Annotation',
  tokens: 'ApiToken',
  orgs: 'Org',
  groups: 'Group',
  views: 'View',
};

const PREFIX: Record<string, string> = {
  Role: 'role',
  User: 'usr',
  Notifier: 'notify',
  Monitor: 'mon',
  VirtualField: 'vfld',
  StarredQuery: 'sq',
  Annotation: 'ann',
  ApiToken: 'tok',
  Org: 'org',
  Group: 'grp',
};

function wireView(kind: KindName, raw: JsonObject): JsonObject {
  if (kind === 'Notifier') {
    const properties = raw.properties as JsonObject;
    const pagerduty = properties.pagerduty as JsonObject | undefined;
    if (!pagerduty) return raw;
    const blanked: JsonObject = { ...pagerduty };
    for (const field of ['routingKey', 'token']) if (field in blanked) blanked[field] = '';
    return { ...raw, properties: { ...properties, pagerduty: blanked } };
  }
  if (kind === 'ApiToken') {
    const { token: _secret, ...rest } = raw;
    return rest;
  }
  return raw;
}

export function liveFromSeed(seed: Record<string, unknown[]>): LiveState {
  const objects: Partial<Record<KindName, LiveObject[]>> = {};
  const add = (kind: KindName, id: string, raw: JsonObject): void => {
    (objects[kind] ??= []).push({ kind, id, raw });
  };
  for (const [key, kind] of Object.entries(SEED_KINDS)) {
    (seed[key] ?? []).forEach((item, index) => {
      const raw = item as JsonObject;
      // A view's id is its name (docs/wire-contract.md).
      const assigned = kind === 'View' ? String(raw.name) : `${PREFIX[kind] ?? 'obj'}_${String(index + 1).padStart(16, '0')}`;
      const id = typeof raw.id === 'string' ? raw.id : assigned;
      add(kind, id, wireView(kind, { ...raw, id }));
    });
  }
  const datasets: string[] = [];
  for (const item of seed.datasets ?? []) {
    const dataset = item as JsonObject;
    const name = String(dataset.name);
    datasets.push(name);
    // As GET /v2/datasets answers it: the server-filled defaults present.
    const { fields: _fields, ...settings } = dataset;
    add('Dataset', name, {
      id: name,
      kind: 'axiom:events:v1',
      description: '',
      retentionDays: 0,
      useRetentionPeriod: false,
      mapFields: [],
      created: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      who: 'Emulator Admin',
      canWrite: true,
      ...settings,
    });
    for (const field of (dataset.fields ?? []) as JsonObject[]) {
      const raw: JsonObject = { description: '', hidden: false, unit: '', ...field, dataset: name };
      add('DatasetField', `${name}/${String(field.name)}`, raw);
    }
  }
  // A dashboard is listed by its uid, the document carrying it too (as the service answers).
  for (const item of seed.dashboards ?? []) {
    const { uid, version, dashboard } = item as { uid: string; version: number; dashboard: JsonObject };
    add('Dashboard', uid, { uid, id: `dash_${uid}`, version, dashboard: { ...dashboard, uid }, createdAt: '2026-01-01T00:00:00.000Z' });
  }
  const listedKinds = [...Object.values(SEED_KINDS), 'Dataset', 'DatasetField', 'Dashboard'] as KindName[];
  return { objects, listedKinds, listedDatasets: { VirtualField: datasets, DatasetField: datasets }, requests: 0 };
}
