import { asJsonObject } from '../core/json.js';
import type { RoleSpec } from '../generated/spec-types.js';
import { asString, asStringArray, DATASET_CAPABILITIES_REFERENCE, encodeSegment, namesOf } from './common.js';
import type { KindModule, SpecFields } from './types.js';

export const role: KindModule<RoleSpec> = {
  kind: 'Role',
  plural: 'roles',
  schemaFile: 'role.json',
  level: 1,
  description: 'A custom role: capabilities and the users that hold it.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/rbac/roles' },
  read: (id) => ({ method: 'GET', path: `/v2/rbac/roles/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/rbac/roles' },
  update: (id) => ({ method: 'PUT', path: `/v2/rbac/roles/${encodeSegment(id)}` }),
  renamable: true,
  remove: (id) => ({ method: 'DELETE', path: `/v2/rbac/roles/${encodeSegment(id)}` }),
  // Custom roles come with role-based access control, an add-on some workspaces do not have.
  addOn: 'RBAC',
  serverOwned: ['id', 'createdAt', 'createdBy', 'updatedAt'],
  secretFields: [],
  setFields: ['members', 'orgCapabilities.*', 'datasetCapabilities.*.*', 'viewCapabilities.*.*'],
  defaults: { description: '', members: [], orgCapabilities: {}, datasetCapabilities: {}, viewCapabilities: {} },
  computed: [],
  timestamps: [],
  immutable: [],
  references: [{ field: 'members', wireField: 'members', target: 'User', many: true, deferrable: true }, DATASET_CAPABILITIES_REFERENCE],

  normalize: (spec) => (spec.members ? { ...spec, members: asStringArray(spec.members).map((m) => m.toLowerCase()) } : spec),

  toWire(name, spec, resolve) {
    // Members created later in the same run are left out here; apply writes the role again after them.
    const members: string[] = [];
    for (const email of asStringArray(spec.members)) {
      const id = resolve('User', email.toLowerCase());
      if (id !== undefined) members.push(id);
    }
    return {
      name,
      description: spec.description ?? '',
      members,
      orgCapabilities: spec.orgCapabilities ?? {},
      datasetCapabilities: spec.datasetCapabilities ?? {},
      viewCapabilities: spec.viewCapabilities ?? {},
    };
  },

  fromWire(raw, resolveId) {
    const spec: SpecFields<RoleSpec> = {
      description: asString(raw.description) ?? '',
      members: namesOf(resolveId, 'User', asStringArray(raw.members)),
      orgCapabilities: asJsonObject(raw.orgCapabilities) ?? {},
      datasetCapabilities: asJsonObject(raw.datasetCapabilities) ?? {},
      viewCapabilities: asJsonObject(raw.viewCapabilities) ?? {},
    };
    return { name: asString(raw.name) ?? '', spec };
  },
};
