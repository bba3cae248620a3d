// Datasets (/v2/datasets: list, create, get, update, delete), their fields
// (/v2/datasets/{d}/fields) and their map fields (/v2/datasets/{d}/mapfields). A dataset's id is
// its name. Fields come only from seeding, as ingest would make them; PUT changes an existing
// field's description, hidden, type and unit. Deleting a dataset takes its fields, map fields and
// virtual fields with it (docs/wire-contract.md "Datasets").
import { badRequest, conflict, notFound } from '../errors.js';
import { stringArrayField, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { DEFAULT_EDGE_DEPLOYMENT, EDGE_DEPLOYMENTS } from '../constants.js';
import { json, jsonOf, noContent, type RequestContext, type Route } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody, validateStringArrayBody } from '../validation.js';
import { metaOf, seedMeta, type CreateMeta, type KindModule } from './common.js';

const LABEL = 'datasets';
const FIELDS_LABEL = 'dataset fields';
const MAP_FIELDS_LABEL = 'map fields';
// axiom-go DatasetCreateRequest: up to 80 of [a-zA-Z0-9._-], no special character first or last,
// and not prefixed "axiom-".
const DATASET_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,78}[A-Za-z0-9])?$/;
// The Terraform provider's rule for map field names.
const MAP_FIELD_NAME = /^[a-zA-Z0-9]+([a-zA-Z0-9_.-]*[a-zA-Z0-9]+)?$/;

function checkName(name: string, label: string): void {
  if (!DATASET_NAME.test(name) || name.toLowerCase().startsWith('axiom-')) {
    throw badRequest(
      `${label}: field "name" must be 1 to 80 letters, digits, ".", "_" and "-", start and end with a letter or digit, ` +
        'and not start with "axiom-"',
    );
  }
}

function checkMapFieldName(name: string, label: string): void {
  if (!MAP_FIELD_NAME.test(name)) {
    throw badRequest(`${label}: "${name}" is not a valid map field name (letters, digits, ".", "_" and "-", starting and ending with a letter or digit)`);
  }
}

function checkRetention(body: JsonObject, label: string): void {
  const days = body.retentionDays;
  if (typeof days === 'number' && days < 0) throw badRequest(`${label}: field "retentionDays" must not be negative`);
}

/** The edge deployment a create names (one the workspace offers), else the org's default. */
function edgeDeploymentOf(body: JsonObject, label: string): string {
  const edge = stringField(body, 'edgeDeployment');
  if (edge === undefined || edge === '') return DEFAULT_EDGE_DEPLOYMENT;
  if (!(EDGE_DEPLOYMENTS as readonly string[]).includes(edge)) {
    throw badRequest(`${label}: field "edgeDeployment": unknown edge deployment "${edge}" (this workspace offers ${EDGE_DEPLOYMENTS.join(', ')})`);
  }
  return edge;
}

function saveDataset(workspace: Workspace, body: JsonObject, meta: CreateMeta, label: string): Stored {
  const name = stringField(body, 'name') ?? '';
  checkName(name, label);
  checkRetention(body, label);
  const seeded = meta.seeded ?? {};
  if (!meta.seeded && workspace.datasets.has(name)) throw conflict(`${label}: dataset "${name}" already exists`);
  const mapFields = meta.seeded ? stringArrayField(seeded, 'mapFields') : [];
  mapFields.forEach((field) => checkMapFieldName(field, label));
  const dataset: Stored = {
    id: name,
    name,
    description: stringField(body, 'description') ?? '',
    kind: stringField(body, 'kind') ?? 'axiom:events:v1',
    created: stringField(seeded, 'created') ?? meta.now,
    updatedAt: stringField(seeded, 'updatedAt') ?? meta.now,
    who: stringField(seeded, 'who') ?? meta.name,
    canWrite: true,
    // x-omitempty: false in the OpenAPI document: always answered.
    retentionDays: typeof body.retentionDays === 'number' ? body.retentionDays : 0,
    useRetentionPeriod: body.useRetentionPeriod === true,
    mapFields: [...new Set(mapFields)],
  };
  dataset.edgeDeployment = edgeDeploymentOf(body, label);
  workspace.datasets.put(dataset);
  if (!workspace.datasetFields.has(name)) workspace.datasetFields.set(name, new Map());
  return dataset;
}

