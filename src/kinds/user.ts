import { asJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import { asString, encodeSegment, resolveOne } from './common.js';
import type { KindModule } from './types.js';

const BUILTIN_ROLES = ['admin', 'member', 'read-only'] as const;

function isBuiltinRole(role: string): boolean {
  return (BUILTIN_ROLES as readonly string[]).includes(role);
}

export const user: KindModule = {
  kind: 'User',
  plural: 'users',
  schemaFile: 'user.json',
  level: 2,
  description: 'A member of the organization, keyed by email, with a built-in or custom role.',
  keyOf: (name) => name.toLowerCase(),
  list: { style: 'plain', path: '/v2/users' },
  create: { method: 'POST', path: '/v2/users' },
  // Only the role can be changed through the API; name changes are reported, not applied.
  update: (id) => ({ method: 'PUT', path: `/v2/users/${encodeSegment(id)}/role` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/users/${encodeSegment(id)}` }),
  serverOwned: ['id'],
  secretFields: [],
  setFields: [],
  defaults: {},
  computed: [],
  timestamps: [],
  immutable: ['name'],
  references: [{ field: 'role', wireField: 'role', target: 'Role', many: false, builtins: BUILTIN_ROLES }],

  toWire(name, spec, resolve, live): JsonObject {
    const roleName = asString(spec.role) ?? 'member';
    const role = isBuiltinRole(roleName) ? roleName : resolveOne(resolve, 'Role', roleName, 'role');
    if (live) return { role };
    return { email: name, name: spec.name ?? name, role };
  },

  fromWire(raw, resolveId) {
    const roleObj = asJsonObject(raw.role);
    const roleId = asString(roleObj?.id) ?? asString(raw.role) ?? '';
    const roleName = asString(roleObj?.name) ?? roleId;
    const role = isBuiltinRole(roleId) ? roleId : (resolveId('Role', roleId) ?? roleName);
    return { name: (asString(raw.email) ?? '').toLowerCase(), spec: { name: asString(raw.name) ?? '', role } };
  },

  duplicateName(name, id) {
    // metadata.name must stay an email address: plus-address the local part.
    const at = name.lastIndexOf('@');
    const tag = id.replace(/[^A-Za-z0-9._-]/g, '-');
    return at > 0 ? `${name.slice(0, at)}+duplicate-${tag}${name.slice(at)}`.toLowerCase() : `${name} (duplicate ${id})`;
  },

  exportSpec({ name, spec }) {
    if (typeof spec.name === 'string' && spec.name !== '') return { spec };
    return {
      spec: { ...spec, name },
      warning: `User "${name}": the workspace has no name for this user; the file uses the email address`,
    };
  },
};
