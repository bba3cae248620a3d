// Virtual fields: /v2/vfields. Listing needs ?dataset=; every virtual field's dataset must exist.
// virtualFields capabilities are dataset-scoped: datasetCapabilities["*"] or the dataset's entry.
import { badRequest } from '../errors.js';
import { stringField } from '../json.js';
import { datasetCap, requireDatasetCapability } from '../capabilities.js';
import { json, type RequestContext } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import { assignId, crudRoutes, metaOf, requireDataset, seedWith, withDefaults, type KindModule, type SaveFunction } from './common.js';

const LABEL = 'vfields';
const collection = (workspace: Workspace) => workspace.vfields;

const saveVirtualField: SaveFunction = (workspace, body, meta, label, existing) => {
  requireDataset(workspace, stringField(body, 'dataset') ?? '', label);
  const vfield = withDefaults(
    { id: existing?.id ?? assignId(meta, workspace.vfields, 'vfld', workspace), ...body },
    { description: '', type: '', unit: '' },
  );
  workspace.vfields.put(vfield);
  return vfield;
};

function write(context: RequestContext, existing?: Stored) {
  const body = validateBody('VirtualField', LABEL, context.body);
  const action = existing ? 'update' : 'create';
  requireDatasetCapability(context.caller, 'virtualFields', action, stringField(body, 'dataset'));
  const vfield = saveVirtualField(context.workspace, body, metaOf(context), LABEL, existing);
  context.workspace.changed();
  return json(context.workspace.vfields.viewJson(vfield));
}

export const vfields: KindModule = {
  routes: crudRoutes({
    base: '/v2/vfields',
    noun: 'virtual field',
    collection,
    capability: (action) => datasetCap('virtualFields', action),
    create: (context) => write(context),
    update: write,
    authorize: (context, vfield, action) =>
      requireDatasetCapability(context.caller, 'virtualFields', action, stringField(vfield, 'dataset')),
    list(context) {
      const dataset = context.query.get('dataset');
      if (!dataset) {
        throw badRequest(`${LABEL}: query parameter "dataset" is required, e.g. GET /v2/vfields?dataset=http-logs`);
      }
      requireDatasetCapability(context.caller, 'virtualFields', 'read', dataset);
      requireDataset(context.workspace, dataset, LABEL);
      const matching = [...context.workspace.vfields.values()].filter((vfield) => vfield.dataset === dataset);
      return json(context.workspace.vfields.listJson(matching));
    },
  }),
  seed: seedWith('vfields', 'VirtualField', collection, saveVirtualField),
};
