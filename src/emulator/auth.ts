// Bearer authentication and capability checks. The admin token (--token) has every capability;
// tokens made through POST /v2/tokens have exactly their orgCapabilities and datasetCapabilities.
import { ADMIN_USER } from './constants.js';
import { forbidden, unauthorized } from './errors.js';
import { isJsonObject, stringArrayField, type JsonObject } from './json.js';
import type { Capability } from './routes.js';
import type { Stored, Workspace } from './store.js';

export interface Caller {
  userId: string;
  email: string;
  name: string;
  /** The API token used, or undefined for the admin token. */
  token: Stored | undefined;
}

export function isTokenExpired(token: Stored, nowMs: number): boolean {
  const expiresAt = token.expiresAt;
  return typeof expiresAt === 'string' && Date.parse(expiresAt) <= nowMs;
}

export function authenticate(
  header: string | undefined,
  workspace: Workspace,
  adminToken: string,
  nowMs: number,
): Caller {
  if (!header) throw unauthorized('missing Authorization header: send "Authorization: Bearer <token>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthorized('malformed Authorization header: expected "Bearer <token>"');
  const secret = match[1];
  const base = { userId: ADMIN_USER.id, email: ADMIN_USER.email, name: ADMIN_USER.name };
  if (secret === adminToken) return { ...base, token: undefined };
  const tokenId = workspace.tokenIdsBySecret.get(secret);
  const token = tokenId === undefined ? undefined : workspace.tokens.get(tokenId);
  if (!token) throw unauthorized('unknown API token: it was never issued here or has been deleted');
  if (isTokenExpired(token, nowMs)) throw unauthorized(`API token "${String(token.name)}" has expired`);
  return { ...base, token };
}

const capabilityName = (resource: string, action: string): string => `${resource}|${action}`;

function grants(entry: unknown, resource: string, action: string): boolean {
  return isJsonObject(entry) && stringArrayField(entry, resource).includes(action);
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
