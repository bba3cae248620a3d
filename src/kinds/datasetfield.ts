import { jsonEqual } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { DatasetFieldSpec } from '../generated/spec-types.js';
import { asString, encodeSegment, pickDefined, withDefaultsFilled } from './common.js';
import type { Defaults, KindModule } from './types.js';

const SETTINGS = ['description', 'hidden', 'unit', 'type'] as const;
const DEFAULTS: Defaults<DatasetFieldSpec> = { description: '', hidden: false, unit: '' };

/** Live ids of dataset fields are `dataset/field`: the API addresses a field by both. */
function splitId(id: string): [string, string] {
  const slash = id.indexOf('/');
  return [id.slice(0, slash), id.slice(slash + 1)];
}

export const datasetField: KindModule<DatasetFieldSpec> = {
  kind: 'DatasetField',
  plural: 'fields',
  schemaFile: 'datasetfield.json',
  level: 3,
  description: 'Settings (description, unit, hidden) of a field that ingest created.',
  keyOf: (name, spec) => `${asString(spec.dataset) ?? ''}/${name}`,
  datasetOf: (spec) => asString(spec.dataset) ?? '',
  list: { style: 'per-dataset', path: '/v2/datasets/{dataset}/fields', datasetIn: 'path' },
  liveObjectFromListItem(item, dataset = '') {
    const name = item.name;
    if (typeof name !== 'string' || name === '') throw new Error('a field without a name');
    return { id: `${dataset}/${name}`, raw: { ...item, dataset } };
  },
  missingReason: (name, spec) =>
    `field "${name}" does not exist in dataset "${asString(spec.dataset) ?? ''}" yet (fields come from ingest)`,
  update: (id) => {
    const [dataset, field] = splitId(id);
    return { method: 'PUT', path: `/v2/datasets/${encodeSegment(dataset)}/fields/${encodeSegment(field)}` };
  },
  serverOwned: ['id'],
  secretFields: [],
  setFields: [],
  defaults: DEFAULTS,
  computed: ['type'],
  timestamps: [],
  immutable: ['dataset'],
  references: [{ field: 'dataset', wireField: 'dataset', target: 'Dataset', many: false, oftenUndeclared: true }],

  toWire(name, spec, _resolve, live) {
    // The field's type comes from ingest; keep the live one unless the file pins it.
    const body: JsonObject = { name, ...pickDefined(withDefaultsFilled(spec, DEFAULTS), SETTINGS) };
    if (body.type === undefined) body.type = live?.raw.type ?? 'string';
    return body;
  },

  fromWire(raw) {
    return { name: asString(raw.name) ?? '', spec: { dataset: raw.dataset ?? '', ...pickDefined(raw, SETTINGS) } };
  },

  exportSpec({ spec }) {
    // Only settings someone changed are worth a file; the type is computed from ingest.
    const { type: _computed, ...settings } = spec;
    const customised = (['description', 'unit', 'hidden'] as const).some(
      (field) => settings[field] !== undefined && !jsonEqual(settings[field], DEFAULTS[field]),
    );
    return customised ? { spec: settings } : {};
  },
};
