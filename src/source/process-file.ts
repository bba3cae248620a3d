import { asJsonObject, isJsonObject } from '../core/json.js';
import type { Measure } from '../core/phase-times.js';
import type { DesiredResource, Diagnostic, KindName } from '../core/types.js';
import { canonicalKind, isKindName, KINDS } from '../kinds/index.js';
import { parseFile, type ParsedDocument, type ParsedFile } from './parse/document.js';
import { readAgain, type FileText, type ListedFile } from './read/files.js';
import type { SecretSources } from './interpolate/interpolate.js';
import { labelDiagnostics, toResource, type Compaction, type DocumentOutcome } from './validate/resource.js';
import { explainDiagnostics } from './parse/yaml-hints.js';

/** The natural key a document declares, for finding the same key declared twice. */
export interface Declaration {
  kind: KindName;
  /** The natural key, in NFC like every key. */
  key: string;
  /** metadata.name as written (before NFC), to tell look-alikes from plain duplicates. */
  writtenName: string;
  /** Name and key as written, so an interpolated name is not printed with its value. */
  shownName: string;
  shownKey: string;
}

export interface DocumentResult {
  skipped: boolean;
  /** Why a skipped document is not a resource (`apiVersion apps/v1, kind Deployment: ...`). */
  skipReason?: string;
  /** The document has a `kind` (a skipped one: another tool's). */
  declaresKind?: boolean;
  /** Present when the document is a valid resource. */
  resource?: DesiredResource;
  /** Present for every document of a known kind with a name, valid or not. */
  declaration?: Declaration;
  /** Where the document starts (file:line:column), for "also declared at". */
  start: { file: string; line: number; column: number };
}

/** Everything one file yields; plain data, so a worker thread can hand it over. */
export interface FileResult {
  diagnostics: Diagnostic[];
  documents: DocumentResult[];
  /** Bytes the file's aliases expand to: they count toward the tree's byte limit like its text. */
  aliasBytes?: number;
  /** A problem about a file whose own result is there already (a limit its contents passed): not counted again. */
  notAFile?: true;
}

/**
 * The natural key a document declares. Invalid documents count too, so a duplicate is reported
 * whichever of the two has the other problem.
 */
