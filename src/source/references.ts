import type { DesiredResource, Diagnostic, JsonValue, KindName } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import { getAt, toPointer } from '../core/json-paths.js';
import { dottedPath } from './document.js';

/**
 * Warnings for references by name to objects not declared among `resources`. Such an object may
 * exist live, so this is not an error here; the planner resolves against live state. Names are
 * compared as the target kind keys them (User: lower-cased email).
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
      const segments = ref.field.split('.');
      const value = getAt(r.spec, segments);
      const named: { name: string; path: (string | number)[] }[] = [];
      if (ref.many && Array.isArray(value)) {
        value.forEach((item: JsonValue, index) => {
          if (typeof item === 'string') named.push({ name: item, path: [...segments, index] });
        });
      } else if (!ref.many && typeof value === 'string') {
        named.push({ name: value, path: segments });
      }
      const targets = declared.get(ref.target);
      for (const { name, path } of named) {
        if (ref.builtins?.includes(name)) continue;
        if (targets?.has(KINDS[ref.target].keyOf(name, {}))) continue;
        const pointer = toPointer(['spec', ...path]);
        const field = dottedPath(['spec', ...path]);
        const what = r.interpolated.includes(pointer) ? 'by this interpolated name' : `named "${name}"`;
        out.push({
          severity: 'warning',
          code: 'unresolved-reference',
          ...(r.locations[pointer] ?? r.source),
          kind: r.kind,
          name: r.name,
          field,
          message: `${field}: no ${ref.target} ${what} is declared in this directory; it must exist live`,
        });
      }
    }
  }
  return out;
}
