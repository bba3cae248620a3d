// A declared object its list does not show is not always missing: the service lists monitors only
// on datasets the token may query (docs/wire-contract.md "What the token cannot see").
import type { DesiredResource, JsonObject, LiveState } from '../core/types.js';
import type { KindModule } from '../kinds/types.js';

/**
 * Why a declared object the list does not show may exist all the same: its kind's list shows only
 * objects on datasets the token may query, and the token may not query one this object reads.
 */
export function mayBeUnseen(module: KindModule, resource: DesiredResource, spec: JsonObject, live: LiveState): string | undefined {
  const access = live.queryAccess;
  if (!module.listedOnlyIfQueryable || access === undefined) return undefined;
  const denied = module.listedOnlyIfQueryable.datasets(spec).flatMap((dataset) => {
    const seen = access[dataset];
    if (seen?.allowed === true) return [];
    if (seen?.missing) return [`dataset "${dataset}" does not exist, or the token may not see it (${seen.why})`];
    return [`the token may not query dataset "${dataset}": it needs the capability datasetCapabilities["${dataset}"].query: [read] ` +
      `(${seen ? seen.why : 'not checked'})`];
  });
  if (denied.length === 0) return undefined;
  const missing = module.listedOnlyIfQueryable.datasets(spec).some((dataset) => access[dataset]?.allowed === false && access[dataset].missing);
  return `${resource.kind} "${resource.key}" is not in the ${module.plural} list, but the service lists only ${module.plural} on datasets ` +
    `the token may query, and ${denied.join('; and ')}. It may exist already, so wsync does not create it a second time: ` +
    (missing ? 'check the dataset name (or declare the dataset), or give the token access to it, and plan again.' : 'give the token query access to the dataset (or use a token that has it) and plan again.');
}
