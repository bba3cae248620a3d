import type { DesiredResource, Diagnostic, JsonObject, KindName } from '../../core/types.js';
import type { Reference } from '../../kinds/types.js';
import { referencedId } from '../../kinds/common.js';
import { KIND_NAMES, KINDS } from '../../kinds/index.js';
import { everyReferenceName, isBuiltinName, referenceNames } from '../../kinds/reference-names.js';
import { toPointer } from '../../core/json-paths.js';
import { dottedPath } from '../parse/document.js';
import { didYouMean } from '../../core/suggest.js';

/** The kinds a reference names: only their declarations decide whether a name resolves. */
export const REFERENCE_TARGETS: ReadonlySet<KindName> = new Set(KIND_NAMES.flatMap((kind) => KINDS[kind].references.map((r) => r.target)));

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
  const declare = (r: { kind: KindName; key: string }): void => {
    // A tree's many monitors are named by nothing: no set of their keys.
    if (REFERENCE_TARGETS.has(r.kind)) keysOf(declared, r.kind).add(r.key);
  };
  for (const r of resources) declare(r);
  for (const r of alsoDeclared) declare(r);
  const out: Diagnostic[] = [];
  for (const r of resources) {
    const references = KINDS[r.kind].references;
    if (references.length === 0 || r.spec === CHECKED_SPEC) continue;
    for (const ref of references) {
      const targets = declared.get(ref.target) ?? NONE;
      // Most names resolve: their paths are only made (referenceNames) for a resource with one that does not.
      if (allResolve(ref, r.spec, targets)) continue;
      for (const { name, segments } of referenceNames(ref, r.spec)) {
        if (resolves(ref, name, targets)) continue;
        const key = KINDS[ref.target].keyOf(name, {});
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

const NONE: ReadonlySet<string> = new Set();

/** The set of keys of `kind` in `byKind`, made on first use. */
export function keysOf(byKind: Map<KindName, Set<string>>, kind: KindName): Set<string> {
  let keys = byKind.get(kind);
  if (keys === undefined) byKind.set(kind, (keys = new Set()));
  return keys;
}
const NO_SPEC: JsonObject = Object.freeze({});

/** The spec of a resource whose names were all found to resolve already, kept no longer (check-only.ts): nothing to check. */
export const CHECKED_SPEC: JsonObject = Object.freeze({});

/**
 * Does every name of `spec` (a resource of `kind`) resolve among `declared` (keys by kind)? Then
 * checkReferences finds nothing to say about it against any set of declarations that holds these.
 */
export function referencesResolve(kind: KindName, spec: JsonObject, declared: ReadonlyMap<KindName, ReadonlySet<string>>): boolean {
  for (const ref of KINDS[kind].references) if (!allResolve(ref, spec, declared.get(ref.target) ?? NONE)) return false;
  return true;
}

/** A built-in value, an `id:` reference, or the key of a declared target. */
function resolves(ref: Reference, name: string, targets: ReadonlySet<string>): boolean {
  return isBuiltinName(ref, name) || (ref.byId === true && referencedId(name) !== undefined) || targets.has(KINDS[ref.target].keyOf(name, NO_SPEC));
}

/** Does every name `ref` holds in `spec` resolve among `targets`? */
function allResolve(ref: Reference, spec: JsonObject, targets: ReadonlySet<string>): boolean {
  return everyReferenceName(ref, spec, (name) => resolves(ref, name, targets));
}
