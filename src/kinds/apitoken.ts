import { asJsonObject } from '../core/json.js';
import { isAbsentTime } from '../core/time.js';
import type { JsonObject } from '../core/types.js';
import type { ApiTokenSpec } from '../generated/spec-types.js';
import { asString, DATASET_CAPABILITIES_REFERENCE, encodeSegment } from './common.js';
import type { KindModule, SpecFields } from './types.js';

export const apiToken: KindModule<ApiTokenSpec> = {
  kind: 'ApiToken',
  plural: 'tokens',
  schemaFile: 'apitoken.json',
  level: 3,
  description: 'An API token; its secret is written to the token output directory, never logged.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/tokens' },
  read: (id) => ({ method: 'GET', path: `/v2/tokens/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/tokens' },
  // Tokens are immutable: a changed spec regenerates the token with the new spec. The old one stays
  // valid for a grace period, so the clients using it keep working until they have the new one
  // (docs/wire-contract.md "Token rotation").
  replace: {
    reason: 'API tokens are immutable: regenerate with the new spec',
    graceful: true,
    oldValidUntil(now, graceMs, live) {
      const until = new Date(now.getTime() + graceMs);
      const expiresAt = live && !isAbsentTime(live.expiresAt) ? Date.parse(asString(live.expiresAt) ?? '') : Number.NaN;
      return Number.isNaN(expiresAt) || expiresAt > until.getTime() ? until : new Date(expiresAt);
    },
    request: (id, body, oldValidUntil) => ({
      endpoint: { method: 'POST', path: `/v2/tokens/${encodeSegment(id)}/regenerate` },
      body: { existingTokenExpiresAt: oldValidUntil.toISOString(), newToken: body },
    }),
  },
  remove: (id) => ({ method: 'DELETE', path: `/v2/tokens/${encodeSegment(id)}` }),
  serverOwned: ['id', 'token', 'samlAuthenticated', 'createdAt', 'createdBy', 'updatedAt'],
  secretFields: [],
  // Only the answer to a create or regenerate carries the token; the list never does.
  issuedSecret: { wireField: 'token' },
  setFields: ['orgCapabilities.*', 'datasetCapabilities.*.*', 'viewCapabilities.*.*'],
  defaults: { description: '', orgCapabilities: {}, datasetCapabilities: {}, viewCapabilities: {} },
  computed: [],
  timestamps: ['expiresAt'],
  immutable: [],
  references: [DATASET_CAPABILITIES_REFERENCE],

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
    const spec: SpecFields<ApiTokenSpec> = {
      description: asString(raw.description) ?? '',
      orgCapabilities: asJsonObject(raw.orgCapabilities) ?? {},
      datasetCapabilities: asJsonObject(raw.datasetCapabilities) ?? {},
      viewCapabilities: asJsonObject(raw.viewCapabilities) ?? {},
    };
    const expiresAt = asString(raw.expiresAt);
    if (expiresAt) spec.expiresAt = expiresAt;
    return { name: asString(raw.name) ?? '', spec };
  },
};
