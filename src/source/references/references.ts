import type { DesiredResource, Diagnostic, KindName } from '../../core/types.js';
import { referencedId } from '../../kinds/common.js';
import { KINDS } from '../../kinds/index.js';
import { isBuiltinName, referenceNames } from '../../kinds/reference-names.js';
import { toPointer } from '../../core/json-paths.js';
import { dottedPath } from '../parse/document.js';
import { didYouMean } from '../../core/suggest.js';

/**
 * Warnings for references by name to objects not declared among `resources`. Such an object may
 * exist live, so this is not an error here; the planner resolves against live state. Names are
 * compared as the target kind keys them (User: lower-cased email). A reference whose targets are
 * usually made outside the files (datasets made by ingest) is only questioned when a declared
 * target is a close match.
 */
export function checkReferences(
  resources: readonly DesiredResource[],
  /** More declared objects that are not in `resources` (documents with errors), as kind and key. */
  alsoDeclared: Iterable<{ kind: KindName; key: string }> = [],
): Diagnostic[] {
  const declared = new Map<KindName, Set<string>>();
  for (const r of [...resources, ...alsoDeclared]) {
    let keys = declared.get(r.kind);
    if (!keys) declared.set(r.kind, (keys = new Set()));
    keys.add(r.key);
  }
  const out: Diagnostic[] = [];
  for (const r of resources) {
    for (const ref of KINDS[r.kind].references) {
      const targets = declared.get(ref.target) ?? new Set<string>();
      for (const { name, segments } of referenceNames(ref, r.spec)) {
        if (isBuiltinName(ref, name) || (ref.byId && referencedId(name) !== undefined)) continue;
        const key = KINDS[ref.target].keyOf(name, {});
        if (targets.has(key)) continue;
        const pointer = toPointer(['spec', ...segments]);
        const interpolated = r.interpolated.includes(pointer);
        // A name read from the environment is neither printed nor compared with others.
        const close = interpolated ? undefined : didYouMean(key, targets);
        if (ref.oftenUndeclared && close === undefined) continue;
        const field = dottedPath(['spec', ...segments]);
        const what = interpolated ? 'by this interpolated name' : `named "${name}"`;
        const hint = close === undefined ? '' : ` (did you mean "${close}"?)`;
        out.push({
          severity: 'warning',
          code: 'unresolved-reference',
          ...(r.locations[pointer] ?? r.source),
          kind: r.kind,
          name: r.name,
          field,
          message: ref.builtins?.length
            ? `${field}: neither a built-in value (${ref.builtins.join(', ')}) nor a ${ref.target} ${what} declared in this directory; it must exist live${ref.openValues ? ' or be known to the workspace' : ''}${hint}`
            : `${field}: no ${ref.target} ${what} is declared in this directory; it must exist live${hint}`,
        });
      }
    }
  }
  return out;
}
