// What the token can see: the service lists only monitors on datasets the token may query (docs
// `getMonitors`), and no endpoint tells a token its own capabilities (docs/wire-contract.md "What
// the token cannot see"). So for a declared object its list does not show, the datasets its query
// reads are tried with a query that returns no rows: an answer means the list would have shown
// the object, a refusal that it may exist unseen.
import { ApiError } from '../api/errors.js';
import type { ApiClient } from '../api/types.js';
import type { Desired, KindName, LiveState, QueryAccess } from '../core/types.js';
import { KINDS } from '../kinds/index.js';

/** The APL query endpoint every client of the service uses (axiom-go `Datasets.Query`). */
export const QUERY_PATH = '/v1/datasets/_apl';
/** A dataset name that can stand in `['…']` without escaping. */
const PLAIN_NAME = /^[\w.-]+$/;

/** `live` with `queryAccess` for every dataset a declared, unlisted object reads; `live` itself when there is none. */
export async function withQueryAccess(client: ApiClient, desired: Desired, live: LiveState, now: Date = new Date()): Promise<LiveState> {
  const datasets = datasetsOfUnlisted(desired, live);
  if (datasets.length === 0) return { ...live, queryAccess: {} };
  const before = client.stats.requests;
  const answers = await Promise.all(
    datasets.map(async (entry) => {
      const [kind, dataset] = entry.split('\u0000') as [KindName, string];
      return [dataset, madeByThisTree(desired, live, kind, dataset) ? NEW_DATASET : await tryQuery(client, dataset, now)] as const;
    }),
  );
  return { ...live, queryAccess: Object.fromEntries(answers), requests: live.requests + client.stats.requests - before };
}

/** A dataset this tree creates: no monitor can be on it yet, so the list hides none. */
const NEW_DATASET: QueryAccess = { allowed: true };

/** A dataset the tree declares that the dataset list (when it was read) does not hold. */
function madeByThisTree(desired: Desired, live: LiveState, kind: KindName, dataset: string): boolean {
  if (!live.listedKinds.includes(kind)) return false;
  if ((live.objects[kind] ?? []).some((o) => o.id === dataset || o.raw.name === dataset)) return false;
  return desired.resources.some((r) => r.kind === kind && r.key === dataset);
}

function datasetsOfUnlisted(desired: Desired, live: LiveState): string[] {
  const datasets = new Set<string>();
  const listedKeys = new Map<string, Set<string>>();
  for (const resource of desired.resources) {
    const module = KINDS[resource.kind];
    if (!module.listedOnlyIfQueryable || !live.listedKinds.includes(resource.kind)) continue;
    let keys = listedKeys.get(resource.kind);
    if (!keys) {
      keys = new Set((live.objects[resource.kind] ?? []).map((o) => {
        const { name, spec } = module.fromWire(o.raw, (_kind, id) => id);
        return module.keyOf(name, spec);
      }));
      listedKeys.set(resource.kind, keys);
    }
    if (keys.has(resource.key)) continue;
    for (const dataset of module.listedOnlyIfQueryable.datasets(resource.spec)) datasets.add(`${module.listedOnlyIfQueryable.datasetKind}\u0000${dataset}`);
  }
  return [...datasets].sort();
}

async function tryQuery(client: ApiClient, dataset: string, now: Date): Promise<QueryAccess> {
  if (!PLAIN_NAME.test(dataset)) return { allowed: false, why: `"${dataset}" is not a dataset name wsync can query` };
  try {
    await client.request({
      method: 'POST',
      readOnly: true,
      path: QUERY_PATH,
      query: { format: 'tabular' },
      body: { apl: `['${dataset}'] | limit 0`, startTime: new Date(now.getTime() - 60_000).toISOString(), endTime: now.toISOString() },
    });
    return { allowed: true };
  } catch (error) {
    if (error instanceof ApiError) return { allowed: false, why: error.message };
    throw error;
  }
}
