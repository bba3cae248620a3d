import type { Diagnostic, JsonValue, SourceLocation } from '../../core/types.js';
import { NO_STRINGS, readFast } from './fast-document.js';
import { dottedPath, fieldPrefix } from './field-path.js';
import { declaresWsyncApiVersion, interpolateDocument } from '../interpolate/interpolate-document.js';
import type { SecretSources } from '../interpolate/interpolate.js';
import { readWithYaml, type YamlDocument } from './yaml-document.js';

/** What a document the fast path read has reported: nothing (it declines anything to report). */
const NOTHING_REPORTED: ReadonlySet<string> = new Set();

export { dottedPath } from './field-path.js';

/** One YAML document turned into plain data, with where every node sits and what was interpolated. */
export interface ParsedDocument {
  /** Undefined when the document could not be read (syntax error, limit reached): see diagnostics. */
  value: JsonValue | undefined;
  /** Where the document's content starts. */
  start: SourceLocation;
  /**
   * JSON Pointer -> position: of the key for mapping members, of the item for sequence items.
   * For documents the fast path read, computed on first use (see lazy-locations.ts).
   */
  locations: Record<string, SourceLocation>;
  /** Pointers of strings that came from `${env:}`/`${file:}`. */
  interpolated: string[];
  /** Pointer -> the string as written, for interpolated strings (to name a thing without its secret). */
  written: ReadonlyMap<string, string>;
  /** Pointers of values already reported (failed interpolation, non-finite numbers): schema errors would only repeat it. */
  reported: ReadonlySet<string>;
  /** Problems of this document; kind and name are filled in by the caller once known. */
  diagnostics: Diagnostic[];
  /** For documents that could not be read: kind and metadata.name as far as they are legible. */
  peek?: { kind?: string; name?: string };
  /** Bytes its aliases expand to (limits.ts, MAX_ALIAS_EXPANSION_BYTES). */
  aliasBytes: number;
  /** Dotted field -> the string as written, for strings that held `${var:}`. */
  variables?: ReadonlyMap<string, string>;
  /** Where the environment's overlay merged over this document starts, when one was. */
  overlaidBy?: SourceLocation;
}

export interface ParsedFile {
  documents: ParsedDocument[];
  /** Problems of the file as a whole (beyond the per-file cap of YAML errors). */
  diagnostics: Diagnostic[];
}

/** A document the `yaml` path read, interpolated, its failures reported where the string is written. */
function fromYaml(doc: YamlDocument, sources: SecretSources): ParsedDocument {
  const parsed: ParsedDocument = {
    value: doc.value,
    start: doc.start,
    locations: doc.locations,
    interpolated: [],
    written: NO_STRINGS,
    reported: doc.reported,
    diagnostics: doc.diagnostics,
    aliasBytes: doc.aliasBytes,
  };
  if (doc.peek) parsed.peek = doc.peek;
  if (doc.value === undefined || !declaresWsyncApiVersion(doc.value)) return parsed;
  const secrets = interpolateDocument(doc.value, sources);
  parsed.interpolated = secrets.interpolated;
  parsed.written = secrets.written;
  if (secrets.variables.size > 0) parsed.variables = secrets.variables;
  for (const problem of secrets.problems) {
    const d: Diagnostic = {
      severity: 'error',
      code: 'interpolation',
      ...doc.at(doc.strings.get(problem.pointer) ?? doc.startOffset),
      message: `${fieldPrefix(problem.segments)}${problem.message}`,
    };
    if (problem.segments.length > 0) d.field = dottedPath(problem.segments);
    parsed.diagnostics.push(d);
    doc.reported.add(problem.pointer);
  }
  return parsed;
}

/** The `yaml` path: every file the fast path declines, and every diagnostic of the parse. */
export function parseFileWithYaml(text: string, file: string, sources: SecretSources): ParsedFile {
  const read = readWithYaml(text, file);
  return { documents: read.documents.map((doc) => fromYaml(doc, sources)), diagnostics: read.diagnostics };
}

/** Splits a file into documents and turns each into data. Never throws for any input text. */
/** `reread`: the file's text read again (readFastOrDecline): given, the documents keep no hold on `text`. */
export function parseFile(text: string, file: string, sources: SecretSources, reread?: () => string | undefined): ParsedFile {
  const fast = readFast(text, file, sources, reread);
  if (fast === undefined) return parseFileWithYaml(text, file, sources);
  return {
    documents: fast.map((doc) => {
      const parsed: ParsedDocument = {
        value: doc.value,
        start: doc.start,
        locations: doc.locations,
        interpolated: doc.interpolated,
        written: doc.written,
        reported: NOTHING_REPORTED,
        diagnostics: [],
        aliasBytes: doc.aliasBytes,
      };
      // Set after, not spread into the literal: a spread makes each document's object the slow way.
      if (doc.variables) parsed.variables = doc.variables;
      return parsed;
    }),
    diagnostics: [],
  };
}
