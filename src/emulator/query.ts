// POST /v1/datasets/_apl: only as far as wsync needs it, to learn whether a token may query a
// dataset (docs/wire-contract.md "What the token cannot see"). Every dataset the query names must
// exist (404) and be granted query|read to a token (403); the answer is an empty tabular result.
// Also who may see a monitor: the service lists only monitors on datasets the token may query.
import type { Caller } from './auth.js';
import { grantsOnEveryDataset, requireDatasetCapability } from './capabilities.js';
import { badRequest, notFound } from './errors.js';
import { isJsonObject, type JsonObject } from './json.js';
import { jsonOf, type Route } from './routes.js';

/** `['name']`, `["name"]`, and a leading bare name (`checkout | where …`); MPL's leading `ds`:. */
export function datasetsReadBy(query: string): string[] {
  const names = new Set<string>();
  const leading = /^\s*(?:`([^`]+)`\s*:|([A-Za-z_][\w.-]*)\s*(?:\||:|$))/.exec(query);
  const first = leading?.[1] ?? leading?.[2];
  if (first) names.add(first);
  for (const match of query.matchAll(/\[\s*(?:'([^'\]]+)'|"([^"\]]+)")\s*\]/g)) {
    const name = match[1] ?? match[2];
    if (name) names.add(name);
  }
  return [...names];
}

/** Whether a token may query the dataset (the admin token may query all). */
export function mayQuery(caller: Caller, dataset: string): boolean {
  try {
    requireDatasetCapability(caller, 'query', 'read', dataset);
    return true;
  } catch {
    return false;
  }
}

/** A monitor is seen only by a caller that may query every dataset its query reads (docs `getMonitors`). */
export function maySeeMonitor(caller: Caller, monitor: JsonObject): boolean {
  const query = typeof monitor.aplQuery === 'string' && monitor.aplQuery !== '' ? monitor.aplQuery : monitor.mplQuery;
  if (typeof query !== 'string') return true;
  return datasetsReadBy(query).every((dataset) => mayQuery(caller, dataset));
}

/** A caller that may query every dataset sees every monitor, whatever its query reads. */
export function maySeeEveryMonitor(caller: Caller): boolean {
  return grantsOnEveryDataset(caller, 'query', 'read');
}

export const QUERY_ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/v1/datasets/_apl',
    handle: (context) => {
      const body = context.body;
      if (!isJsonObject(body) || typeof body.apl !== 'string' || body.apl.trim() === '') {
        throw badRequest('query: field "apl" must be a non-empty string');
      }
      const datasets = datasetsReadBy(body.apl);
      for (const dataset of datasets) {
        requireDatasetCapability(context.caller, 'query', 'read', dataset);
        if (!context.workspace.datasets.has(dataset)) throw notFound(`dataset "${dataset}" not found`);
      }
      return jsonOf({
        format: 'tabular',
        status: { elapsedTime: 0, minCursor: '', maxCursor: '', blocksExamined: 0, rowsExamined: 0, rowsMatched: 0 },
        tables: [],
        datasetNames: datasets,
      });
    },
  },
];