function datasetOf(workspace: Workspace, name: string): Stored {
  const dataset = workspace.datasets.get(name);
  if (!dataset) throw notFound(`dataset "${name}" not found`);
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

/** Stores a dataset's new map fields and answers them. */
function saveMapFields(context: RequestContext, dataset: Stored, names: string[]): void {
  context.workspace.datasets.put({ ...dataset, mapFields: names, updatedAt: context.now });
  context.workspace.changed();
}

function updateDataset(context: RequestContext) {
  const dataset = datasetOf(context.workspace, context.params.dataset ?? '');
  const body = validateBody('UpdateDataset', LABEL, context.body);
  checkRetention(body, LABEL);
  // name, kind and edgeDeployment are set at creation only; UpdateDataset does not carry them.
  const updated: Stored = { ...dataset, updatedAt: context.now };
  if (typeof body.description === 'string') updated.description = body.description;
  if (typeof body.retentionDays === 'number') updated.retentionDays = body.retentionDays;
  if (typeof body.useRetentionPeriod === 'boolean') updated.useRetentionPeriod = body.useRetentionPeriod;
  context.workspace.datasets.put(updated);
  context.workspace.changed();
  return json(context.workspace.datasets.viewJson(updated));
}

function deleteDataset(context: RequestContext) {
  const { workspace } = context;
  const dataset = datasetOf(workspace, context.params.dataset ?? '');
  workspace.datasets.delete(dataset.id);
  workspace.datasetFields.delete(dataset.id);
  // The dataset's virtual fields go with its data; starred queries, annotations and views keep
  // naming it (the service's behaviour there is not documented).
  for (const vfield of [...workspace.vfields.values()]) if (vfield.dataset === dataset.id) workspace.vfields.delete(vfield.id);
  workspace.changed();
  return noContent();
}

const mapFieldRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v2/datasets/:dataset/mapfields',
    capability: orgCap('datasets', 'read'),
    handle: (context) => jsonOf(stringArrayField(datasetOf(context.workspace, context.params.dataset ?? ''), 'mapFields')),
  },
  {
    method: 'PUT',
    path: '/v2/datasets/:dataset/mapfields',
    capability: orgCap('datasets', 'update'),
    handle(context) {
      const dataset = datasetOf(context.workspace, context.params.dataset ?? '');
      const names = validateStringArrayBody('MapFields', MAP_FIELDS_LABEL, context.body);
      names.forEach((name) => checkMapFieldName(name, MAP_FIELDS_LABEL));
      const duplicate = names.find((name, index) => names.indexOf(name) !== index);
      if (duplicate !== undefined) throw badRequest(`${MAP_FIELDS_LABEL}: "${duplicate}" is listed twice`);
      saveMapFields(context, dataset, names);
      return jsonOf(names);
    },
  },
  {
    method: 'POST',
    path: '/v2/datasets/:dataset/mapfields',
    capability: orgCap('datasets', 'update'),
    handle(context) {
      const dataset = datasetOf(context.workspace, context.params.dataset ?? '');
      const name = stringField(validateBody('MapField', MAP_FIELDS_LABEL, context.body), 'name') ?? '';
      checkMapFieldName(name, MAP_FIELDS_LABEL);
      const current = stringArrayField(dataset, 'mapFields');
      if (current.includes(name)) throw conflict(`${MAP_FIELDS_LABEL}: "${name}" is already a map field of dataset "${dataset.id}"`);
      saveMapFields(context, dataset, [...current, name]);
      return jsonOf({ name });
    },
  },
  {
    method: 'DELETE',
    path: '/v2/datasets/:dataset/mapfields/:name',
    capability: orgCap('datasets', 'update'),
    handle(context) {
      const dataset = datasetOf(context.workspace, context.params.dataset ?? '');
      const name = context.params.name ?? '';
      const current = stringArrayField(dataset, 'mapFields');
      if (!current.includes(name)) throw notFound(`${MAP_FIELDS_LABEL}: "${name}" is not a map field of dataset "${dataset.id}"`);
      saveMapFields(context, dataset, current.filter((field) => field !== name));
      return noContent();
    },
  },
];

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
    handle: (context) => json(context.workspace.datasets.viewJson(datasetOf(context.workspace, context.params.dataset ?? ''))),
  },
  { method: 'PUT', path: '/v2/datasets/:dataset', capability: orgCap('datasets', 'update'), handle: updateDataset },
  { method: 'DELETE', path: '/v2/datasets/:dataset', capability: orgCap('datasets', 'delete'), handle: deleteDataset },
  ...mapFieldRoutes,
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
