// Export's check of the references an object makes by id: each must name an object the target's
// list shows (a file names it by that object's name), or be kept in a form the file can hold.
import { getAt, withValueAt } from '../core/json-paths.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject, JsonValue, KindName } from '../core/types.js';
import { referencedId } from '../kinds/common.js';
import { isBuiltinName, referenceNames } from '../kinds/reference-names.js';
import type { KindModule } from '../kinds/types.js';

/**
 * The spec with its references checked against the names the lists show (`known`; undefined: the
 * target kind was not listed, nothing to check). An id nothing lists is kept as `id:<id>` where the
 * reference takes ids (a monitor's notifiers: dropping it would detach the notifier at the next
 * apply), with a warning; other set references lose it, with a warning; a single reference that
 * cannot be named skips the object (undefined).
 */
export function checkExportReferences(
  module: KindModule,
  draft: { id: string; name: string; spec: JsonObject },
  known: (target: KindName) => Set<string> | undefined,
  warnings: string[],
): JsonObject | undefined {
  let spec = draft.spec;
  for (const ref of module.references) {
    const names = known(ref.target);
    if (!names) continue;
    const unknown = referenceNames(ref, spec).filter(({ name }) => !names.has(name) && !isBuiltinName(ref, name) && ref.openValues !== true);
    if (unknown.length === 0) continue;
    if (!ref.many) {
      warnings.push(
        `${module.kind} "${draft.name}" (id ${draft.id}): skipped, its ${ref.field} points at a ${ref.target} ` +
          'that is not listed, so a file could not name it',
      );
      return undefined;
    }
    const byId = ref.byId ? unknown.filter(({ name }) => referencedId(name) !== undefined) : [];
    if (byId.length > 0) {
      warnings.push(
        `${module.kind} "${draft.name}" (id ${draft.id}): its ${ref.field} name ${byId.length} ${ref.target} id(s) the ${ref.target} list ` +
          `does not show (${byId.map(({ name }) => name).join(', ')}); the file keeps them in that form, so that an apply does not detach ` +
          'them (the token may not see them, or they are gone: remove them from the file and annotate wsync/detach-unlisted: "true" to detach)',
      );
    }
    const dropped = new Set(unknown.filter((use) => !byId.includes(use)).map(({ name }) => name));
    if (dropped.size === 0) continue;
    const segments = ref.field.split('.');
    const value = getAt(spec, segments);
    const kept: JsonValue = Array.isArray(value)
      ? value.filter((v) => !(typeof v === 'string' && dropped.has(v)))
      : Object.fromEntries(Object.entries(isJsonObject(value) ? value : {}).filter(([key]) => !dropped.has(key)));
    warnings.push(
      `${module.kind} "${draft.name}": ${dropped.size} of its ${ref.field} point at ` +
        `${ref.target} objects that are not listed; they are left out of the file`,
    );
    spec = withValueAt(spec, segments, kept);
  }
  return spec;
}
