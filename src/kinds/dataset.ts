import { jsonEqual } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import { asString, asStringArray, encodeSegment, pickDefined } from './common.js';
import type { KindModule } from './types.js';

const SETTINGS = ['description', 'retentionDays', 'useRetentionPeriod'] as const;
const DEFAULT_KIND = 'axiom:events:v1';

function path(id: string): string {
  return `/v2/datasets/${encodeSegment(id)}`;
}

/** The settings PUT /v2/datasets/{id} takes; the OpenAPI marks both retention fields never omitted. */
function settings(spec: JsonObject): JsonObject {
  return {
    description: spec.description ?? '',
    retentionDays: spec.retentionDays ?? 0,
    useRetentionPeriod: spec.useRetentionPeriod ?? false,
  };
}

function sortedSet(names: string[]): string[] {
  return [...new Set(names)].sort();
}

export const dataset: KindModule = {
  kind: 'Dataset',
  plural: 'datasets',
  schemaFile: 'dataset.json',
  level: 0,
  description: 'A dataset: description, retention, kind and map fields. Its deletion takes its data and needs an opt-in.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/datasets' },
  read: (id) => ({ method: 'GET', path: path(id) }),
  create: { method: 'POST', path: '/v2/datasets' },
  update: (id) => ({ method: 'PUT', path: path(id) }),
  remove: (id) => ({ method: 'DELETE', path: path(id) }),
  deletionOptIn: 'deleting a dataset deletes all of its data; re-run with --allow-delete Dataset to delete it',
  deletionWarning: 'DELETES THE DATASET AND ALL OF ITS DATA (events, fields, virtual fields): this cannot be undone',
  serverOwned: ['id', 'created', 'updatedAt', 'who', 'canWrite', 'sharedByOrg', 'edgeDeployment', 'edgeDeploymentUrl'],
  secretFields: [],
  setFields: ['mapFields'],
  defaults: { description: '', kind: DEFAULT_KIND, retentionDays: 0, useRetentionPeriod: false, mapFields: [] },
  computed: [],
  timestamps: [],
  // The API has no way to change a dataset's kind: it is chosen at creation.
  immutable: ['kind'],
  references: [],

  toWire(name, spec, _resolve, live) {
    if (live) return settings(spec);
    return { name, kind: spec.kind ?? DEFAULT_KIND, ...settings(spec) };
  },

  fromWire(raw) {
    const spec: JsonObject = pickDefined(raw, [...SETTINGS, 'kind']);
    spec.mapFields = asStringArray(raw.mapFields);
    return { name: asString(raw.name) ?? asString(raw.id) ?? '', spec };
  },

  followUpWrites(id, spec, live) {
    // Map fields have their own endpoint; one PUT replaces the whole set.
    const wanted = sortedSet(asStringArray(spec.mapFields));
    const current = sortedSet(asStringArray(live?.raw.mapFields));
    if (jsonEqual(wanted, current)) return [];
    return [{ endpoint: { method: 'PUT', path: `${path(id)}/mapfields` }, body: wanted }];
  },
};
