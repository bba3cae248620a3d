// Roles: /v2/rbac/roles. Per the OpenAPI document, PUT and DELETE need rbac|create (not update or
// delete). Members are user ids and must exist. A Role's members and a user's role are independent.
import { conflict } from '../errors.js';
import { stringArrayField, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import type { Workspace } from '../store.js';
import { assignId, crudRoutes, dropFromLists, requireKnownUser, seedWith, withDefaults, writer, type KindModule, type SaveFunction } from './common.js';

const LABEL = 'roles';
const collection = (workspace: Workspace) => workspace.roles;

const checkMembers = (workspace: Workspace, role: JsonObject, label: string): void =>
  stringArrayField(role, 'members').forEach((userId, index) =>
    requireKnownUser(workspace, userId, label, `members[${index}]`),
  );

const saveRole: SaveFunction = (workspace, body, meta, label, existing) => {
  // Seeds import roles before users (users may hold custom roles), so seeded members are checked
  // once the whole seed is in (seed.verify).
  if (!meta.seeded) checkMembers(workspace, body, label);
  const role = withDefaults(
    { id: existing?.id ?? assignId(meta, workspace.roles, 'role', workspace), ...body },
    { description: '', members: [], orgCapabilities: {}, datasetCapabilities: {}, viewCapabilities: {} },
  );
  workspace.roles.put(role);
  // Users show their role's name; a rename must reach them.
  workspace.users.invalidateViews();
  return role;
};

const write = writer('Role', LABEL, collection, saveRole);

export const roles: KindModule = {
  routes: crudRoutes({
    base: '/v2/rbac/roles',
    noun: 'role',
    collection,
    capability: (action) => orgCap('rbac', action === 'read' ? 'read' : 'create'),
    create: (context) => write(context),
    update: write,
    // A deleted role is no longer held by any group.
    afterDelete: (workspace, deleted) => dropFromLists(workspace.groups, 'roles', deleted.id),
    authorize: (context, role, action) => {
      if (action !== 'delete') return;
      const holders = [...context.workspace.users.values()].filter((user) => stringField(user, 'role') === role.id);
      if (holders.length > 0) {
        throw conflict(
          `roles: role "${String(role.name)}" is still assigned to ${holders.length} user(s), ` +
            `e.g. ${String(holders[0]?.email)}; give them another role with PUT /v2/users/{id}/role first`,
        );
      }
    },
  }),
  seed: {
    ...seedWith('roles', 'Role', collection, saveRole),
    verify(workspace, source) {
      for (const role of workspace.roles.values()) checkMembers(workspace, role, `${source}: roles "${String(role.name)}"`);
    },
  },
};
