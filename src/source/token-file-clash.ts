// API tokens whose secrets would go to one file: the token output directory names a secret's file
// after its token (state/tokens.ts keeps letters, digits, `.`, `_` and `-`), so `deploy bot` and
// `deploy_bot` would share `deploy_bot`, the second secret overwriting the first and each token's
// plan then finding the other's secret as its own.
import type { DesiredResource, Diagnostic } from '../core/types.js';
import { kindModule } from '../kinds/index.js';
import { tokenFileName } from '../state/tokens.js';

/** An error at each declaration whose secret file an earlier declaration of the tree takes already. */
export function tokenFileClashes(resources: readonly DesiredResource[]): Diagnostic[] {
  const first = new Map<string, DesiredResource>();
  const out: Diagnostic[] = [];
  for (const resource of resources) {
    if (kindModule(resource.kind).issuedSecret === undefined) continue;
    const file = tokenFileName(resource.name);
    const taken = first.get(file);
    if (taken === undefined) {
      first.set(file, resource);
      continue;
    }
    out.push({
      severity: 'error',
      code: 'token-file',
      ...(resource.locations['/metadata/name'] ?? resource.source),
      kind: resource.kind,
      name: resource.name,
      field: 'metadata.name',
      message:
        `the secret of ${resource.kind} "${resource.name}" would be written to the file "${file}" of the token output directory, ` +
        `as the secret of ${taken.kind} "${taken.name}" (${taken.source.file}:${taken.source.line}): one would overwrite the other. ` +
        'Rename one: a file name keeps letters, digits, ".", "_" and "-" of the name',
    });
  }
  return out;
}
