// Views: /v2/views. The OpenAPI View has no id although the paths are /views/{id}: a view is
// addressed by its name, which therefore cannot change, and answers carry no id
// (docs/wire-contract.md "Views"). Every dataset a view names must exist.
import { badRequest, conflict } from '../errors.js';
import { stringArrayField, stringField } from '../json.js';
import { orgCap } from '../capabilities.js';
import type { Workspace } from '../store.js';
import { crudRoutes, requireDataset, seedWith, withDefaults, writer, type KindModule, type SaveFunction } from './common.js';

const LABEL = 'views';
const collection = (workspace: Workspace) => workspace.views;

const saveView: SaveFunction = (workspace, body, meta, label, existing) => {
  const name = stringField(body, 'name') ?? '';
  if (name === '') throw badRequest(`${label}: field "name" must not be empty`);
  if (existing && existing.id !== name) {
    throw badRequest(`${label}: a view's name is its id and cannot change ("${existing.id}" to "${name}"); create a new view instead`);
  }
  if (!existing && workspace.views.has(name) && !meta.seeded) throw conflict(`${label}: a view named "${name}" already exists`);
  stringArrayField(body, 'datasets').forEach((dataset) => requireDataset(workspace, dataset, label));
  const view = withDefaults({ ...body, id: name }, { description: '', datasets: [] });
  workspace.views.put(view);
  return view;
};

const write = writer('View', LABEL, collection, saveView);

export const views: KindModule = {
  routes: crudRoutes({
    base: '/v2/views',
    noun: 'view',
    collection,
    capability: (action) => orgCap('views', action),
    create: (context) => write(context),
    update: write,
  }),
  seed: seedWith('views', 'View', collection, saveView),
};
