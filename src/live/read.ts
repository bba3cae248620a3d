// Reads live state through the list endpoints: one call per kind (per page for paged kinds, per
// dataset for dataset-scoped kinds), all concurrently. Only the daemon reads single objects, the
// few it has just written (readOne).
import { ApiError } from '../api/errors.js';
import type { ApiClient } from '../api/types.js';
import { isJsonObject } from '../core/json.js';
import { safeText } from '../core/safe-text.js';
import { isWriterLeaseObject } from '../core/writer-lease-record.js';
import type { JsonObject, JsonValue, KindName, LiveObject, LiveState } from '../core/types.js';
import { encodeSegment } from '../kinds/common.js';
import { KINDS } from '../kinds/index.js';
import type { LiveScope } from './scope.js';

/** Stops a paged read whose server ignores offset (every page the same) from looping for ever. */
const MAX_PAGES = 10_000;

/**
 * Lists already made, kept by a caller that reads again (the daemon's LiveCache): per kind for
 * whole kinds, per kind and dataset for the others.
 */
export interface LiveStore {
  whole: Map<KindName, LiveObject[]>;
  perDataset: Map<KindName, Map<string, LiveObject[]>>;
  datasetNames?: string[];
  /** Kinds of an add-on found unavailable, and why, when the caller keeps that too (a plan's second read of a wider scope). */
  unavailable?: Map<KindName, string>;
}

export async function readLive(client: ApiClient, scope: LiveScope, store?: LiveStore): Promise<LiveState> {
  const before = client.stats.requests;
  let datasetNames: Promise<string[]> | undefined;
  const everyDataset = (): Promise<string[]> =>
    (datasetNames ??= store?.datasetNames ? Promise.resolve(store.datasetNames) : listDatasetNames(client).then((names) => {
      if (store) store.datasetNames = names;
      return names;
    }));

  const kinds = [...new Set(scope.kinds)];
  const results = await Promise.all(
    kinds.map(async (kind) => {
      if (KINDS[kind].list.style !== 'per-dataset') return listAddOnAware(client, kind, store);
      const wanted = new Set(scope.datasets[kind] ?? []);
      if (scope.allDatasets?.includes(kind)) for (const name of await everyDataset()) wanted.add(name);
      const read = await listDatasets(client, kind, [...wanted].sort(), store);
      return { kind, objects: read.objects, datasets: read.listed };
    }),
  );

  const state: LiveState = { objects: {}, listedKinds: [], listedDatasets: {}, requests: 0 };
  for (const result of results) {
    if (result.unavailable !== undefined) {
      state.unavailable = { ...state.unavailable, [result.kind]: result.unavailable };
      continue;
    }
    state.listedKinds.push(result.kind);
    state.objects[result.kind] = result.objects;
    if (result.datasets) state.listedDatasets[result.kind] = result.datasets;
  }
  // Attempts, retries included, as the client counted them while this read ran.
  state.requests = client.stats.requests - before;
  return state;
}

async function listWholeStored(client: ApiClient, kind: KindName, store: LiveStore | undefined): Promise<LiveObject[]> {
  const kept = store?.whole.get(kind);
  if (kept) return kept;
  const objects = await listWhole(client, kind);
  store?.whole.set(kind, objects);
  return objects;
}

/**
 * Lists one kind again (apply does so after a POST that got no answer, to see whether it was
 * created). For a dataset-scoped kind, `datasets` names the datasets; absent, every dataset.
 */
export async function listKind(client: ApiClient, kind: KindName, datasets?: string[]): Promise<LiveObject[]> {
  if (KINDS[kind].list.style !== 'per-dataset') return listWhole(client, kind);
  const names = datasets ?? (await listDatasetNames(client));
  return (await listDatasets(client, kind, [...new Set(names)].sort())).objects;
}

interface KindRead {
  kind: KindName;
  objects: LiveObject[];
  datasets?: string[];
  /** Why a kind of an add-on could not be listed (KindModule.addOn); its objects are then unknown. */
  unavailable?: string;
}

/**
 * A kind of an add-on the workspace may not have (RBAC) answers its list with 403 or 404 there:
 * that kind is unavailable, not an error of the whole read. The planner decides what it means.
 */
async function listAddOnAware(client: ApiClient, kind: KindName, store: LiveStore | undefined): Promise<KindRead> {
  const known = store?.unavailable?.get(kind);
  if (known !== undefined) return { kind, objects: [], unavailable: known };
  try {
    return { kind, objects: await listWholeStored(client, kind, store) };
  } catch (err) {
    const refused = err instanceof ApiError && (err.status === 403 || err.status === 404);
    if (!refused || KINDS[kind].addOn === undefined) throw err;
    const said = err.serverMessage ? `: ${err.serverMessage}` : '';
    const unavailable = `${err.method} ${err.path} answered ${err.status}${said}`;
    store?.unavailable?.set(kind, unavailable);
    return { kind, objects: [], unavailable };
  }
}

