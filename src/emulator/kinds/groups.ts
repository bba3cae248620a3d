// RBAC groups: /v2/rbac/groups. As for roles, the OpenAPI document has PUT and DELETE need
// rbac|create. Members are user ids and roles are role ids, and both must exist. wsync itself keeps
// its writer lease in a group (src/reconcile/writer-lease.ts).
import { stringArrayField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { badRequest } from '../errors.js';
import type { Workspace } from '../store.js';
import { assignId, crudRoutes, requireKnownUser, seedWith, withDefaults, writer, type KindModule, type SaveFunction } from './common.js';

const LABEL = 'groups';
const collection = (workspace: Workspace) => workspace.groups;

function checkReferences(workspace: Workspace, group: JsonObject, label: string): void {
  stringArrayField(group, 'members').forEach((userId, index) => requireKnownUser(workspace, userId, label, `members[${index}]`));
  stringArrayField(group, 'roles').forEach((roleId, index) => {
    if (!workspace.roles.has(roleId)) throw badRequest(`${label}: field "roles[${index}]" names unknown role "${roleId}"`);
  });
}

const saveGroup: SaveFunction = (workspace, body, meta, label, existing) => {
  checkReferences(workspace, body, label);
  const group = withDefaults(
    { id: existing?.id ?? assignId(meta, workspace.groups, 'grp', workspace), ...body },
    { description: '', members: [], roles: [] },
  );
  workspace.groups.put(group);
  return group;
};

const write = writer('Group', LABEL, collection, saveGroup);

export const groups: KindModule = {
  routes: crudRoutes({
    base: '/v2/rbac/groups',
    noun: 'group',
    collection,
    capability: (action) => orgCap('rbac', action === 'read' ? 'read' : 'create'),
    create: (context) => write(context),
    update: write,
  }),
  seed: seedWith('groups', 'Group', collection, saveGroup),
};
