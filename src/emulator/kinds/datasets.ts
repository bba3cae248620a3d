// Datasets (/v2/datasets: list, create, get) and their fields (/v2/datasets/{d}/fields). A
// dataset's id is its name. Fields come only from seeding, as ingest would make them; PUT changes
// an existing field's description, hidden, type and unit.
import { badRequest, conflict, notFound } from '../errors.js';
import { stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { json, jsonOf, type Route } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import { metaOf, seedMeta, type CreateMeta, type KindModule } from './common.js';

const LABEL = 'datasets';
const FIELDS_LABEL = 'dataset fields';
const DATASET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function saveDataset(workspace: Workspace, body: JsonObject, meta: CreateMeta, label: string): Stored {
  const name = stringField(body, 'name') ?? '';
  if (!DATASET_NAME.test(name)) {
    throw badRequest(`${label}: field "name" must start with a letter or digit and use only letters, digits, ".", "_" and "-"`);
  }
  const seeded = meta.seeded ?? {};
  if (!meta.seeded && workspace.datasets.has(name)) throw conflict(`${label}: dataset "${name}" already exists`);
  const dataset: Stored = {
    id: name,
    name,
    description: stringField(body, 'description') ?? '',
    kind: stringField(body, 'kind') ?? 'axiom:events:v1',
    created: stringField(seeded, 'created') ?? meta.now,
    updatedAt: stringField(seeded, 'updatedAt') ?? meta.now,
    who: stringField(seeded, 'who') ?? meta.name,
  };
  for (const optional of ['retentionDays', 'useRetentionPeriod', 'edgeDeployment'] as const) {
    const value = body[optional];
    if (value !== undefined) dataset[optional] = value;
  }
  workspace.datasets.put(dataset);
  if (!workspace.datasetFields.has(name)) workspace.datasetFields.set(name, new Map());
  return dataset;
}

function completeField(field: JsonObject): JsonObject {
  return { name: field.name ?? '', type: field.type ?? '', description: '', hidden: false, unit: '', ...field };
}

function fieldsOf(workspace: Workspace, dataset: string): Map<string, JsonObject> {
  const fields = workspace.datasetFields.get(dataset);
  if (!fields || !workspace.datasets.has(dataset)) throw notFound(`dataset "${dataset}" not found`);
  return fields;
}

function fieldOf(workspace: Workspace, dataset: string, name: string): JsonObject {
  const field = fieldsOf(workspace, dataset).get(name);
  if (!field) {
    throw notFound(`field "${name}" not found in dataset "${dataset}" (fields come from ingest or a seed file)`);
  }
  return field;
}

const routes: Route[] = [
  {
    method: 'GET',
    path: '/v2/datasets',
    handle: (context) => json(context.workspace.datasets.listJson()),
  },
  {
    method: 'POST',
    path: '/v2/datasets',
    capability: orgCap('datasets', 'create'),
    handle(context) {
      const body = validateBody('CreateDataset', LABEL, context.body);
      const dataset = saveDataset(context.workspace, body, metaOf(context), LABEL);
      context.workspace.changed();
      return json(context.workspace.datasets.viewJson(dataset));
    },
  },
  {
    method: 'GET',
    path: '/v2/datasets/:dataset',
    handle(context) {
      const name = context.params.dataset ?? '';
      const dataset = context.workspace.datasets.get(name);
      if (!dataset) throw notFound(`dataset "${name}" not found`);
      return json(context.workspace.datasets.viewJson(dataset));
    },
  },
  {
    method: 'GET',
    path: '/v2/datasets/:dataset/fields',
    capability: orgCap('datasets', 'read'),
    handle: (context) => jsonOf([...fieldsOf(context.workspace, context.params.dataset ?? '').values()]),
  },
  {
    method: 'GET',
    path: '/v2/datasets/:dataset/fields/:field',
    capability: orgCap('datasets', 'read'),
    handle: (context) => jsonOf(fieldOf(context.workspace, context.params.dataset ?? '', context.params.field ?? '')),
  },
  {
    method: 'PUT',
    path: '/v2/datasets/:dataset/fields/:field',
    capability: orgCap('datasets', 'update'),
    handle(context) {
      const dataset = context.params.dataset ?? '';
      const name = context.params.field ?? '';
      fieldOf(context.workspace, dataset, name);
      const body = validateBody('DatasetField', FIELDS_LABEL, context.body);
      if (body.name !== name) {
        throw badRequest(`${FIELDS_LABEL}: field "name" must equal the field in the path ("${name}"), got "${String(body.name)}"`);
      }
      const field = completeField(body);
      fieldsOf(context.workspace, dataset).set(name, field);
      context.workspace.changed();
      return jsonOf(field);
    },
  },
];

export const datasets: KindModule = {
  routes,
  seed: {
    key: 'datasets',
    importItem(workspace, raw, label, now) {
      const rawFields = raw.fields;
      const meta = seedMeta(now, { ...raw });
      const body = validateBody('CreateDataset', label, raw);
      const dataset = saveDataset(workspace, body, meta, label);
      if (rawFields === undefined) return;
      if (!Array.isArray(rawFields)) throw badRequest(`${label}: field "fields" must be an array`);
      const fields = fieldsOf(workspace, dataset.id);
      rawFields.forEach((rawField, index) => {
        const field = completeField(validateBody('DatasetField', `${label}.fields[${index}]`, rawField));
        fields.set(String(field.name), field);
      });
    },
    dump: (workspace) =>
      [...workspace.datasets.values()].map((dataset) => ({
        ...dataset,
        fields: [...(workspace.datasetFields.get(dataset.id)?.values() ?? [])],
      })),
  },
};
