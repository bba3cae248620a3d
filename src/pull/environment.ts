// Pulls into a tree with environments (wsync.yaml environments, overlays in environments/NAME/):
// a change seen in one environment's workspace lands in that environment's files. A value from
// `${var:X}` is that environment's variable in wsync.yaml (edited when the placeholder is the whole
// value and X is read nowhere else, reported otherwise, never flattened); any other value is
// written in the environment's overlay of the object (the base serves every environment), made
// when there is none.
import { stringify } from 'yaml';
import { cloneJson, isJsonObject } from '../core/json.js';
import type { DesiredResource, JsonObject, JsonValue } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import type { FieldPull } from './differences.js';
import { documentAtLine, indexPath, parseYaml, type Segment } from './object-edit.js';
import { valueAt } from './yaml-edit.js';

export const OVERLAY_FOLDER = 'environments';
export const CONFIG_FILE = 'wsync.yaml';

/** A value of one pull routed to a file of the environment. */
export type Routed =
  | { to: 'overlay'; path: Segment[]; value: JsonValue }
  | { to: 'variable'; name: string; value: JsonValue }
  | { to: 'report'; field: string; message: string };

/** `${var:NAME}` as the whole text: NAME; otherwise undefined. */
function exactVariable(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? /^\$\{var:([^}]+)\}$/.exec(value)?.[1] : undefined;
}

function readsVariable(value: JsonValue | undefined): boolean {
  return typeof value === 'string' && value.includes('${var:');
}

/** How many times the texts read `${var:NAME}`. */
export function variableUses(texts: Iterable<string>, name: string): number {
  let count = 0;
  for (const text of texts) count += text.split(`\${var:${name}}`).length - 1;
  return count;
}

export interface OverlayDocument {
  path: string;
  /** The document's index in its file; undefined: the overlay is to be made. */
  index?: number;
  /** The overlay as written (its spec), or {} for one to be made. */
  spec: JsonObject;
}

/** The overlay of `resource` in environment `name`'s folder, if the tree has one. */
export function findOverlay(files: ReadonlyMap<string, string>, environment: string, resource: DesiredResource): OverlayDocument | undefined {
  const folder = `${OVERLAY_FOLDER}/${environment}/`;
  for (const [path, text] of files) {
    if (!path.startsWith(folder) || !/\.ya?ml$/.test(path)) continue;
    const docs = parseYaml(text);
    const index = docs.findIndex((doc) => {
      const value = doc.toJS({ maxAliasCount: -1 }) as { kind?: unknown; metadata?: { name?: unknown } } | null;
      return value?.kind === resource.kind && typeof value.metadata?.name === 'string' && value.metadata.name.normalize('NFC') === resource.name.normalize('NFC');
    });
    if (index === -1) continue;
    const value = docs[index]?.toJS({ maxAliasCount: -1 }) as { spec?: unknown };
    return { path, index, spec: isJsonObject(value.spec) ? value.spec : {} };
  }
  return undefined;
}

/**
 * The part of `path` an overlay has to write for it to hold: maps merge by key, so the path as
 * is, unless it enters a list the overlay does not write (lists replace): then up to the list.
 */
function overlayPath(overlay: JsonValue, path: readonly Segment[]): Segment[] {
  let node: JsonValue | undefined = overlay;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as Segment;
    if (typeof segment === 'number') return path.slice(0, i);
    node = isJsonObject(node) ? node[segment] : undefined;
    if (node === undefined || !isJsonObject(node)) {
      // Written by the overlay (a value or a list it replaces), or not at all below here.
      const rest = path.slice(i + 1);
      if (node !== undefined || !rest.some((s) => typeof s === 'number')) return [...path];
      return path.slice(0, i + 1 + rest.findIndex((s) => typeof s === 'number'));
    }
  }
  return [...path];
}

export interface RouteInput {
  environment: string;
  resource: DesiredResource;
  /** The base document's spec as written (placeholders unresolved). */
  baseSpec: JsonObject;
  overlay: OverlayDocument | undefined;
  /** Every text of the tree read for this environment: to count a variable's readers. */
  texts: readonly string[];
}

