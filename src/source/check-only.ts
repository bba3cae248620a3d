// `wsync validate` reads a tree to check it, not to plan it: after a file is read, what a resource
// holds beyond its identity (its spec, locations, annotations) is needed only by the checks across
// files that come after the read, and for most resources none of them will look: a tree's specs
// kept to the end were most of what the collector copied and the process held (docs/incremental.md,
// "CPU of `wsync validate`").
import type { KindName, SourceLocation } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { FileResult } from './process-file.js';
import { CHECKED_SPEC, keysOf, REFERENCE_TARGETS, referencesResolve } from './references/references.js';
import { NO_ANNOTATIONS, NO_POINTERS } from './validate/resource.js';

const NO_LOCATIONS: Record<string, SourceLocation> = Object.freeze({});

/**
 * Follows a read file by file and lets go of the spec, locations, interpolated pointers and
 * annotations of each valid resource that no check after the read needs: its kind holds no secret
 * values (counted across the tree) and issues no secret (whose file names must not clash), and each
 * name it refers to resolves among what the files read so far declare. What the tree declares in the end holds these, so the reference check
 * of the whole finds nothing to say about it either; a resource with a name still unresolved is kept
 * whole and checked at the end as before.
 */
export class CheckOnlyRead {
  /** Keys declared so far, of the kinds references name: first declarations and their resources' keys, as checkReferences is given them. */
  private readonly declared = new Map<KindName, Set<string>>();
  /** The keys of the declarations so far (a later one of the same key is a duplicate, whose resource is dropped). */
  private readonly firsts = new Map<KindName, Set<string>>();

  /** Takes in the declarations of a file just read, then empties what its resources no longer need. */
  afterFile(result: FileResult): void {
    for (const doc of result.documents) {
      const declaration = doc.declaration;
      if (declaration === undefined || !REFERENCE_TARGETS.has(declaration.kind)) continue;
      const firsts = keysOf(this.firsts, declaration.kind);
      if (firsts.has(declaration.key)) continue;
      firsts.add(declaration.key);
      keysOf(this.declared, declaration.kind).add(declaration.key);
      const resource = doc.resource;
      if (resource !== undefined) keysOf(this.declared, resource.kind).add(resource.key);
    }
    for (const doc of result.documents) {
      const resource = doc.resource;
      if (resource === undefined || resource.spec === CHECKED_SPEC) continue;
      const module = KINDS[resource.kind];
      if (module.secretFields.length > 0 || module.issuedSecret !== undefined) continue;
      if (module.references.length > 0 && !referencesResolve(resource.kind, resource.spec, this.declared)) continue;
      resource.spec = CHECKED_SPEC;
      resource.locations = NO_LOCATIONS;
      resource.interpolated = NO_POINTERS;
      resource.annotations = NO_ANNOTATIONS;
    }
  }
}
