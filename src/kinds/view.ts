import type { ViewSpec } from '../generated/spec-types.js';
import { asString, asStringArray, encodeSegment, pickDefined } from './common.js';
import type { KindModule, SpecFields } from './types.js';

export const view: KindModule<ViewSpec> = {
  kind: 'View',
  plural: 'views',
  schemaFile: 'view.json',
  level: 3,
  description: 'A view: a named APL query over datasets, queried like a dataset.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/views' },
  read: (id) => ({ method: 'GET', path: `/v2/views/${encodeSegment(id)}` }),
  liveObjectFromListItem(item) {
    // The OpenAPI View has no id, yet the paths are /views/{id}: a view is addressed by its name
    // unless the answer carries an id (docs/wire-contract.md).
    const id = asString(item.id) || asString(item.name);
    if (id === undefined || id === '') throw new Error('a view without a name or id');
    return { id, raw: item };
  },
  create: { method: 'POST', path: '/v2/views' },
  update: (id) => ({ method: 'PUT', path: `/v2/views/${encodeSegment(id)}` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/views/${encodeSegment(id)}` }),
  serverOwned: ['id', 'sharedByOrg', 'sharedByOrgName'],
  secretFields: [],
  setFields: ['datasets'],
  defaults: { description: '', datasets: [] },
  computed: [],
  timestamps: [],
  immutable: [],
  references: [{ field: 'datasets', wireField: 'datasets', target: 'Dataset', many: true, oftenUndeclared: true }],

  toWire(name, spec) {
    return { name, aplQuery: spec.aplQuery ?? '', datasets: asStringArray(spec.datasets), description: spec.description ?? '' };
  },

  fromWire(raw) {
    const spec: SpecFields<ViewSpec> = { ...pickDefined(raw, ['aplQuery', 'description']), datasets: asStringArray(raw.datasets) };
    return { name: asString(raw.name) ?? '', spec };
  },
};
