import type { GroupSpec } from '../generated/spec-types.js';
import { asString, asStringArray, encodeSegment, namesOf, resolveMany, resolveOne } from './common.js';
import type { KindModule, SpecFields } from './types.js';

export const group: KindModule<GroupSpec> = {
  kind: 'Group',
  plural: 'groups',
  schemaFile: 'group.json',
  // After Users and Roles: its members and roles exist by the time it is written, in one apply.
  level: 3,
  description: 'An RBAC group: users (by email) that hold roles (by name) through it.',
  keyOf: (name) => name,
  list: { style: 'plain', path: '/v2/rbac/groups' },
  read: (id) => ({ method: 'GET', path: `/v2/rbac/groups/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/rbac/groups' },
  update: (id) => ({ method: 'PUT', path: `/v2/rbac/groups/${encodeSegment(id)}` }),
  renamable: true,
  remove: (id) => ({ method: 'DELETE', path: `/v2/rbac/groups/${encodeSegment(id)}` }),
  // Groups made by directory sync belong to the service.
  managedByService: (raw) => raw.isManaged === true,
  addOn: 'RBAC',
  serverOwned: ['id', 'isManaged'],
  secretFields: [],
  setFields: ['members', 'roles'],
  defaults: { description: '', roles: [] },
  // As the Terraform provider's axiom_group: members left out of the file are left alone (an
  // update sends the live ones), `members: []` means none.
  computed: ['members'],
  timestamps: [],
  immutable: [],
  references: [
    { field: 'members', wireField: 'members', target: 'User', many: true },
    { field: 'roles', wireField: 'roles', target: 'Role', many: true },
  ],

  normalize: (spec) => (spec.members ? { ...spec, members: asStringArray(spec.members).map((m) => m.toLowerCase()) } : spec),

  toWire(name, spec, resolve, live) {
    // Members kept from the live group (the file leaves them out) may be users wsync did not read: their ids go back as they came.
    const liveIds = new Set(asStringArray(live?.raw.members));
    const members = asStringArray(spec.members).map((member) =>
      liveIds.has(member) ? member : resolveOne(resolve, 'User', member.toLowerCase(), 'members'),
    );
    return {
      name,
      description: spec.description ?? '',
      members,
      roles: resolveMany(resolve, 'Role', asStringArray(spec.roles), 'roles'),
    };
  },

  fromWire(raw, resolveId) {
    const spec: SpecFields<GroupSpec> = {
      description: asString(raw.description) ?? '',
      members: namesOf(resolveId, 'User', asStringArray(raw.members)),
      roles: namesOf(resolveId, 'Role', asStringArray(raw.roles)),
    };
    return { name: asString(raw.name) ?? '', spec };
  },
};
