import type { VirtualFieldSpec } from '../generated/spec-types.js';
import { asString, encodeSegment, pickDefined, withDefaultsFilled } from './common.js';
import type { Defaults, KindModule, SpecFields } from './types.js';

const FIELDS = ['dataset', 'expression', 'description', 'type', 'unit'] as const;
const DEFAULTS: Defaults<VirtualFieldSpec> = { description: '', type: '', unit: '' };

export const virtualField: KindModule<VirtualFieldSpec> = {
  kind: 'VirtualField',
  plural: 'vfields',
  schemaFile: 'virtualfield.json',
  level: 3,
  description: 'A field computed at query time from an APL expression, per dataset.',
  keyOf: (name, spec) => `${asString(spec.dataset) ?? ''}/${name}`,
  datasetOf: (spec) => asString(spec.dataset) ?? '',
  list: { style: 'per-dataset', path: '/v2/vfields', datasetIn: 'query' },
  create: { method: 'POST', path: '/v2/vfields' },
  update: (id) => ({ method: 'PUT', path: `/v2/vfields/${encodeSegment(id)}` }),
  renamable: true,
  remove: (id) => ({ method: 'DELETE', path: `/v2/vfields/${encodeSegment(id)}` }),
  serverOwned: ['id', 'createdAt', 'createdBy', 'updatedAt'],
  secretFields: [],
  setFields: [],
  defaults: DEFAULTS,
  computed: [],
  timestamps: [],
  immutable: ['dataset'],
  references: [{ field: 'dataset', wireField: 'dataset', target: 'Dataset', many: false, oftenUndeclared: true }],

  toWire(name, spec) {
    return { name, ...pickDefined(withDefaultsFilled(spec, DEFAULTS), FIELDS) };
  },

  fromWire(raw) {
    const spec: SpecFields<VirtualFieldSpec> = pickDefined(raw, FIELDS);
    return { name: asString(raw.name) ?? '', spec };
  },
};