/** Where each pull goes: the overlay (paths under its spec), a variable, or a report. */
export function routePulls(input: RouteInput, pulls: readonly FieldPull[]): Routed[] {
  const module: KindModule = KINDS[input.resource.kind];
  const overlaySpec = input.overlay?.spec ?? {};
  // What this environment renders, as written: the overlay over the base (maps by key).
  const merged = mergeWritten(input.baseSpec, overlaySpec);
  const routed: Routed[] = [];
  for (const pull of pulls) {
    const byVariable = variableRoute(module, merged, pull, input);
    if (byVariable) {
      routed.push(byVariable);
      continue;
    }
    const path = indexPath(module, merged, pull.segments, []);
    const at = overlayPath(overlaySpec, path);
    if (at.length === path.length) {
      // Cleared in the workspace: `null` removes it in this environment (the base keeps it for the others).
      routed.push({ to: 'overlay', path: at, value: pull.value ?? null });
      continue;
    }
    // A list the overlay does not write yet: written whole, as this environment has it after the change.
    const list = cloneJson(valueAt(merged, at) ?? []);
    const rest = path.slice(at.length);
    if (pull.value === undefined) deleteAt(list, rest);
    else putAt(list, rest, pull.value);
    routed.push({ to: 'overlay', path: at, value: list });
  }
  return routed;
}

/**
 * Where a pull goes when the value it changes is read from `${var:}` in `spec` (as written): the
 * variable, when it is the whole value and read nowhere else; a report otherwise. Undefined: the
 * value is not a variable's.
 */
export function variableRoute(
  module: KindModule,
  spec: JsonValue,
  pull: FieldPull,
  input: { environment: string; texts: readonly string[] },
): Routed | undefined {
  const path = indexPath(module, spec, pull.segments, []);
  const written = valueAt(spec, path);
  const variable = exactVariable(written);
  if (variable !== undefined && pull.value !== undefined && variableUses(input.texts, variable) === 1) {
    return { to: 'variable', name: variable, value: pull.value };
  }
  if (!readsVariable(written) && !path.some((_, i) => readsVariable(valueAt(spec, path.slice(0, i))))) return undefined;
  return {
    to: 'report',
    field: pull.segments.join('.').replace(/\.\[/g, '['),
    message: `the value comes from \${var:} of environment "${input.environment}" (read elsewhere too, or inside a longer text): not written; change the variable in ${CONFIG_FILE} or the file that reads it`,
  };
}

function mergeWritten(base: JsonValue, overlay: JsonValue): JsonValue {
  if (!isJsonObject(base) || !isJsonObject(overlay)) return overlay === undefined ? base : overlay;
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    if (value === null) delete out[key];
    else out[key] = key in base ? mergeWritten(base[key] as JsonValue, value) : value;
  }
  return out;
}

function putAt(root: JsonValue, path: readonly Segment[], value: JsonValue): void {
  let node = root as Record<string, JsonValue>;
  for (const segment of path.slice(0, -1)) node = node[String(segment)] as Record<string, JsonValue>;
  const last = path[path.length - 1] as Segment;
  if (Array.isArray(node)) node[Number(last)] = value;
  else node[String(last)] = value;
}

function deleteAt(root: JsonValue, path: readonly Segment[]): void {
  let node = root as Record<string, JsonValue>;
  for (const segment of path.slice(0, -1)) node = node[String(segment)] as Record<string, JsonValue>;
  const last = path[path.length - 1] as Segment;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[String(last)];
}

/**
 * A new overlay document for `resource` holding `spec`, as a file of its own or a document to
 * append (`---` first); its `$schema` line the base file's, one folder deeper per folder.
 */
export function newOverlayText(resource: DesiredResource, baseText: string, overlayPath: string, spec: JsonObject, append: boolean): string {
  const ref = /^# yaml-language-server: \$schema=(\S+)\s*$/m.exec(baseText)?.[1];
  const extra = overlayPath.split('/').length - resource.source.file.split('/').length;
  const schema = ref === undefined ? '' : `# yaml-language-server: $schema=${/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref) || ref.startsWith('/') ? ref : '../'.repeat(Math.max(0, extra)) + ref}\n`;
  const body = stringify({ apiVersion: 'wsync/v1', kind: resource.kind, metadata: { name: resource.name }, spec }, { version: '1.1', lineWidth: 0, indent: 2 });
  return `${append ? '---\n' : ''}${schema}# An overlay: what differs in this environment (written by wsync pull).\n${body}`;
}

/** Document `index` of `text` by the resource's start line, for a base document. */
export function baseSpecOf(text: string, line: number): JsonObject {
  const docs = parseYaml(text);
  const value = docs[documentAtLine(text, docs, line)]?.toJS({ maxAliasCount: -1 }) as { spec?: unknown } | undefined;
  return isJsonObject(value?.spec) ? value.spec : {};
}
