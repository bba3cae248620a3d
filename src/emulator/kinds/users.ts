// Users: /v2/users, /v2/users/{id}/role and /v2/user (the caller). `role` is a built-in role name
// or a custom Role id; GET answers it as {id, name}. Emails are unique (409).
import { BUILT_IN_ROLES, builtInRole } from '../constants.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { isJsonObject, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { json, jsonOf, type Route } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import { assignId, crudRoutes, dropFromLists, metaOf, seedMeta, type CreateMeta, type KindModule } from './common.js';

const LABEL = 'users';

/** The role to store: a built-in role's key (any letter case is accepted) or a custom Role's id. */
function checkRole(workspace: Workspace, role: string, label: string): string {
  const builtIn = builtInRole(role);
  if (builtIn !== undefined) return builtIn;
  if (workspace.roles.has(role)) {
    if (!workspace.addOns.rbac) throw badRequest(`${label}: custom roles need RBAC, which this workspace does not have`);
    return role;
  }
  throw badRequest(
    `${label}: field "role" must be a built-in role (${Object.keys(BUILT_IN_ROLES).join(', ')}) or a role id from ` +
      `GET /v2/rbac/roles, got "${role}"`,
  );
}

function saveUser(workspace: Workspace, body: JsonObject, meta: CreateMeta, label: string): Stored {
  const email = stringField(body, 'email') ?? '';
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw badRequest(`${label}: field "email" must be an e-mail address`);
  const role = checkRole(workspace, stringField(body, 'role') ?? '', label);
  const id = assignId(meta, workspace.users, 'usr', workspace);
  const lower = email.toLowerCase();
  for (const user of workspace.users.values()) {
    if (user.id !== id && stringField(user, 'email')?.toLowerCase() === lower) {
      throw conflict(`${label}: a user with email "${email}" already exists (${user.id})`);
    }
  }
  const user: Stored = { id, name: stringField(body, 'name') ?? '', email, role };
  workspace.users.put(user);
  return user;
}

const roleRoute: Route = {
  method: 'PUT',
  path: '/v2/users/:id/role',
  capability: orgCap('users', 'update'),
  handle(context) {
    const { workspace } = context;
    const user = workspace.users.get(context.params.id ?? '');
    if (!user) throw notFound(`user "${context.params.id ?? ''}" not found`);
    const body = validateBody('UpdateUserRoleRequest', LABEL, context.body);
    const role = checkRole(workspace, stringField(body, 'role') ?? '', LABEL);
    const updated: Stored = { ...user, role };
    workspace.users.put(updated);
    workspace.changed();
    return json(workspace.users.viewJson(updated));
  },
};

const currentUserRoute: Route = {
  method: 'GET',
  path: '/v2/user',
  handle(context) {
    const { workspace, caller } = context;
    const seeded = workspace.users.get(caller.userId);
    if (seeded) return json(workspace.users.viewJson(seeded));
    return jsonOf({ id: caller.userId, name: caller.name, email: caller.email, role: { id: 'owner', name: 'Owner' } });
  },
};

export const users: KindModule = {
  routes: [
    ...crudRoutes({
      base: '/v2/users',
      noun: 'user',
      collection: (workspace) => workspace.users,
      capability: (action) => orgCap('users', action),
      create(context) {
        const body = validateBody('CreateUserRequest', LABEL, context.body);
        const user = saveUser(context.workspace, body, metaOf(context), LABEL);
        context.workspace.changed();
        return json(context.workspace.users.viewJson(user));
      },
      afterDelete(workspace, deleted) {
        // A deleted user is no longer a member of any role or group.
        dropFromLists(workspace.roles, 'members', deleted.id);
        dropFromLists(workspace.groups, 'members', deleted.id);
      },
    }),
    roleRoute,
    currentUserRoute,
  ],
  seed: {
    key: 'users',
    importItem(workspace, raw, label, now) {
      // A dump gives role as {id, name}; a hand-written seed may give the role name or id.
      const role = isJsonObject(raw.role) ? raw.role.id : raw.role;
      const meta = seedMeta(now, { ...raw });
      const body = validateBody('CreateUserRequest', label, { ...raw, role });
      saveUser(workspace, body, meta, label);
    },
    dump: (workspace) => [...workspace.users.values()].map((user) => workspace.users.viewOf(user)),
  },
};
