import { asJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/types.js';
import type { UserSpec } from '../generated/spec-types.js';
import { asString, builtinName, encodeSegment } from './common.js';
import type { KindModule, Reference } from './types.js';

/**
 * The base roles of every workspace, as the service's clients know them (docs/wire-contract.md
 * "Users and roles"). Not a closed set: any other name is a Role's, or sent as written.
 */
export const BUILTIN_ROLES = ['owner', 'admin', 'user', 'read-only', 'none'] as const;

/** What the self-lockout guard reads of a member's role (KindModule.memberRole). */
export const MEMBER_ROLE = { field: 'role', owner: 'owner', manages: ['owner', 'admin'] } as const;

export const ROLE_REFERENCE: Reference<'role'> = {
  field: 'role',
  wireField: 'role',
  target: 'Role',
  many: false,
  builtins: BUILTIN_ROLES,
  openValues: true,
};

/** A read gives `role` as `{id, name}` (id: the built-in key or a Role id; name: a label), a string, or null. */
function roleOf(raw: JsonObject): { id: string; name: string } | undefined {
  const role = raw.role;
  if (typeof role === 'string' && role !== '') return { id: role, name: role };
  const object = asJsonObject(role);
  const id = asString(object?.id) ?? '';
  const name = asString(object?.name) ?? '';
  return id === '' && name === '' ? undefined : { id: id || name, name: name || id };
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export const user: KindModule<UserSpec> = {
  kind: 'User',
  plural: 'users',
  schemaFile: 'user.json',
  level: 2,
  description: 'A member of the organization, keyed by email, with a built-in or custom role.',
  keyOf: (name) => name.toLowerCase(),
  list: { style: 'plain', path: '/v2/users' },
  read: (id) => ({ method: 'GET', path: `/v2/users/${encodeSegment(id)}` }),
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
  references: [ROLE_REFERENCE],
  memberRole: MEMBER_ROLE,

  // `Owner` and `owner` are one built-in role.
  normalize(spec) {
    const role = asString(spec.role);
    const builtin = role === undefined ? undefined : builtinName(ROLE_REFERENCE, role);
    return builtin === undefined || builtin === role ? spec : { ...spec, role: builtin };
  },

  alignLive(desired, live, raw) {
    // A role is the one written when its id or its label says so, in any letter case.
    const wanted = asString(desired.role);
    const read = roleOf(raw) ?? { id: 'none', name: 'none' };
    if (wanted === undefined || !(same(wanted, read.id) || same(wanted, read.name))) return live;
    return { ...live, role: wanted };
  },

  toWire(name, spec, resolve, live): JsonObject {
    const written = asString(spec.role) ?? '';
    // A built-in by its key; a Role by its id; any other name as written, for the service to judge.
    const role = builtinName(ROLE_REFERENCE, written) ?? resolve('Role', written) ?? written;
    if (live) return { role };
    return { email: name, name: spec.name ?? name, role };
  },

  fromWire(raw, resolveId) {
    const read = roleOf(raw);
    // No role at all (null) is the base role `none`.
    const role = read === undefined ? 'none' : (builtinName(ROLE_REFERENCE, read.id) ?? resolveId('Role', read.id) ?? read.name);
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
