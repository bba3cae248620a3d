// One object's pulls made in its files: the YAML document that declares it (edited in place, then
// read back and checked to say exactly what was meant) and the JSON document file it names (a
// dashboard's, written as export writes it).
import { parseAllDocuments, type Document } from 'yaml';
import { cloneJson, isJsonObject, jsonEqual } from '../core/json.js';
import type { DesiredResource, JsonObject, JsonValue } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import { documentSchema, orderBySchema, type SchemaSet } from '../export/schema-order.js';
import { escapeInterpolation } from '../export/workspace.js';
import { itemKeyAt, itemName, type FieldPull } from './differences.js';
import { applySplices, EditRefused, YamlDocumentEditor, type Splice } from './yaml-edit.js';

export type Segment = string | number;

export const PARSE_OPTIONS = { merge: true, prettyErrors: false } as const;

export function parseYaml(text: string): Document.Parsed[] {
  return parseAllDocuments(text, PARSE_OPTIONS) as Document.Parsed[];
}

/** The document of `docs` that starts at or holds line `line` (1-based) of `text`. */
export function documentAtLine(text: string, docs: readonly Document.Parsed[], line: number): number {
  let offset = 0;
  for (let i = 1; i < line; i++) offset = text.indexOf('\n', offset) + 1;
  return docs.findIndex((doc) => doc.range[2] > offset || doc === docs[docs.length - 1]);
}

/**
 * Comparison segments as a path into `root` (a keyed item by its index there, or the next free
 * index when `root` has no item of that name): `specPath` is where `root` sits in the spec.
 */
export function indexPath(module: KindModule, root: JsonValue, segments: readonly string[], specPath: readonly string[]): Segment[] {
  const out: Segment[] = [];
  let node: JsonValue | undefined = root;
  const at = [...specPath];
  for (const segment of segments) {
    const name = itemName(segment);
    if (name !== undefined && Array.isArray(node)) {
      const key = itemKeyAt(module, at);
      const index = node.findIndex((item) => isJsonObject(item) && key !== undefined && item[key] === name);
      out.push(index === -1 ? node.length : index);
      node = index === -1 ? undefined : node[index];
    } else {
      out.push(segment);
      node = isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, segment) ? node[segment] : undefined;
    }
    at.push(segment);
  }
  return out;
}

function setIn(root: JsonValue, path: readonly Segment[], value: JsonValue): void {
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i] as Segment;
    const container = node as Record<string, JsonValue> & JsonValue[];
    let next = Array.isArray(node) ? node[Number(segment)] : isJsonObject(node) ? node[String(segment)] : undefined;
    if (next === undefined || next === null || typeof next !== 'object') {
      next = typeof path[i + 1] === 'number' ? [] : {};
      if (Array.isArray(node)) container[Number(segment)] = next;
      else container[String(segment)] = next;
    }
    node = next;
  }
  const last = path[path.length - 1] as Segment;
  if (Array.isArray(node)) node[Number(last)] = value;
  else if (isJsonObject(node)) node[String(last)] = value;
}

function deleteIn(root: JsonValue, path: readonly Segment[]): void {
  let node: JsonValue | undefined = root;
  for (const segment of path.slice(0, -1)) node = Array.isArray(node) ? node[Number(segment)] : isJsonObject(node) ? node[String(segment)] : undefined;
  const last = path[path.length - 1] as Segment;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else if (isJsonObject(node)) delete node[String(last)];
}

/** Removals last, the later items of a list first: indices of the file stay right for each. */
function inEditOrder(paths: { path: Segment[]; value?: JsonValue }[]): { path: Segment[]; value?: JsonValue }[] {
  const sets = paths.filter((p) => p.value !== undefined);
  const removals = paths.filter((p) => p.value === undefined);
  removals.sort((a, b) => {
    for (let i = 0; i < Math.min(a.path.length, b.path.length); i++) {
      const x = a.path[i] as Segment;
      const y = b.path[i] as Segment;
      if (x === y) continue;
      return typeof x === 'number' && typeof y === 'number' ? y - x : String(y).localeCompare(String(x));
    }
    return b.path.length - a.path.length;
  });
  return [...sets, ...removals];
}

export interface YamlEditResult {
  splices: Splice[];
  notes: string[];
}

/** Where the pulls go in a text: the YAML document under `spec`, or a document file (JSON) as its root. */
interface Place {
  json: boolean;
  /** Path of the spec's part in the document (`['spec']`, or `[]` for a document file). */
  root: Segment[];
  /** Leading comparison segments the place stands for (the document field of a document file). */
  skip: number;
}

const YAML_PLACE: Place = { json: false, root: ['spec'], skip: 0 };
const DOCUMENT_PLACE: Place = { json: true, root: [], skip: 1 };

