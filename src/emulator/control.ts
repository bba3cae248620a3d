// /_emulator/*: test hooks, admin token only, never rate-limited or logged
// (docs/wire-contract.md "Test hooks").
import { ApiError, badRequest, forbidden, notFound, unauthorized } from './errors.js';
import type { Faults } from './faults.js';
import type { RateLimiter } from './rate-limit.js';
import type { RequestLog } from './request-log.js';
import { jsonOf, noContent, type Reply } from './routes.js';
import { uiSaveHook } from './kinds/dashboards.js';
import { exportSeed, importSeed } from './seed.js';
import { putStored } from './stored.js';
import { annotateTriggeredMonitor } from './kinds/annotations.js';
import { isJsonObject } from './json.js';
import type { AddOns, Workspace } from './store.js';

export interface ControlDeps {
  workspace: Workspace;
  faults: Faults;
  limiter: RateLimiter;
  log: RequestLog;
  adminToken: string;
}

const ROUTES: Record<string, readonly string[]> = {
  '/_emulator/requests': ['GET', 'DELETE'],
  '/_emulator/faults': ['GET', 'POST'],
  '/_emulator/seed': ['POST'],
  '/_emulator/stored': ['POST'],
  '/_emulator/state': ['GET'],
  '/_emulator/dashboards/ui-save': ['POST'],
  '/_emulator/add-ons': ['GET', 'POST'],
  '/_emulator/monitor-trigger': ['POST'],
};

export function handleControl(
  deps: ControlDeps,
  method: string,
  pathname: string,
  authorization: string | undefined,
  body: unknown,
): Reply {
  const allowed = ROUTES[pathname];
  if (!allowed) throw notFound(`no emulator hook at ${pathname} (hooks: ${Object.keys(ROUTES).join(', ')})`);
  if (!allowed.includes(method)) {
    throw new ApiError(405, `${method} is not allowed on ${pathname}; use ${allowed.join(' or ')}`);
  }
  if (!authorization) throw unauthorized('missing Authorization header: /_emulator/* needs the admin token');
  if (authorization.replace(/^Bearer\s+/i, '').trim() !== deps.adminToken) {
    throw forbidden('/_emulator/* needs the admin token (--token), not an API token');
  }
  switch (`${method} ${pathname}`) {
    case 'GET /_emulator/requests':
      return jsonOf(deps.log.list());
    case 'DELETE /_emulator/requests':
      deps.log.clear();
      return noContent();
    case 'GET /_emulator/faults':
      return jsonOf(deps.faults.settings);
    case 'POST /_emulator/faults': {
      const settings = deps.faults.update(body);
      deps.limiter.setLimit(settings.rateLimit ?? undefined);
      if (settings.rateWindowSeconds !== deps.limiter.window) deps.limiter.setWindow(settings.rateWindowSeconds);
      return jsonOf(settings);
    }
    case 'POST /_emulator/dashboards/ui-save':
      return jsonOf(uiSaveHook(deps.workspace, body));
    case 'GET /_emulator/add-ons':
      return jsonOf(deps.workspace.addOns);
    case 'POST /_emulator/add-ons':
      updateAddOns(deps.workspace.addOns, body);
      return jsonOf(deps.workspace.addOns);
    case 'POST /_emulator/monitor-trigger':
      return jsonOf(triggerMonitor(deps.workspace, body), 201);
    case 'POST /_emulator/seed':
      if (body === undefined) throw badRequest('seed: a JSON request body is required');
      return jsonOf({ imported: importSeed(deps.workspace, body, 'seed') });
    case 'POST /_emulator/stored':
      return jsonOf({ stored: putStored(deps.workspace, body) });
    default:
      return jsonOf(exportSeed(deps.workspace));
  }
}

/** `{rbac?: boolean, rbacStatus?: 403 | 404}`: switches the add-on; a bad body changes nothing. */
export function updateAddOns(addOns: AddOns, body: unknown): void {
  if (!isJsonObject(body)) throw badRequest('add-ons: the request body must be a JSON object');
  const next: AddOns = { ...addOns };
  for (const [key, value] of Object.entries(body)) {
    if (key === 'rbac' && typeof value === 'boolean') next.rbac = value;
    else if (key === 'rbacStatus' && (value === 403 || value === 404)) next.rbacStatus = value;
    else throw badRequest(`add-ons: field "${key}" must be rbac (true or false) or rbacStatus (403 or 404)`);
  }
  Object.assign(addOns, next);
}

/** `{monitorId, datasets?}`: the annotation a triggered monitor makes (a guess at its shape). */
function triggerMonitor(workspace: Workspace, body: unknown): unknown {
  if (!isJsonObject(body) || typeof body.monitorId !== 'string') {
    throw badRequest('monitor-trigger: the body must be {"monitorId": "<id>", "datasets"?: ["<name>"]}');
  }
  const datasets = body.datasets;
  if (datasets !== undefined && !(Array.isArray(datasets) && datasets.every((d) => typeof d === 'string'))) {
    throw badRequest('monitor-trigger: field "datasets" must be an array of dataset names');
  }
  return workspace.annotations.viewOf(annotateTriggeredMonitor(workspace, body.monitorId, datasets, new Date().toISOString()));
}
