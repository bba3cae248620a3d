import type { JsonObject } from '../core/types.js';
import { asObject, asString, encodeSegment } from './common.js';
import type { KindModule } from './types.js';

export const apiToken: KindModule = {
  kind: 'ApiToken',
  plural: 'tokens',
  schemaFile: 'apitoken.json',
  level: 2,
  description: 'An API token; its secret is written to the token output directory, never logged.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/tokens' },
  create: { method: 'POST', path: '/v2/tokens' },
  // Tokens are immutable: a changed spec regenerates the token with the new spec.
  replace: (id) => ({ method: 'POST', path: `/v2/tokens/${encodeSegment(id)}/regenerate` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/tokens/${encodeSegment(id)}` }),
  serverOwned: ['id', 'token', 'samlAuthenticated', 'createdAt', 'createdBy', 'updatedAt'],
  secretFields: [],
  setFields: ['orgCapabilities.*', 'datasetCapabilities.*.*', 'viewCapabilities.*.*'],
  defaults: { description: '', orgCapabilities: {}, datasetCapabilities: {}, viewCapabilities: {} },
  computed: [],
  timestamps: ['expiresAt'],
  immutable: [],
  references: [],

  toWire(name, spec) {
    const body: JsonObject = {
      name,
      description: spec.description ?? '',
      orgCapabilities: spec.orgCapabilities ?? {},
      datasetCapabilities: spec.datasetCapabilities ?? {},
      viewCapabilities: spec.viewCapabilities ?? {},
    };
    if (spec.expiresAt !== undefined) body.expiresAt = spec.expiresAt;
    return body;
  },

  fromWire(raw) {
    const spec: JsonObject = {
      description: asString(raw.description) ?? '',
      orgCapabilities: asObject(raw.orgCapabilities) ?? {},
      datasetCapabilities: asObject(raw.datasetCapabilities) ?? {},
      viewCapabilities: asObject(raw.viewCapabilities) ?? {},
    };
    const expiresAt = asString(raw.expiresAt);
    if (expiresAt) spec.expiresAt = expiresAt;
    return { name: asString(raw.name) ?? '', spec };
  },
};
