import { asString, encodeSegment, pickDefined } from './common.js';
import type { KindModule } from './types.js';

const FIELDS = ['type', 'datasets', 'description', 'time', 'endTime', 'url'] as const;

export const annotation: KindModule = {
  kind: 'Annotation',
  plural: 'annotations',
  schemaFile: 'annotation.json',
  level: 3,
  description: 'A marker on charts (a deploy, an incident), keyed by type and title.',
  keyOf: (name, spec) => `${asString(spec.type) ?? ''}/${name}`,
  list: { style: 'plain', path: '/v2/annotations' },
  create: { method: 'POST', path: '/v2/annotations' },
  update: (id) => ({ method: 'PUT', path: `/v2/annotations/${encodeSegment(id)}` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/annotations/${encodeSegment(id)}` }),
  serverOwned: ['id'],
  secretFields: [],
  setFields: ['datasets'],
  defaults: {},
  // Left out, the server stamps the time of creation; that must not read as drift.
  computed: ['time'],
  timestamps: ['time', 'endTime'],
  immutable: [],
  references: [{ field: 'datasets', wireField: 'datasets', target: 'Dataset', many: true, oftenUndeclared: true }],

  toWire(name, spec) {
    return { title: name, ...pickDefined(spec, FIELDS) };
  },

  fromWire(raw) {
    return { name: asString(raw.title) ?? '', spec: pickDefined(raw, FIELDS) };
  },
};
