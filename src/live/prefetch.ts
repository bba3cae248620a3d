// A plan need not wait for its files before it lists live state: what the inventory names (its
// kinds and datasets) is in the scope whatever the files say, so those lists are started first and
// run while the files are read; what the files add to the scope is listed after. Against a remote
// service the lists' round trips then overlap the parse. Only for reads outside the state lock (an
// apply lists under its lock, after reading the files).
import type { ApiClient } from '../api/types.js';
import type { Desired, Inventory, KindName, LiveState, Policy } from '../core/types.js';
import { KIND_NAMES } from '../kinds/index.js';
import { readLive } from './read.js';
import { liveScope, type LiveScope } from './scope.js';

const NOTHING_DECLARED: Desired = { resources: [], diagnostics: [], stats: { files: 0, documents: 0, skipped: 0 }, secretValues: [] };

/** What any plan with this inventory and policy lists, whatever its files declare. */
export function inventoryScope(inventory: Inventory, policy: Policy): LiveScope {
  return liveScope(NOTHING_DECLARED, inventory, policy);
}

/** The part of `wanted` that `read` did not list, or undefined when it listed all of it. */
export function missingScope(wanted: LiveScope, read: LiveScope): LiveScope | undefined {
  const kinds: KindName[] = [];
  const datasets: LiveScope['datasets'] = {};
  for (const kind of wanted.kinds) {
    if (!read.kinds.includes(kind)) {
      kinds.push(kind);
      if (wanted.datasets[kind]) datasets[kind] = wanted.datasets[kind];
      continue;
    }
    const had = new Set(read.datasets[kind] ?? []);
    const more = (wanted.datasets[kind] ?? []).filter((dataset) => !had.has(dataset));
    const everyDataset = wanted.allDatasets?.includes(kind) === true && read.allDatasets?.includes(kind) !== true;
    if (more.length === 0 && !everyDataset) continue;
    kinds.push(kind);
    datasets[kind] = more;
  }
  if (kinds.length === 0) return undefined;
  const missing: LiveScope = { kinds, datasets };
  const allDatasets = (wanted.allDatasets ?? []).filter((kind) => kinds.includes(kind) && read.allDatasets?.includes(kind) !== true);
  if (allDatasets.length > 0) missing.allDatasets = allDatasets;
  return missing;
}

/** Two reads of parts of a scope as one. */
export function mergeLive(a: LiveState, b: LiveState): LiveState {
  const objects: LiveState['objects'] = {};
  const listedDatasets: LiveState['listedDatasets'] = {};
  for (const kind of KIND_NAMES) {
    if (a.objects[kind] || b.objects[kind]) {
      // An object listed by both reads (a dataset read twice) counts once.
      const seen = new Set<string>();
      objects[kind] = [...(a.objects[kind] ?? []), ...(b.objects[kind] ?? [])].filter((o) => !seen.has(o.id) && seen.add(o.id) !== undefined);
    }
    const datasets = [...new Set([...(a.listedDatasets[kind] ?? []), ...(b.listedDatasets[kind] ?? [])])].sort();
    if (a.listedDatasets[kind] || b.listedDatasets[kind]) listedDatasets[kind] = datasets;
  }
  const merged: LiveState = {
    objects,
    listedKinds: KIND_NAMES.filter((kind) => a.listedKinds.includes(kind) || b.listedKinds.includes(kind)),
    listedDatasets,
    requests: a.requests + b.requests,
  };
  if (a.unavailable || b.unavailable) merged.unavailable = { ...a.unavailable, ...b.unavailable };
  return merged;
}

/** The lists of the inventory's scope, started now; `complete` lists what a scope adds and joins the two. */
export function prefetchLive(client: ApiClient, inventory: Inventory, policy: Policy): { complete(scope: LiveScope): Promise<LiveState> } {
  const early = inventoryScope(inventory, policy);
  const started = readLive(client, early);
  // Awaited in complete(); a plan that stops first (its files are broken) leaves the error unread.
  started.catch(() => undefined);
  return {
    async complete(scope) {
      const first = await started;
      const missing = missingScope(scope, early);
      return missing ? mergeLive(first, await readLive(client, missing)) : first;
    },
  };
}
