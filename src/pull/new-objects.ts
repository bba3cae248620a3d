// Objects made in the workspace that the tree does not declare, as the files export would write
// for them, where export would put them (beside the tree's own `$schema` lines).
import { compareText } from '../core/json.js';
import type { Inventory, KindName, LiveState } from '../core/types.js';
import { exportWorkspace, type ExportedFile, type ExportedObject } from '../export/workspace.js';
import type { SchemaSet } from '../export/schema-order.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { indexLive } from '../plan/live-index.js';
import { isSelected, type Selection } from '../plan/selection.js';
import type { PullReport } from './planner.js';

export interface NewObjectsInput {
  desired: readonly { kind: KindName; key: string }[];
  /** What the base of the tree declared: an object it declared and the tree does not was removed here, not made there. */
  base: readonly { kind: KindName; key: string }[];
  /** Kinds the tree declares: a new object of another kind is left to `wsync export` unless `--kind` names it. */
  declaredKinds: readonly KindName[];
  live: LiveState;
  inventory: Inventory;
  selection?: Selection;
  existing: ReadonlyMap<string, string>;
  schemas: SchemaSet;
  /** A tree with environments: a new object is this environment's alone, written in environments/NAME/. */
  environment?: string;
}

export interface NewObjects {
  files: ExportedFile[];
  objects: ExportedObject[];
  variables: string[];
  secretValues: string[];
  warnings: PullReport[];
}

/**
 * Where the tree's files point their `$schema` lines, as export's schema base (for a file one
 * folder below the root): `../../schemas/monitor.json` -> `../schemas`; export's own otherwise.
 */
export function schemaBaseOf(files: ReadonlyMap<string, string>): string {
  for (const [path, text] of [...files].sort(([a], [b]) => compareText(a, b))) {
    if (path.split('/').length !== 2) continue;
    const ref = /^# yaml-language-server: \$schema=(\S+)\/[^/\s]+\.json\s*$/m.exec(text)?.[1];
    if (ref === undefined) continue;
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref)) return ref;
    if (ref.startsWith('../')) return ref.slice(3);
  }
  return '.schemas';
}

function kindsToRead(input: NewObjectsInput): KindName[] {
  const named = input.selection ? [...input.selection.kinds, ...input.selection.targets.map((t) => t.kind)] : input.declaredKinds;
  return KIND_NAMES.filter((kind) => named.includes(kind) && (KINDS[kind].sameObjectsAs === undefined || input.selection?.kinds.includes(kind) === true));
}

/** `path` or, when the tree has a file there, the first of `name-2`, `name-3`, ... it has not. */
function freePath(path: string, taken: ReadonlyMap<string, string> | ReadonlySet<string>): string {
  if (!taken.has(path)) return path;
  const dot = path.lastIndexOf('.');
  for (let n = 2; ; n++) {
    const candidate = `${path.slice(0, dot)}-${n}${path.slice(dot)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The live state with the objects of `kinds` cut down to those whose key the tree neither
 * declares nor owns (export then writes and checks only those).
 */
function onlyCandidates(live: LiveState, kinds: readonly KindName[], taken: ReadonlySet<string>): LiveState {
  const index = indexLive(live);
  const objects = { ...live.objects };
  // A kind others point at by id stays whole: export names the ids of a new object's references by it.
  const targets = new Set(KIND_NAMES.flatMap((kind) => KINDS[kind].references.map((ref) => ref.target)));
  for (const kind of kinds.filter((k) => !targets.has(k))) {
    const keep = new Set(index.entries.filter((e) => e.kind === kind && !taken.has(`${kind}\u0000${e.key}`)).map((e) => e.object));
    objects[kind] = (live.objects[kind] ?? []).filter((object) => keep.has(object));
  }
  return { ...live, objects };
}

export function newObjectFiles(input: NewObjectsInput): NewObjects {
  const kinds = kindsToRead(input);
  const none: NewObjects = { files: [], objects: [], variables: [], secretValues: [], warnings: [] };
  if (kinds.length === 0) return none;
  const known = new Set([...input.desired, ...input.base].map((o) => `${o.kind}\u0000${o.key}`));
  const owned = new Set(input.inventory.entries.map((e) => `${e.kind}\u0000${e.key}`));
  const result = exportWorkspace(onlyCandidates(input.live, kinds, new Set([...known, ...owned])), {
    kinds,
    schemas: input.schemas,
    schemaBase: schemaBaseOf(input.existing),
  });
  const fresh = result.objects.filter((object) => {
    const id = `${object.kind}\u0000${object.key}`;
    // An owned object the tree no longer declares was removed here (prune is apply's business).
    if (known.has(id) || owned.has(id) || object.renamed) return false;
    return !input.selection || isSelected(input.selection, { kind: object.kind, name: object.key, key: object.key });
  });
  const out: NewObjects = { ...none, secretValues: result.secretValues };
  const byPath = new Map(result.files.map((file) => [file.path, file.content]));
  const taken = new Set(input.existing.keys());
  // In environments/NAME/, two folders deeper: the `$schema` lines reach up two more.
  const prefix = input.environment === undefined ? '' : `environments/${input.environment}/`;
  const deeper = (text: string): string => (prefix === '' ? text : text.replace(/^(# yaml-language-server: \$schema=)(\.\.\/)/m, '$1../../$2'));
  for (const object of fresh) {
    const yamlPath = freePath(`${prefix}${object.path}`, taken);
    let content = deeper(byPath.get(object.path) ?? '');
    const documentPath = object.path.replace(/\.yaml$/, '.json');
    const document = byPath.get(documentPath);
    if (document !== undefined) {
      const freeDocument = freePath(`${prefix}${documentPath}`, taken);
      const oldName = documentPath.slice(documentPath.lastIndexOf('/') + 1);
      const newName = freeDocument.slice(freeDocument.lastIndexOf('/') + 1);
      if (newName !== oldName) content = content.replace(`file: ${oldName}`, `file: ${newName}`);
      out.files.push({ path: freeDocument, content: document });
      taken.add(freeDocument);
    }
    out.files.push({ path: yamlPath, content });
    taken.add(yamlPath);
    out.objects.push({ ...object, path: yamlPath });
    for (const warning of result.warnings) {
      if (warning.includes(`"${object.key}"`)) out.warnings.push({ kind: object.kind, key: object.key, what: 'new', file: yamlPath, message: warning });
    }
  }
  out.variables = [...new Set(out.objects.flatMap((o) => o.variables))].sort(compareText);
  return out;
}
