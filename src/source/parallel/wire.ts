// What the worker thread of a parallel read (share.ts) sends for one file. Taking a result in costs
// the main thread what it costs to make its objects, so the usual document (a valid resource whose
// names are written plainly) is sent as its spec and a few strings, and the main thread builds the
// rest (as validateResource and processParsed do, in the same order); any other document is sent
// whole. A location map computed on demand (lazy-locations.ts) is a proxy, which cannot be cloned:
// the worker sends where its document starts, and the main thread makes the map again over its
// own copy of the text, so positions are still computed only when a diagnostic asks for them.
import type { DesiredResource, JsonObject, KindName, SourceLocation } from '../../core/types.js';
import { FileLocations } from '../parse/fast-document.js';
import { locationsOnDemand, pendingOf } from '../parse/lazy-locations.js';
import type { DocumentResult, FileResult } from '../process-file.js';

/**
 * A valid resource, with its declaration: line, column, offset of its start in the text, kind, name, spec, then what is null when it is the name (key,
 * name as written, name shown) or the key (key shown), and annotations (null: none).
 */
type Plain = [number, number, number, KindName, string, JsonObject, string | null, string | null, string | null, string | null, Record<string, string> | null];

export interface WireResult {
  /** The file's result, without its documents. */
  result: FileResult;
  documents: (Plain | DocumentResult)[];
  /** The text positions are computed from when it is not the file's text: js-yaml's copy, which ends in a line break. */
  newline?: true;
  text?: string;
}

const orNull = (value: string, same: string): string | null => (value === same ? null : value);

/** The document as a Plain, when it is one; `lazy` gets the text its locations would be computed from. */
function plain(doc: DocumentResult, path: string, lazy: { text?: string }): Plain | undefined {
  const { resource, declaration, start } = doc;
  if (resource === undefined || declaration === undefined || doc.skipped || resource.source !== start || start.file !== path) return undefined;
  if (resource.interpolated.length > 0 || declaration.kind !== resource.kind || declaration.key !== resource.key) return undefined;
  const pending = pendingOf(resource.locations);
  const text = pending && !pending.computed && pending.source instanceof FileLocations ? pending.source.pendingText : undefined;
  if (pending === undefined || text === undefined || pending.start !== start) return undefined;
  if (lazy.text !== undefined && lazy.text !== text) return undefined;
  lazy.text = text;
  const annotations = Object.keys(resource.annotations).length > 0 ? resource.annotations : null;
  const { name, key } = resource;
  const shown = orNull(declaration.shownKey, key);
  return [start.line, start.column, pending.startOffset, resource.kind, name, resource.spec, orNull(key, name), orNull(declaration.writtenName, name), orNull(declaration.shownName, name), shown, annotations];
}

/** A document sent whole: a proxy cannot be cloned, its record is sent instead. */
function whole(doc: DocumentResult): DocumentResult {
  const resource = doc.resource;
  if (resource === undefined || pendingOf(resource.locations) === undefined) return doc;
  return { ...doc, resource: { ...resource, locations: { ...resource.locations } } };
}

/** The result of `text`, made sendable. */
export function toWire(result: FileResult, text: string, path: string): WireResult {
  const lazy: { text?: string } = {};
  const documents = result.documents.map((doc) => plain(doc, path, lazy) ?? whole(doc));
  const wire: WireResult = { result: { ...result, documents: [] }, documents };
  if (lazy.text === undefined || lazy.text === text) return wire;
  if (lazy.text === `${text}\n`) wire.newline = true;
  else wire.text = lazy.text;
  return wire;
}

function resourceOf(sent: Plain, path: string, locations: () => FileLocations): DocumentResult {
  const [line, column, startOffset, kind, name, spec, key, writtenName, shownName, shownKey, annotations] = sent;
  const start: SourceLocation = { file: path, line, column };
  const resource: DesiredResource = {
    kind,
    name,
    key: key ?? name,
    annotations: annotations ?? {},
    spec,
    source: start,
    locations: locationsOnDemand(locations(), startOffset, start),
    interpolated: [],
  };
  const declaration = { kind, key: resource.key, writtenName: writtenName ?? name, shownName: shownName ?? name, shownKey: shownKey ?? resource.key };
  return { skipped: false, start, resource, declaration };
}

/** The result as the main thread would have made it from `text`, the text the worker read. */
export function fromWire(wire: WireResult, text: string, path: string): FileResult {
  let source: FileLocations | undefined;
  const locations = (): FileLocations => (source ??= new FileLocations(wire.text ?? (wire.newline ? `${text}\n` : text), path));
  const result = wire.result;
  for (const doc of wire.documents) result.documents.push(Array.isArray(doc) ? resourceOf(doc, path, locations) : doc);
  return result;
}