function declarationOf(doc: ParsedDocument, outcome: DocumentOutcome): Declaration | undefined {
  const value = doc.value;
  if (outcome.type === 'skipped' || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { kind: written, metadata } = value;
  if (typeof written !== 'string' || !isKindName(written)) return undefined;
  const kind = outcome.type === 'resource' ? outcome.resource.kind : canonicalKind(written);
  if (!isJsonObject(metadata)) return undefined;
  if (typeof metadata.name !== 'string') return undefined;
  const spec = asJsonObject(value.spec) ?? {};
  const module = KINDS[kind];
  const shownName = doc.written.get('/metadata/name') ?? metadata.name;
  // A resource's name is metadata.name in NFC: when that is the name as written, its key is this key.
  const key = outcome.type === 'resource' && outcome.resource.name === metadata.name ? outcome.resource.key : module.keyOf(metadata.name, spec);
  return { kind, key, writtenName: metadata.name, shownName, shownKey: shownName === metadata.name ? key : module.keyOf(shownName, spec) };
}

/** What a parsed document becomes before it is checked: an environment's overlay merged over it. */
export type DocumentHook = (doc: ParsedDocument) => ParsedDocument;

const untimed: Measure = (_phase, work) => work();

/** How a file is processed; every field has its default. */
export interface ProcessOptions {
  measure?: Measure;
  /** Applied to each parsed document before it is checked. */
  hook?: DocumentHook;
  /**
   * The result may let go of the file's text (a one-shot read: nothing keeps results for a next
   * read); positions are then computed, when asked, from the file read again if it is unchanged.
   */
  release?: boolean;
  /** Specs are kept without the parser's spare room (compact.ts); false when they are not kept at all. Default true. */
  compact?: boolean;
}

/** How processParsed is told that the documents' long texts are copies of their own (a read given `reread`). */
type ParsedOptions = Omit<ProcessOptions, 'release'> & { ownTexts?: boolean };

/** What toResource makes of a spec: long texts are shared only when they are the documents' own. */
function compaction(options: ParsedOptions): Compaction {
  if (options.compact === false) return 'none';
  return options.ownTexts === true ? 'long texts too' : 'compact';
}

/** Parses, interpolates and schema-checks one file's text. Never throws. */
export function processText(path: string, text: string, sources: SecretSources, options: Omit<ProcessOptions, 'release'> = {}, reread?: () => string | undefined): FileResult {
  try {
    const parsed = (options.measure ?? untimed)('parse', () => parseFile(text, path, sources, reread));
    return processParsed(path, text, parsed, reread ? { ...options, ownTexts: true } : options);
  } catch (err) {
    return cannotBeParsed(path, err);
  }
}

/** A problem of a field whose value came from `${var:}` names the placeholder it came from. */
function noteVariables(doc: ParsedDocument, before: number): void {
  const variables = doc.variables;
  if (!variables) return;
  for (const d of doc.diagnostics.slice(before)) {
    const written = d.field === undefined ? undefined : variables.get(d.field);
    if (written !== undefined && d.code !== 'interpolation') d.message += ` (the value of ${JSON.stringify(written)})`;
  }
}

/** A merged document's problems name the overlay and the base. */
function noteOverlay(doc: ParsedDocument, before: number): void {
  const overlay = doc.overlaidBy;
  if (!overlay) return;
  const note = ` (overlay ${overlay.file}:${overlay.line} over the base at ${doc.start.file}:${doc.start.line})`;
  for (const d of doc.diagnostics.slice(before)) d.message += note;
}

function cannotBeParsed(path: string, err: unknown): FileResult {
  // Not expected for any input; reported rather than thrown so one file cannot hide the others.
  const reason = err instanceof Error ? (err.message.split('\n', 1)[0] ?? '') : '';
  return { diagnostics: [{ severity: 'error', code: 'yaml-syntax', file: path, line: 1, column: 1, message: `cannot be parsed: ${reason}` }], documents: [] };
}

/** Schema-checks the documents of one parsed file (`hook` applied to each first). Never throws. */
export function processParsed(path: string, text: string, parsed: ParsedFile, options: ParsedOptions = {}): FileResult {
  const { measure = untimed, hook } = options;
  const compact = compaction(options);
  const result: FileResult = { diagnostics: [], documents: [] };
  try {
    result.diagnostics.push(...parsed.diagnostics);
    const aliasBytes = parsed.documents.reduce((sum, doc) => sum + doc.aliasBytes, 0);
    if (aliasBytes > 0) result.aliasBytes = aliasBytes;
    for (const written of parsed.documents) {
      const doc = hook ? hook(written) : written;
      const before = doc.diagnostics.length;
      const outcome = measure('validate', () => toResource(doc, compact));
      // A valid document (most) has nothing to label or note.
      if (doc.diagnostics.length > 0) {
        labelDiagnostics(doc);
        noteVariables(doc, before);
        noteOverlay(doc, doc.overlaidBy ? 0 : before);
        result.diagnostics.push(...doc.diagnostics);
      }
      const entry: DocumentResult = { skipped: outcome.type === 'skipped', start: doc.start };
      if (outcome.type === 'resource') entry.resource = outcome.resource;
      if (outcome.type === 'skipped') {
        entry.skipReason = outcome.reason;
        if (isJsonObject(doc.value) && doc.value.kind !== undefined) entry.declaresKind = true;
      }
      const declaration = declarationOf(doc, outcome);
      if (declaration) entry.declaration = declaration;
      result.documents.push(entry);
    }
    explainDiagnostics(text, path, result.diagnostics);
  } catch (err) {
    return cannotBeParsed(path, err);
  }
  return result;
}

/** One file read with readText: its documents, or the reason it could not be read. */
export function processFile(file: ListedFile, content: FileText, sources: SecretSources, options: ProcessOptions = {}): FileResult {
  if ('error' in content) {
    const at = { line: content.line ?? 1, column: content.column ?? 1 };
    return { diagnostics: [{ severity: 'error', code: 'file', file: file.path, ...at, message: content.error }], documents: [] };
  }
  if (!('text' in content)) return { diagnostics: [], documents: [] };
  const { stamp } = content;
  const reread = options.release === true && stamp !== undefined ? () => readAgain(file, stamp) : undefined;
  return processText(file.path, content.text, sources, options, reread);
}
