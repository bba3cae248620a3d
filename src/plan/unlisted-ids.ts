// A live object may reference an object the target's list does not show (a monitor naming a
// notifier the token cannot see, or one that is gone): its live spec holds it as `id:<id>`
// (Reference.byId). A file that leaves it out would drop it with the next write, detaching the
// notifier without anyone having asked: such a change is refused unless the file says
// `wsync/detach-unlisted: "true"` (docs/wire-contract.md "References the lists do not show").
import type { FieldDiff, JsonObject } from '../core/types.js';
import { getAt } from '../core/json-paths.js';
import { referencedId } from '../kinds/common.js';
import type { KindModule } from '../kinds/types.js';

export interface UnlistedDrop {
  /** The spec field, e.g. `notifiers`. */
  field: string;
  /** The ids the write would drop, as the file would name them (`id:<id>`). */
  names: string[];
}

function namesAt(spec: JsonObject, field: string): string[] {
  const value = getAt(spec, field.split('.'));
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The `id:<id>` references the live spec holds and the desired spec drops, where a diff touches them. */
export function droppedUnlistedIds(module: KindModule, desired: JsonObject, live: JsonObject, diffs: readonly FieldDiff[]): UnlistedDrop[] {
  const out: UnlistedDrop[] = [];
  for (const reference of module.references) {
    if (!reference.byId) continue;
    const { field } = reference;
    if (!diffs.some((d) => d.path === field || d.path.startsWith(`${field}.`) || d.path.startsWith(`${field}[`))) continue;
    const wanted = new Set(namesAt(desired, field));
    const names = namesAt(live, field).filter((name) => referencedId(name) !== undefined && !wanted.has(name));
    if (names.length > 0) out.push({ field, names });
  }
  return out;
}

/** The error's text for the drops of one object. */
export function unlistedDropMessage(kind: string, key: string, drops: readonly UnlistedDrop[]): string {
  const what = drops.map((d) => `${d.field}: ${d.names.join(', ')}`).join('; ');
  return (
    `${kind} "${key}" holds references the lists do not show (${what}): this change would drop them. The token may not see ` +
    'those objects, or they are gone. Keep them by adding them to the file as written here, or annotate the resource ' +
    'wsync/detach-unlisted: "true" to drop them'
  );
}
