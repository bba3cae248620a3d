import { jsonEqual } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { DatasetSpec } from '../generated/spec-types.js';
import { asString, asStringArray, encodeSegment, pickDefined } from './common.js';
import type { KindModule, SpecFields } from './types.js';

const SETTINGS = ['description', 'retentionDays', 'useRetentionPeriod'] as const;
const DEFAULT_KIND = 'axiom:events:v1';

function path(id: string): string {
  return `/v2/datasets/${encodeSegment(id)}`;
}

/** The settings PUT /v2/datasets/{id} takes; the OpenAPI marks both retention fields never omitted. */
function settings(spec: SpecFields<DatasetSpec>): JsonObject {
  return {
    description: spec.description ?? '',
    retentionDays: spec.retentionDays ?? 0,
    useRetentionPeriod: spec.useRetentionPeriod ?? false,
  };
}

function sortedSet(names: string[]): string[] {
  return [...new Set(names)].sort();
}

/** Days of data a dataset keeps: its retention when the period is on, else all of it (Infinity). */
function keptDays(spec: SpecFields<DatasetSpec>): number {
  if (spec.useRetentionPeriod !== true) return Number.POSITIVE_INFINITY;
  return typeof spec.retentionDays === 'number' ? spec.retentionDays : 0;
}

function daysText(days: number): string {
  if (days === Number.POSITIVE_INFINITY) return 'all data (useRetentionPeriod off)';
  return `${days} day${days === 1 ? '' : 's'}`;
}

/**
 * A retention cut: the service deletes events older than the new period, for good. Raising the
 * period, or turning it off, deletes nothing.
 */
function retentionCut(desired: SpecFields<DatasetSpec>, live: SpecFields<DatasetSpec>): string | undefined {
  const before = keptDays(live);
  const after = keptDays(desired);
  if (after >= before) return undefined;
  const zero = after === 0 ? ' (what the service keeps with 0 days is not documented: possibly nothing)' : '';
  return (
    `LOWERS RETENTION from ${daysText(before)} to ${daysText(after)}${zero}: the service deletes the events older than that, ` +
    'and they cannot be recovered'
  );
}

export const dataset: KindModule<DatasetSpec> = {
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
  dataLoss: retentionCut,
  dataLossOptIn: 'lowering a retention deletes data for good; re-run with --allow-data-loss Dataset to apply it',
  serverOwned: ['id', 'created', 'updatedAt', 'who', 'canWrite', 'sharedByOrg', 'edgeDeploymentUrl'],
  secretFields: [],
  setFields: ['mapFields'],
  defaults: { description: '', kind: DEFAULT_KIND, retentionDays: 0, useRetentionPeriod: false, mapFields: [] },
  // Left out, the dataset is made in the org's default edge deployment, which the service reads back.
  computed: ['edgeDeployment'],
  timestamps: [],
  // The API has no way to change a dataset's kind or region: both are chosen at creation.
  immutable: ['kind', 'edgeDeployment'],
  immutableNote:
    "a dataset's kind and edge deployment are chosen at its creation: changing one takes a new dataset " +
    '(delete this one, with all of its data, and create it again)',
  references: [],

  toWire(name, spec, _resolve, live) {
    if (live) return settings(spec);
    const body: JsonObject = { name, kind: spec.kind ?? DEFAULT_KIND, ...settings(spec) };
    // Sent only when declared: the service then uses the org's default.
    if (typeof spec.edgeDeployment === 'string') body.edgeDeployment = spec.edgeDeployment;
    return body;
  },

  fromWire(raw) {
    const spec: SpecFields<DatasetSpec> = pickDefined(raw, [...SETTINGS, 'kind']);
    const edge = asString(raw.edgeDeployment);
    if (edge !== undefined && edge !== '') spec.edgeDeployment = edge;
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
