// Which kinds (and, for dataset-scoped kinds, which datasets) a plan must read. Pure.
import type { Desired, Inventory, JsonObject, KindName, Policy } from '../core/types.js';
import { getAt } from '../core/json-paths.js';
import { datasetOfKey, isBuiltinName } from '../kinds/common.js';
import type { Reference } from '../kinds/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';

export interface LiveScope {
  /** Kinds to list, in dependency order (KIND_NAMES). */
  kinds: KindName[];
  /** For per-dataset kinds in `kinds`: the datasets to list, sorted and deduplicated. */
  datasets: Partial<Record<KindName, string[]>>;
  /**
   * Per-dataset kinds whose every dataset is in play (named in policy.pruneAll): readLive lists
   * GET /v2/datasets first and reads each one, besides those in `datasets`.
   */
  allDatasets?: KindName[];
}

export function isPerDataset(kind: KindName): boolean {
  return KINDS[kind].list.style === 'per-dataset';
}

/**
 * A reference whose names are all built-in values (User role `admin`) resolves without reading its
 * target kind, which may need an add-on the workspace lacks (Role: RBAC). Other references read it
 * (also with no names: the live object's ids are then shown as names).
 */
function needsTarget(reference: Reference, spec: JsonObject): boolean {
  if (!reference.builtins) return true;
  const value = getAt(spec, reference.field.split('.'));
  const names = Array.isArray(value) ? value : [value];
  return names.some((name) => typeof name === 'string' && !isBuiltinName(reference, name));
}

/**
 * A kind is in scope when declared, present in the inventory (or removed by the change), named in
 * policy.pruneAll, or the target of a reference of a declared kind (its names must resolve to ids; see needsTarget).
 */
export function liveScope(
  desired: Desired,
  inventory: Inventory,
  policy: Policy,
  /** More objects in play: those the base of a change declares and the change removes. */
  removed: readonly { kind: KindName; key: string }[] = [],
): LiveScope {
  const kinds = new Set<KindName>();
  const datasets = new Map<KindName, Set<string>>();
  const addDataset = (kind: KindName, dataset: string | undefined): void => {
    if (!isPerDataset(kind) || dataset === undefined || dataset === '') return;
    let set = datasets.get(kind);
    if (!set) datasets.set(kind, (set = new Set()));
    set.add(dataset);
  };

  for (const resource of desired.resources) {
    const module = KINDS[resource.kind];
    kinds.add(resource.kind);
    // A target already in scope needs no second look (most resources name the same kinds).
    for (const reference of module.references) if (!kinds.has(reference.target) && needsTarget(reference, resource.spec)) kinds.add(reference.target);
    if (isPerDataset(resource.kind)) addDataset(resource.kind, module.datasetOf ? module.datasetOf(resource.spec) : datasetOfKey(resource.key));
  }
  for (const entry of [...inventory.entries, ...removed]) {
    kinds.add(entry.kind);
    addDataset(entry.kind, datasetOfKey(entry.key));
  }
  const allDatasets: KindName[] = [];
  for (const kind of policy.pruneAll) {
    kinds.add(kind);
    if (isPerDataset(kind)) allDatasets.push(kind);
  }

  const ordered = KIND_NAMES.filter((kind) => kinds.has(kind));
  const scope: LiveScope = { kinds: ordered, datasets: {} };
  for (const kind of ordered) {
    if (isPerDataset(kind)) scope.datasets[kind] = [...(datasets.get(kind) ?? [])].sort();
  }
  if (allDatasets.length > 0) scope.allDatasets = KIND_NAMES.filter((kind) => allDatasets.includes(kind));
  return scope;
}

/**
 * Whether `scope` already holds every kind and dataset the inventory's entries bring in (objects
 * owned and maybe no longer declared): then it is the scope `liveScope` gives with the inventory.
 */
export function coversInventory(scope: LiveScope, inventory: Inventory): boolean {
  const kinds = new Set(scope.kinds);
  const datasets = new Map<KindName, Set<string>>();
  for (const entry of inventory.entries) {
    if (!kinds.has(entry.kind)) return false;
    if (!isPerDataset(entry.kind)) continue;
    const dataset = datasetOfKey(entry.key);
    if (dataset === undefined || dataset === '') continue;
    let listed = datasets.get(entry.kind);
    if (!listed) datasets.set(entry.kind, (listed = new Set(scope.datasets[entry.kind] ?? [])));
    if (!listed.has(dataset)) return false;
  }
  return true;
}
