import type { UserRoleSpec } from '../generated/spec-types.js';
import { asString } from './common.js';
import type { KindModule } from './types.js';
import { MEMBER_ROLE, ROLE_REFERENCE, user } from './user.js';

/**
 * The base role of a user already in the organization (the Terraform provider's `axiom_user_role`):
 * the User kind's role rules, its list and its role endpoint, but never a create or a delete. A user
 * made by single sign-on gets a role from a file without wsync owning the membership.
 */
export const userRole: KindModule<UserRoleSpec> = {
  kind: 'UserRole',
  plural: 'userroles',
  schemaFile: 'userrole.json',
  level: user.level,
  description: "The role of a user already in the organization, keyed by email; the user is never created or deleted.",
  keyOf: user.keyOf,
  list: user.list,
  read: user.read,
  update: user.update,
  serverOwned: user.serverOwned,
  secretFields: [],
  setFields: [],
  defaults: {},
  computed: [],
  timestamps: [],
  immutable: [],
  references: [ROLE_REFERENCE],
  normalize: user.normalize,
  alignLive: user.alignLive,
  duplicateName: user.duplicateName,
  sameObjectsAs: 'User',
  memberRole: MEMBER_ROLE,
  missingIsError: true,
  missingReason: (name) =>
    `user "${name}" is not in the organization: invite them (or let single sign-on make them) before setting their role, ` +
    'or declare them as a User for wsync to invite them',

  toWire(name, spec, resolve, live) {
    return { role: user.toWire(name, spec, resolve, live).role ?? '' };
  },

  fromWire(raw, resolveId) {
    const read = user.fromWire(raw, resolveId);
    return { name: read.name, spec: { role: asString(read.spec.role) ?? 'none' } };
  },
};
