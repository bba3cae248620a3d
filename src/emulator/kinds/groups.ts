// RBAC groups: /v2/rbac/groups. As for roles, the OpenAPI document asks rbac|create for PUT and
// DELETE too. Members are user ids and roles are custom role ids; both must exist. `isManaged`
// is read-only: the service sets it on groups that directory sync makes (a seed may set it), a
// client cannot, and a managed group cannot be changed or deleted through the API. wsync itself
// keeps its writer lease in a group (src/reconcile/writer-lease.ts).
import { badRequest, conflict, forbidden } from '../errors.js';
import { stringArrayField, stringField } from '../json.js';
import { orgCap } from '../capabilities.js';
import type { Workspace } from '../store.js';
import { assignId, crudRoutes, requireKnownUser, seedWith, withDefaults, writer, type KindModule, type SaveFunction } from './common.js';

const LABEL = 'groups';
const collection = (workspace: Workspace) => workspace.groups;

const saveGroup: SaveFunction = (workspace, body, meta, label, existing) => {
  if (existing?.isManaged === true && !meta.seeded) {
    throw forbidden(`${label}: group "${String(existing.name)}" is managed by directory sync and cannot be changed here`);
  }
  const name = stringField(body, 'name') ?? '';
  const twin = [...workspace.groups.values()].find((group) => group.name === name && group.id !== existing?.id);
  if (twin) throw conflict(`${label}: a group named "${name}" already exists (id ${twin.id})`);
  stringArrayField(body, 'members').forEach((userId, index) => requireKnownUser(workspace, userId, label, `members[${index}]`));
  stringArrayField(body, 'roles').forEach((roleId, index) => {
    if (!workspace.roles.has(roleId)) throw badRequest(`${label}: field "roles[${index}]" names unknown role "${roleId}"`);
  });
  const isManaged = meta.seeded ? meta.seeded.isManaged === true : existing?.isManaged === true;
  const group = withDefaults(
    { id: existing?.id ?? assignId(meta, workspace.groups, 'grp', workspace), ...body, isManaged },
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
    authorize: (_context, group, action) => {
      if (action === 'delete' && group.isManaged === true) {
        throw forbidden(`${LABEL}: group "${String(group.name)}" is managed by directory sync and cannot be deleted here`);
      }
    },
  }),
  seed: seedWith('groups', 'Group', collection, saveGroup),
};
