// Dashboards: /v2/dashboards, addressed by uid (docs/wire-contract.md "Dashboards"). Every write
// names the version it replaces: a stale one is 412 with the current version, a create of a taken
// uid 409, unless `overwrite`. The version starts at 1 and grows by one per write. A test hook
// (POST /_emulator/dashboards/ui-save) makes a save "someone made in the UI", at once or just
// before the next write to that dashboard, so a client's handling of 412 can be tested.
import { ApiError, badRequest, forbidden } from '../errors.js';
import { isJsonObject, objectField, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { json, jsonOf, noContent, type Reply, type RequestContext, type Route } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import { DASHBOARD_EVERYONE } from '../views.js';
import { integerParameter, type KindModule } from './common.js';

const LABEL = 'dashboards';
const BASE = '/v2/dashboards';
const UID = /^[A-Za-z0-9_-]{1,128}$/;

/** The dashboard of `uid`, or 404 as the document gives it (with the uid). */
function lookup(workspace: Workspace, uid: string): Stored {
  const found = workspace.dashboards.get(uid);
  if (!found) throw new ApiError(404, `dashboard "${uid}" not found`, { uid });
  return found;
}

/** A save made in the UI: the version moves on, the document takes `patch` (top-level fields). */
export function saveFromUi(workspace: Workspace, uid: string, patch: JsonObject, now: string): Stored {
  const existing = lookup(workspace, uid);
  const document = isJsonObject(existing.dashboard) ? existing.dashboard : {};
  const saved: Stored = {
    ...existing,
    dashboard: { ...document, ...patch },
    version: Number(existing.version ?? 1) + 1,
    updatedAt: now,
    updatedBy: 'usr_someone_in_the_ui',
  };
  workspace.dashboards.put(saved);
  workspace.changed();
  return saved;
}

/** The uid a write names: the path's, the body's, the document's; any two given must agree. */
function uidOf(body: JsonObject, document: JsonObject, fromPath: string | undefined, workspace: Workspace): string {
  const given = [fromPath, stringField(body, 'uid'), stringField(document, 'uid')].filter((u): u is string => u !== undefined && u !== '');
  const [uid] = given;
  if (given.some((other) => other !== uid)) {
    throw new ApiError(400, `${LABEL}: the uid of the path, of the body and of the document differ (${given.join(', ')})`, { uid: uid ?? '' });
  }
  if (uid === undefined) return workspace.ids.next('dash', (id) => workspace.dashboards.has(id)).replace('_', '-');
  if (!UID.test(uid)) throw new ApiError(400, `${LABEL}: uid "${uid}" must be 1 to 128 letters, digits, "_" or "-"`, { uid });
  return uid;
}

/** The document as stored: without its uid (the resource holds it), the owner "" made into everyone. */
function storedDocument(document: JsonObject, context: RequestContext): JsonObject {
  const { uid: _uid, ...rest } = document;
  const owner = stringField(rest, 'owner') ?? '';
  const everyone = owner === '' || owner.toLowerCase() === DASHBOARD_EVERYONE;
  // An API token may only make dashboards every user of the org sees.
  if (!everyone && context.caller.token) throw forbidden(`${LABEL}: API tokens cannot make private dashboards (owner "${owner}"); use X-AXIOM-EVERYONE`);
  return { ...rest, owner: everyone ? 'X-AXIOM-EVERYONE' : owner };
}

function write(context: RequestContext, fromPath: string | undefined): Reply {
  const { workspace } = context;
  const body = validateBody('DashboardUpsertRequest', LABEL, context.body);
  const document = objectField(body, 'dashboard') ?? {};
  const uid = uidOf(body, document, fromPath, workspace);
  const pending = workspace.pendingUiSaves.get(uid);
  if (pending && workspace.dashboards.has(uid)) {
    workspace.pendingUiSaves.delete(uid);
    saveFromUi(workspace, uid, pending, context.now);
  }
  const existing = workspace.dashboards.get(uid);
  const overwrite = body.overwrite === true;
  const version = body.version;
  const current = Number(existing?.version ?? 0);
  if (existing && !overwrite) {
    if (fromPath === undefined && version === undefined) throw new ApiError(409, 'Dashboard already exists', { uid, currentVersion: current });
    if (version !== current) {
      throw new ApiError(412, `Version conflict: the dashboard is at version ${current}, the write names ${String(version ?? 'none')}`, {
        uid,
        currentVersion: current,
        reason: 'version_mismatch',
      });
    }
  }
  const { userId } = context.caller;
  const saved: Stored = {
    id: uid,
    dashboardId: stringField(existing ?? {}, 'dashboardId') ?? workspace.ids.next('dash', () => false),
    version: current + 1,
    dashboard: storedDocument(document, context),
    createdAt: stringField(existing ?? {}, 'createdAt') ?? context.now,
    createdBy: stringField(existing ?? {}, 'createdBy') ?? userId,
    updatedAt: context.now,
    updatedBy: userId,
  };
  workspace.dashboards.put(saved);
  workspace.changed();
  const answer: JsonObject = { status: existing ? 'updated' : 'created', dashboard: workspace.dashboards.viewOf(saved) };
  if (existing && overwrite) answer.overwritten = version !== current;
  return jsonOf(answer, existing ? 200 : 201);
}

function list(context: RequestContext): Reply {
  const limit = integerParameter(context.query, 'limit', 100, 1, 1000, LABEL);
  const offset = integerParameter(context.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER, LABEL);
  const page = [...context.workspace.dashboards.values()].slice(offset, offset + limit);
  return json(context.workspace.dashboards.listJson(page));
}

const routes: Route[] = [
  { method: 'GET', path: BASE, capability: orgCap('dashboards', 'read'), handle: list },
  { method: 'POST', path: BASE, capability: orgCap('dashboards', 'create'), handle: (context) => write(context, undefined) },
  {
    method: 'GET',
    path: `${BASE}/uid/:uid`,
    capability: orgCap('dashboards', 'read'),
    handle: (context) => json(context.workspace.dashboards.viewJson(lookup(context.workspace, context.params.uid ?? ''))),
  },
  {
    method: 'PUT',
    path: `${BASE}/uid/:uid`,
    capability: orgCap('dashboards', 'update'),
    handle: (context) => write(context, context.params.uid ?? ''),
  },
  {
    method: 'DELETE',
    path: `${BASE}/uid/:uid`,
    capability: orgCap('dashboards', 'delete'),
    handle: (context) => {
      const uid = context.params.uid ?? '';
      lookup(context.workspace, uid);
      context.workspace.dashboards.delete(uid);
      context.workspace.pendingUiSaves.delete(uid);
      context.workspace.changed();
      return noContent();
    },
  },
];

/** POST /_emulator/dashboards/ui-save `{uid, dashboard?, when?: "now" | "before-next-write"}`. */
export function uiSaveHook(workspace: Workspace, body: unknown): JsonObject {
  if (!isJsonObject(body)) throw badRequest('ui-save: the request body must be a JSON object');
  const uid = stringField(body, 'uid');
  if (uid === undefined) throw badRequest('ui-save: field "uid" is required');
  const patch = body.dashboard ?? {};
  if (!isJsonObject(patch)) throw badRequest('ui-save: field "dashboard" must be an object of top-level document fields');
  const when = body.when ?? 'now';
  lookup(workspace, uid);
  if (when === 'before-next-write') {
    workspace.pendingUiSaves.set(uid, patch);
    return { uid, pending: true };
  }
  if (when !== 'now') throw badRequest('ui-save: field "when" must be "now" or "before-next-write"');
  const saved = saveFromUi(workspace, uid, patch, new Date().toISOString());
  return { uid, version: saved.version ?? 1 };
}

export const dashboards: KindModule = {
  routes,
  seed: {
    key: 'dashboards',
    importItem(workspace, raw, label, now) {
      const uid = stringField(raw, 'uid');
      if (uid === undefined || !UID.test(uid)) throw badRequest(`${label}: field "uid" must be a dashboard uid`);
      const body = validateBody('DashboardUpsertRequest', label, { uid, dashboard: raw.dashboard ?? null });
      const { uid: _uid, ...document } = objectField(body, 'dashboard') ?? {};
      const version = typeof raw.version === 'number' && raw.version >= 1 ? raw.version : 1;
      workspace.dashboards.put({
        id: uid,
        dashboardId: stringField(raw, 'id') ?? workspace.ids.next('dash', () => false),
        version,
        dashboard: { ...document, owner: stringField(document, 'owner') || 'X-AXIOM-EVERYONE' },
        createdAt: stringField(raw, 'createdAt') ?? now,
        createdBy: stringField(raw, 'createdBy') ?? '',
        updatedAt: stringField(raw, 'updatedAt') ?? now,
        updatedBy: stringField(raw, 'updatedBy') ?? '',
      });
    },
    dump: (workspace) => [...workspace.dashboards.values()].map((item) => workspace.dashboards.viewOf(item)),
  },
};
