import { asJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { StarredQuerySpec } from '../generated/spec-types.js';
import { asString, encodeSegment, pickDefined, resolveOne } from './common.js';
import type { KindModule, SpecFields } from './types.js';

export const starredQuery: KindModule<StarredQuerySpec> = {
  kind: 'StarredQuery',
  plural: 'starred-queries',
  schemaFile: 'starredquery.json',
  level: 3,
  description: 'A saved APL query, owned by a user.',
  keyOf: (name, spec) => `${(asString(spec.owner) ?? '').toLowerCase()}/${name}`,
  list: { style: 'paged', path: '/v2/apl-starred-queries', pageSize: 1000, query: { who: 'all' } },
  read: (id) => ({ method: 'GET', path: `/v2/apl-starred-queries/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/apl-starred-queries' },
  update: (id) => ({ method: 'PUT', path: `/v2/apl-starred-queries/${encodeSegment(id)}` }),
  renamable: true,
  remove: (id) => ({ method: 'DELETE', path: `/v2/apl-starred-queries/${encodeSegment(id)}` }),
  serverOwned: ['id', 'createdAt', 'createdBy', 'updatedAt'],
  secretFields: [],
  setFields: ['query.libraries'],
  defaults: { kind: 'apl', metadata: {} },
  computed: [],
  timestamps: [],
  immutable: [],
  references: [
    { field: 'owner', wireField: 'who', target: 'User', many: false },
    { field: 'dataset', wireField: 'dataset', target: 'Dataset', many: false, oftenUndeclared: true },
  ],

  normalize: (spec) => (typeof spec.owner === 'string' ? { ...spec, owner: spec.owner.toLowerCase() } : spec),

  toWire(name, spec, resolve) {
    const owner = (asString(spec.owner) ?? '').toLowerCase();
    const body: JsonObject = {
      name,
      kind: spec.kind ?? 'apl',
      who: resolveOne(resolve, 'User', owner, 'owner'),
      metadata: spec.metadata ?? {},
      query: spec.query ?? { apl: '' },
    };
    if (spec.dataset !== undefined) body.dataset = spec.dataset;
    return body;
  },

  fromWire(raw, resolveId) {
    const who = asString(raw.who) ?? '';
    // `dataset: ""` is a query filed under no dataset, as the service answers one made without.
    const spec: SpecFields<StarredQuerySpec> = {
      owner: resolveId('User', who) ?? who,
      ...pickDefined(raw, raw.dataset === '' ? ['kind'] : ['dataset', 'kind']),
      metadata: asJsonObject(raw.metadata) ?? {},
      query: asJsonObject(raw.query) ?? { apl: '' },
    };
    return { name: asString(raw.name) ?? '', spec };
  },
};
