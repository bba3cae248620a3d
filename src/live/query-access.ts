// What the token can see: the service lists only monitors on datasets the token may query (docs
// `getMonitors`), and no endpoint tells a token its own capabilities (docs/wire-contract.md "What
// the token cannot see"). So for a declared object its list does not show, the datasets its query
// reads are tried with a query that returns no rows: an answer means the list would have shown
// the object, a refusal that it may exist unseen.
import { ApiError } from '../api/errors.js';
import type { ApiClient } from '../api/types.js';
import type { Desired, DesiredResource, KindName, LiveState, QueryAccess } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import { indexLive, liveWithKey, shareIndex, type LiveIndex } from '../plan/live-index.js';
import type { PlanMemo } from '../plan/plan-memo.js';

/** The APL query endpoint every client of the service uses (axiom-go `Datasets.Query`). */
export const QUERY_PATH = '/v1/datasets/_apl';
/** A dataset name that can stand in `['…']` without escaping. */
const PLAIN_NAME = /^[\w.-]+$/;

export interface QueryAccessOptions {
  /**
   * The planner's memo: the live objects are read through their kind modules once per live
   * snapshot, here, and the planner takes that index as it is (the daemon's every reconcile).
   */
  memo?: PlanMemo;
  now?: Date;
}

/** `live` with `queryAccess` for every dataset a declared, unlisted object reads (an empty record when there is none). */
export async function withQueryAccess(client: ApiClient, desired: Desired, live: LiveState, options: QueryAccessOptions = {}): Promise<LiveState> {
  const { memo, now = new Date() } = options;
  const datasets = datasetsOfUnlisted(desired, live, memo);
  if (datasets.length === 0) return shareIndex({ ...live, queryAccess: {} }, live, memo);
  const before = client.stats.requests;
  const answers = await Promise.all(
    datasets.map(async (entry) => {
      const [kind, dataset] = entry.split('\u0000') as [KindName, string];
      return [dataset, madeByThisTree(desired, live, kind, dataset) ? NEW_DATASET : await tryQuery(client, dataset, now)] as const;
    }),
  );
  return shareIndex({ ...live, queryAccess: Object.fromEntries(answers), requests: live.requests + client.stats.requests - before }, live, memo);
}

/** A dataset this tree creates: no monitor can be on it yet, so the list hides none. */
const NEW_DATASET: QueryAccess = { allowed: true };

/** A dataset the tree declares that the dataset list (when it was read) does not hold. */
function madeByThisTree(desired: Desired, live: LiveState, kind: KindName, dataset: string): boolean {
  if (!live.listedKinds.includes(kind)) return false;
  if ((live.objects[kind] ?? []).some((o) => o.id === dataset || o.raw.name === dataset)) return false;
  return desired.resources.some((r) => r.kind === kind && r.key === dataset);
}

function datasetsOfUnlisted(desired: Desired, live: LiveState, memo: PlanMemo | undefined): string[] {
  const datasets = new Set<string>();
  let index: LiveIndex | undefined;
  const { resources } = desired;
  // An indexed loop over every resource: a cold `for...of` makes an iterator result per item.
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i] as DesiredResource;
    const module = KINDS[resource.kind];
    if (!module.listedOnlyIfQueryable || !live.listedKinds.includes(resource.kind)) continue;
    // The planner's own index of the live objects (made once per live snapshot with a memo).
    index ??= indexLive(live, memo);
    if (liveWithKey(index, resource.kind, resource.key).length > 0) continue;
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
    // 404: the service has no dataset of that name the token can see (a typo, or one not made yet).
    if (error instanceof ApiError) return { allowed: false, why: error.message, ...(error.status === 404 ? { missing: true as const } : {}) };
    throw error;
  }
}