/**
 * The splices that make document `index` of `text` say the pulls. Throws EditRefused when the
 * result would not read back as meant (an anchor the change would reach elsewhere, a layout too
 * odd to edit in place).
 */
function editDocument(text: string, index: number, module: KindModule, pulls: readonly FieldPull[], place: Place): YamlEditResult {
  const doc = parseYaml(text)[index];
  const original = doc?.toJS({ maxAliasCount: -1 }) as JsonValue | undefined;
  let root: JsonValue | undefined = original;
  for (const segment of place.root) root = isJsonObject(root) ? root[String(segment)] : undefined;
  const specPath = pulls[0]?.segments.slice(0, place.skip) ?? [];
  const paths = pulls.map((pull) => ({
    path: [...place.root, ...indexPath(module, root ?? {}, pull.segments.slice(place.skip), specPath)],
    ...(pull.value !== undefined ? { value: pull.value } : {}),
  }));
  return editDocumentPaths(text, index, paths, place.json);
}

/**
 * The splices that make document `index` of `text` hold each value at its path (no value: the
 * path removed). Throws EditRefused when the result would not read back exactly so (an anchor the
 * change would reach elsewhere, a layout too odd to edit in place).
 */
export function editDocumentPaths(text: string, index: number, paths: readonly { path: Segment[]; value?: JsonValue }[], json = false): YamlEditResult {
  const docs = parseYaml(text);
  const doc = docs[index];
  if (!doc || doc.errors.length > 0) throw new EditRefused('the document is no longer in the file, or does not parse');
  const original = doc.toJS({ maxAliasCount: -1 }) as JsonValue;
  if (!isJsonObject(original)) throw new EditRefused('the document is not a mapping');
  const target = cloneJson(original);
  const editor = new YamlDocumentEditor(text, doc, json);
  for (const { path, value } of inEditOrder(paths.map((p) => ({ ...p, path: [...p.path] })))) {
    if (path.length === 0) throw new EditRefused('the whole document differs');
    if (value === undefined) {
      deleteIn(target, path);
      editor.remove(path, target);
    } else {
      setIn(target, path, value);
      editor.set(path, target);
    }
  }
  const edited = applySplices(text, editor.splices);
  const after = parseYaml(edited);
  const reread = after[index];
  if (after.length !== docs.length || !reread || reread.errors.length > 0) throw new EditRefused('the edited file would not parse');
  if (!jsonEqual(reread.toJS({ maxAliasCount: -1 }) as JsonValue, target)) {
    throw new EditRefused('an edit in place would also change other values (an anchor used elsewhere in the document)');
  }
  if (json) JSON.parse(edited);
  return { splices: editor.splices, notes: editor.notes };
}

/** The splices that make document `index` of `text` say the pulls (paths under `spec`). */
export function editYamlDocument(text: string, index: number, module: KindModule, pulls: readonly FieldPull[]): YamlEditResult {
  // `${` from the workspace is text: `$${` is how a resource file says so (a document file is read as written).
  const escaped = pulls.map((pull) => (pull.value === undefined ? pull : { ...pull, value: escapeInterpolation(pull.value) }));
  return editDocument(text, index, module, escaped, YAML_PLACE);
}

/**
 * A document file (a dashboard's JSON) with the pulls made: edited in place where it can be (only
 * the changed lines change), else written whole as export writes it.
 */
export function editDocumentFile(text: string, resource: DesiredResource, pulls: readonly FieldPull[], schemas: SchemaSet): string {
  const module = KINDS[resource.kind];
  const declared = module.documentFile;
  if (!declared) throw new EditRefused('the kind keeps no document file');
  try {
    return applySplices(text, editDocument(text, 0, module, pulls, DOCUMENT_PLACE).splices);
  } catch (err) {
    if (!(err instanceof EditRefused)) throw err;
  }
  const document = cloneJson(JSON.parse(text) as JsonValue);
  const paths = pulls.map((pull) => ({
    path: indexPath(module, document, pull.segments.slice(1), [declared.documentField]),
    ...(pull.value !== undefined ? { value: pull.value } : {}),
  }));
  for (const { path, value } of inEditOrder(paths)) {
    if (path.length === 0) throw new EditRefused('the whole document differs');
    if (value === undefined) deleteIn(document, path);
    else setIn(document, path, value);
  }
  const ordered = orderBySchema(schemas, documentSchema(schemas, declared.schemaFile), document);
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Whether the YAML document keeps this pull in a document file of its own (`spec.file` of a dashboard). */
export function inDocumentFile(resource: DesiredResource, yamlSpec: JsonObject | undefined, pull: FieldPull): boolean {
  const declared = KINDS[resource.kind].documentFile;
  return declared !== undefined && pull.segments[0] === declared.documentField && typeof yamlSpec?.[declared.pathField] === 'string';
}
