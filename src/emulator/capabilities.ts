// What a caller may do: the capability a route needs (named by the OpenAPI security entry) and the
// checks. The admin token (--token) has every capability; tokens made through POST /v2/tokens have
// exactly their orgCapabilities and datasetCapabilities.
import type { Caller } from './auth.js';
import { forbidden } from './errors.js';
import { isJsonObject, stringArrayField, type JsonObject } from './json.js';

export type Action = 'create' | 'read' | 'update' | 'delete';

/**
 * `org`: granted by the token's orgCapabilities[resource]. `dataset`: granted by
 * datasetCapabilities["*"] or the named dataset's entry (virtualFields, starredQueries); the
 * handler checks the dataset itself once it knows it, the router only that some grant exists.
 */
export interface Capability {
  resource: string;
  action: Action;
  scope: 'org' | 'dataset';
}

export const orgCap = (resource: string, action: Action): Capability => ({ resource, action, scope: 'org' });
export const datasetCap = (resource: string, action: Action): Capability => ({ resource, action, scope: 'dataset' });

const capabilityName = (resource: string, action: string): string => `${resource}|${action}`;

function grants(entry: unknown, resource: string, action: string): boolean {
  return isJsonObject(entry) && stringArrayField(entry, resource).includes(action);
}

/** Whether `caller` holds a dataset capability on every dataset (the admin token, or a grant on "*"). */
export function grantsOnEveryDataset(caller: Caller, resource: string, action: string): boolean {
  const token = caller.token;
  return !token || (isJsonObject(token.datasetCapabilities) && grants(token.datasetCapabilities['*'], resource, action));
}

/** The router's check: org capabilities exactly; dataset capabilities on some dataset at least. */
export function requireCapability(caller: Caller, capability: Capability): void {
  const token = caller.token;
  if (!token) return;
  const { resource, action, scope } = capability;
  if (scope === 'org') {
    if (grants(token.orgCapabilities, resource, action)) return;
    throw forbidden(
      `missing capability "${capabilityName(resource, action)}": ` +
        `token "${String(token.name)}" has no "${action}" in orgCapabilities.${resource}`,
    );
  }
  const datasetCapabilities = isJsonObject(token.datasetCapabilities) ? token.datasetCapabilities : {};
  if (Object.values(datasetCapabilities).some((entry) => grants(entry, resource, action))) return;
  throw forbidden(
    `missing capability "${capabilityName(resource, action)}": ` +
      `token "${String(token.name)}" has no "${action}" in datasetCapabilities[*].${resource} for any dataset`,
  );
}

/**
 * The handler's check for dataset-scoped capabilities, once the dataset is known. Without a dataset
 * (a starred query with none, a list without a filter) only datasetCapabilities["*"] grants.
 */
export function requireDatasetCapability(
  caller: Caller,
  resource: string,
  action: string,
  dataset: string | undefined,
): void {
  const token = caller.token;
  if (!token) return;
  const capabilities: JsonObject = isJsonObject(token.datasetCapabilities) ? token.datasetCapabilities : {};
  if (grants(capabilities['*'], resource, action)) return;
  if (dataset !== undefined && grants(capabilities[dataset], resource, action)) return;
  const where = dataset === undefined ? 'all datasets' : `dataset "${dataset}"`;
  const grantHint =
    dataset === undefined ? 'datasetCapabilities["*"]' : `datasetCapabilities["${dataset}"] or datasetCapabilities["*"]`;
  throw forbidden(
    `missing capability "${capabilityName(resource, action)}" on ${where}: ` +
      `token "${String(token.name)}" needs "${action}" in ${grantHint}.${resource}`,
  );
}
