import type { JsonObject } from '../core/types.js';
import { asString, encodeSegment, pickDefined } from './common.js';
import type { KindModule } from './types.js';

const FIELDS = ['type', 'datasets', 'description', 'time', 'endTime', 'url'] as const;
/** Texts an update clears with `""`: PUT merges, so a field left out of the body keeps its value. */
const CLEARED_BY_EMPTY = ['description', 'url'] as const;

export const annotation: KindModule = {
  kind: 'Annotation',
  plural: 'annotations',
  schemaFile: 'annotation.json',
  level: 3,
  description: 'A marker on charts (a deploy, an incident), keyed by type and title.',
  keyOf: (name, spec) => `${asString(spec.type) ?? ''}/${name}`,
  list: { style: 'plain', path: '/v2/annotations' },
  read: (id) => ({ method: 'GET', path: `/v2/annotations/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/annotations' },
  update: (id) => ({ method: 'PUT', path: `/v2/annotations/${encodeSegment(id)}` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/annotations/${encodeSegment(id)}` }),
  serviceMade:
    'the service makes annotations by itself (a triggered monitor, a deployment integration), and wsync deletes only ' +
    'annotations it created: use --prune, which deletes those once no file declares them',
  serverOwned: ['id'],
  secretFields: [],
  setFields: ['datasets'],
  defaults: {},
  // Left out, the server stamps the time of creation; that must not read as drift.
  computed: ['time'],
  timestamps: ['time', 'endTime'],
  // No request is known that unsets an end time: PUT merges, and null means "keep".
  uncleared: ['endTime'],
  immutable: [],
  references: [{ field: 'datasets', wireField: 'datasets', target: 'Dataset', many: true, oftenUndeclared: true }],

  toWire(name, spec, _resolve, live) {
    const body: JsonObject = { title: name, ...pickDefined(spec, FIELDS) };
    if (live) for (const field of CLEARED_BY_EMPTY) body[field] ??= '';
    return body;
  },

  fromWire(raw) {
    return { name: asString(raw.title) ?? '', spec: pickDefined(raw, FIELDS) };
  },
};