export async function listWhole(client: ApiClient, kind: KindName): Promise<LiveObject[]> {
  const strategy = KINDS[kind].list;
  if (strategy.style === 'plain') {
    const res = await client.request({ method: 'GET', path: strategy.path });
    return arrayOf(res.body, 'GET', strategy.path).map((raw) => liveObject(kind, raw, strategy.path));
  }
  if (strategy.style !== 'paged') throw new Error(`${kind} is listed per dataset`);

  const objects: LiveObject[] = [];
  const seen = new Set<string>();
  for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
    const res = await client.request({
      method: 'GET',
      path: strategy.path,
      query: { ...strategy.query, limit: strategy.pageSize, offset },
    });
    const items = arrayOf(res.body, 'GET', strategy.path);
    let fresh = 0;
    for (const raw of items) {
      const object = liveObject(kind, raw, strategy.path);
      // An object created while paging can shift another onto the next page twice; keep it once.
      if (seen.has(object.id)) continue;
      seen.add(object.id);
      objects.push(object);
      fresh++;
    }
    if (items.length < strategy.pageSize || fresh === 0) break;
    offset += items.length;
  }
  return objects;
}

/**
 * One object as its kind's list shows it (KindModule.read), read back after a write. An answer
 * that is not that object (another id, not an object) is an error: the caller then lists again.
 */
export async function readOne(client: ApiClient, kind: KindName, id: string): Promise<LiveObject> {
  const endpoint = KINDS[kind].read?.(id);
  if (!endpoint) throw new Error(`${kind} objects cannot be read one at a time`);
  const { body } = await client.request(endpoint);
  if (!isJsonObject(body)) throw new Error(`${endpoint.method} ${endpoint.path}: expected a JSON object, got ${describe(body)}`);
  const object = liveObject(kind, body, endpoint.path);
  if (object.id !== id) throw new Error(`${endpoint.method} ${endpoint.path}: answered another ${kind}, ${safeText(object.id)}`);
  return object;
}

async function listDatasets(
  client: ApiClient,
  kind: KindName,
  datasets: string[],
  store?: LiveStore,
): Promise<{ objects: LiveObject[]; listed: string[] }> {
  let kept = store?.perDataset.get(kind);
  if (store && !kept) store.perDataset.set(kind, (kept = new Map()));
  const perDataset = await Promise.all(
    datasets.map(async (dataset) => {
      const known = kept?.get(dataset);
      if (known) return known;
      const found = await listOneDataset(client, kind, dataset);
      kept?.set(dataset, found);
      return found;
    }),
  );
  return { objects: perDataset.flat(), listed: [...datasets] };
}

/**
 * The objects of one dataset. A dataset that does not exist (404) holds none: it may be declared
 * and created in this run, and whether it exists at all is the planner's reference check.
 */
export async function listOneDataset(client: ApiClient, kind: KindName, dataset: string): Promise<LiveObject[]> {
  const strategy = KINDS[kind].list;
  if (strategy.style !== 'per-dataset') throw new Error(`${kind} is not listed per dataset`);
  const inPath = strategy.datasetIn === 'path';
  const path = inPath ? strategy.path.replace('{dataset}', encodeSegment(dataset)) : strategy.path;
  let body: JsonValue;
  try {
    const res = await client.request(inPath ? { method: 'GET', path } : { method: 'GET', path, query: { dataset } });
    body = res.body;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
  // Each object carries the dataset it was listed under, so its natural key can name it.
  return arrayOf(body, 'GET', path).map((item) => liveObject(kind, item.dataset === undefined ? { ...item, dataset } : item, path, dataset));
}

async function listDatasetNames(client: ApiClient): Promise<string[]> {
  const res = await client.request({ method: 'GET', path: '/v2/datasets' });
  const names = arrayOf(res.body, 'GET', '/v2/datasets')
    .map((d) => (typeof d.name === 'string' ? d.name : typeof d.id === 'string' ? d.id : undefined))
    .filter((n): n is string => n !== undefined && n !== '');
  return [...new Set(names)].sort();
}

function arrayOf(body: JsonValue, method: string, path: string): JsonObject[] {
  if (!Array.isArray(body)) throw new Error(`${method} ${path}: expected a JSON array, got ${describe(body)}`);
  // One pass, into no intermediate copy: a large list copied is another large array dropped.
  const items: JsonObject[] = [];
  for (let i = 0; i < body.length; i++) {
    const item = body[i] as JsonValue;
    if (!isJsonObject(item)) throw new Error(`${method} ${path}: expected an array of objects, found ${describe(item)}`);
    if (!isWriterLeaseObject(path, item)) items.push(item);
  }
  return items;
}

function liveObject(kind: KindName, raw: JsonObject, path: string, dataset?: string): LiveObject {
  const fromListItem = KINDS[kind].liveObjectFromListItem;
  if (fromListItem) {
    try {
      return { kind, ...fromListItem(raw, dataset) };
    } catch (err) {
      throw new Error(`GET ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const id = raw.id;
  if (typeof id === 'string' && id !== '') return { kind, id, raw };
  if (typeof id === 'number') return { kind, id: String(id), raw };
  // Without an id the object could be neither updated nor deleted; better to stop than to guess.
  throw new Error(`GET ${path}: a ${kind} without an id`);
}

function describe(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
