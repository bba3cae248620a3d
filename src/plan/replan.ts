// The field diffs of one declared resource against one live object, as the planner finds them:
// apply re-plans an object the workspace changed between the plan and its write (a stale version).
import { pointerSegments } from '../core/json-paths.js';
import type { DesiredResource, FieldDiff, JsonObject } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import { ignoredFields } from './annotations.js';
import { compareSpecs } from './compare.js';
import { specPointer } from './fingerprint.js';

export function diffsAgainst(resource: DesiredResource, liveSpec: JsonObject, hashKey: string, recorded?: Record<string, string>): FieldDiff[] {
  const module = KINDS[resource.kind];
  return compareSpecs({
    module,
    desired: module.normalize?.(resource.spec) ?? resource.spec,
    live: liveSpec,
    ignore: ignoredFields(resource),
    interpolated: resource.interpolated.map((p) => pointerSegments(specPointer(p))),
    secrets: { hashKey, recorded },
  }).diffs;
}
