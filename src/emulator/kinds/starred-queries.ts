// Starred APL queries: /v2/apl-starred-queries. The list pages with limit (1..1000, default 100)
// and offset (>= 0, default 0), filters by who (all, team, a user id; absent: the caller) and
// dataset, in creation order. starredQueries capabilities are dataset-scoped.
import { badRequest } from '../errors.js';
import { stringField, type JsonObject } from '../json.js';
import { datasetCap, requireDatasetCapability } from '../capabilities.js';
import { json, type RequestContext } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import {
  assignId,
  crudRoutes,
  integerParameter,
  isKnownUser,
  metaOf,
  requireDataset,
  requireKnownUser,
  seedWith,
  withDefaults,
  type KindModule,
  type SaveFunction,
} from './common.js';

const LABEL = 'starred queries';
const collection = (workspace: Workspace) => workspace.starredQueries;

/**
 * The dataset a query is filed under; `""` (a query made in the UI without one, as the service
 * answers it) is none, stored and answered as given (docs/wire-contract.md "Starred queries").
 */
function datasetOf(query: JsonObject): string | undefined {
  return stringField(query, 'dataset') || undefined;
}

const saveStarredQuery: SaveFunction = (workspace, body, meta, label, existing) => {
  requireKnownUser(workspace, stringField(body, 'who') ?? '', label, 'who');
  const dataset = datasetOf(body);
  if (dataset !== undefined) requireDataset(workspace, dataset, label);
  const query = withDefaults(
    { id: existing?.id ?? assignId(meta, workspace.starredQueries, 'sq', workspace), ...body },
    { metadata: {} },
  );
  workspace.starredQueries.put(query);
  return query;
};

function write(context: RequestContext, existing?: Stored) {
  const body = validateBody('StarredQuery', LABEL, context.body);
  const action = existing ? 'update' : 'create';
  requireDatasetCapability(context.caller, 'starredQueries', action, datasetOf(body));
  const query = saveStarredQuery(context.workspace, body, metaOf(context), LABEL, existing);
  context.workspace.changed();
  return json(context.workspace.starredQueries.viewJson(query));
}

function list(context: RequestContext) {
  const { query, workspace, caller } = context;
  const limit = integerParameter(query, 'limit', 100, 1, 1000, LABEL);
  const offset = integerParameter(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER, LABEL);
  const dataset = query.get('dataset') ?? undefined;
  requireDatasetCapability(caller, 'starredQueries', 'read', dataset);
  if (dataset !== undefined) requireDataset(workspace, dataset, LABEL);
  const who = query.get('who') ?? caller.userId;
  if (who !== 'all' && who !== 'team' && !isKnownUser(workspace, who)) {
    throw badRequest(`${LABEL}: query parameter "who" must be "all", "team" or a user id, got unknown user "${who}"`);
  }
  const owned = (item: Stored): boolean => {
    if (who === 'all') return true;
    if (who === 'team') return item.who !== caller.userId;
    return item.who === who;
  };
  const page: Stored[] = [];
  let skipped = 0;
  for (const item of workspace.starredQueries.values()) {
    if (!owned(item) || (dataset !== undefined && item.dataset !== dataset)) continue;
    if (skipped < offset) {
      skipped += 1;
      continue;
    }
    page.push(item);
    if (page.length === limit) break;
  }
  return json(workspace.starredQueries.listJson(page));
}

export const starredQueries: KindModule = {
  routes: crudRoutes({
    base: '/v2/apl-starred-queries',
    noun: 'starred query',
    collection,
    capability: (action) => datasetCap('starredQueries', action),
    create: (context) => write(context),
    update: write,
    list,
    authorize: (context, item, action) =>
      requireDatasetCapability(context.caller, 'starredQueries', action, datasetOf(item)),
  }),
  seed: seedWith('starredQueries', 'StarredQuery', collection, saveStarredQuery),
};
