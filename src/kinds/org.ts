import type { OrgSpec } from '../generated/spec-types.js';
import { asString, encodeSegment } from './common.js';
import type { KindModule } from './types.js';

export const org: KindModule<OrgSpec> = {
  kind: 'Org',
  plural: 'orgs',
  schemaFile: 'org.json',
  level: 1,
  description: 'An organization, by name: created when missing, never deleted.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/orgs' },
  read: (id) => ({ method: 'GET', path: `/v2/orgs/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/orgs' },
  update: (id) => ({ method: 'PUT', path: `/v2/orgs/${encodeSegment(id)}` }),
  serverOwned: [
    'id',
    'plan',
    'paymentStatus',
    'primaryEmail',
    'role',
    'firstFailedPayment',
    'lastUsageSync',
    'planCreated',
    'metaCreated',
    'metaModified',
    'metaVersion',
    'license',
    'defaultEdgeDeployment',
  ],
  secretFields: [],
  setFields: [],
  defaults: {},
  computed: [],
  timestamps: [],
  immutable: [],
  references: [],

  toWire(name) {
    return { name };
  },

  fromWire(raw) {
    return { name: asString(raw.name) ?? '', spec: {} };
  },
};
