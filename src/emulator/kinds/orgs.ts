// Orgs: /v2/orgs (list, create, get, rename; never delete). No capability is needed (the OpenAPI
// security entries name none). Names may be anything; ids are `org-<slug>-<6 hex>`.
import { stringField } from '../json.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { crudRoutes, seedWith, writer, type KindModule, type SaveFunction } from './common.js';

const LABEL = 'orgs';
const collection = (workspace: Workspace) => workspace.orgs;

const saveOrg: SaveFunction = (workspace, body, meta, _label, existing) => {
  const seeded = meta.seeded ?? {};
  const name = stringField(body, 'name') ?? '';
  const version = Number(stringField(existing ?? {}, 'metaVersion') ?? '0') + 1;
  const org: Stored = {
    id: existing?.id ?? stringField(seeded, 'id') ?? workspace.ids.nextOrg(name, (id) => workspace.orgs.has(id)),
    name,
    primaryEmail: stringField(existing ?? seeded, 'primaryEmail') ?? meta.email,
    metaCreated: stringField(existing ?? seeded, 'metaCreated') ?? meta.now,
    metaModified: stringField(seeded, 'metaModified') ?? meta.now,
    metaVersion: stringField(seeded, 'metaVersion') ?? String(version),
  };
  workspace.orgs.put(org);
  return org;
};

const createOrg = writer('PostOrg', LABEL, collection, saveOrg);

export const orgs: KindModule = {
  routes: crudRoutes({
    base: '/v2/orgs',
    noun: 'org',
    collection,
    capability: () => undefined,
    create: (context) => createOrg(context),
    update: writer('UpdateOrg', LABEL, collection, saveOrg),
    deletable: false,
  }),
  seed: {
    ...seedWith('orgs', 'PostOrg', collection, saveOrg),
    dump: (workspace) => [...workspace.orgs.values()].map((org) => workspace.orgs.viewOf(org)),
  },
};
