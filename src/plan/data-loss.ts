// Updates that destroy data for good (a dataset's retention cut): said loudly, refused without an opt-in.
import { getAt, withValueAt, withoutValueAt } from '../core/json-paths.js';
import type { JsonObject, Policy } from '../core/types.js';
import type { KindModule } from '../kinds/types.js';

export interface DataLoss {
  /** What the update destroys: every plan format shows it under "Data loss". */
  warning: string;
  /** Why the update is refused: the opt-in it needs was not given. Absent when it was. */
  refused?: string;
}

/**
 * The desired spec as an update would write it: where the file tolerates drift
 * (`wsync/ignore-fields`) or leaves a computed field out, the live value stays.
 */
function asWritten(module: KindModule, desired: JsonObject, live: JsonObject, ignored: readonly string[][]): JsonObject {
  const kept = [...ignored, ...module.computed.map((path) => path.split('.')).filter((segments) => getAt(desired, segments) === undefined)];
  let spec = desired;
  for (const segments of kept) {
    const value = getAt(live, segments);
    spec = value === undefined ? withoutValueAt(spec, segments) : withValueAt(spec, segments, value);
  }
  return spec;
}

/** What an update of `live` to `desired` destroys, and whether the policy lets it through; undefined when nothing. */
export function dataLossOf(
  module: KindModule,
  desired: JsonObject,
  live: JsonObject,
  ignored: readonly string[][],
  policy: Pick<Policy, 'allowDataLoss'>,
): DataLoss | undefined {
  const warning = module.dataLoss?.(asWritten(module, desired, live, ignored), live);
  if (warning === undefined) return undefined;
  if ((policy.allowDataLoss ?? []).includes(module.kind)) return { warning };
  return { warning, refused: module.dataLossOptIn ?? `this update destroys data; it needs an opt-in for ${module.kind}` };
}
