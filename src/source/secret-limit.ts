// The bound on secret values in a tree (limits.ts, MAX_SECRET_VALUES): each one is hashed, shown
// and recorded on its own, so their number, not their bytes, is what plan and apply pay for.
import { findPaths, toPointer } from "../core/json-paths.js";
import type { DesiredResource, Diagnostic } from "../core/types.js";
import { kindModule } from "../kinds/index.js";
import { MAX_SECRET_VALUES } from "./limits.js";

/** The error at the secret value that passes MAX_SECRET_VALUES in the tree, if one does. */
export function secretValueLimit(
  resources: readonly DesiredResource[],
): Diagnostic[] {
  let count = 0;
  for (const resource of resources) {
    const fields = kindModule(resource.kind).secretFields;
    if (fields.length === 0) continue;
    const found = findPaths(resource.spec, fields);
    if (count + found.length <= MAX_SECRET_VALUES) {
      count += found.length;
      continue;
    }
    const past = found[MAX_SECRET_VALUES - count];
    const field = past ? `spec.${past.dotted}` : "spec";
    const at =
      (past && resource.locations[`/spec${toPointer(past.segments)}`]) ||
      resource.source;
    return [
      {
        severity: "error",
        code: "limit",
        ...at,
        kind: resource.kind,
        name: resource.name,
        field,
        message:
          `${field}: the files hold more than ${MAX_SECRET_VALUES} secret values (webhook header values, tokens, webhook ` +
          "URLs), each compared by keyed hash and recorded in the inventory: keep the secrets of a notifier to the few its " +
          "service needs",
      },
    ];
  }
  return [];
}
