// Documents a resource keeps in a JSON file of their own (KindModule.documentFile: a dashboard as
// the UI exports it). The path is relative to the resource file and must stay inside the tree read:
// no absolute path, no `..` out of it, no symbolic link out of it (as for the YAML files). The
// file is read as written (UTF-8, no ${env:}/${file:}; ${var:} of the rendered environment), checked against its schema and the kind's
// checks, with every error naming the JSON file, its line and column.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import type { Diagnostic, DesiredResource, JsonObject } from '../core/types.js';
import { isJsonObject } from '../core/json.js';
import { KINDS } from '../kinds/index.js';
import type { DocumentFile } from '../kinds/types.js';
import { readText, type FileText } from './read/files.js';
import { readJsonText } from './parse/json-text.js';
import { problemDiagnostics, specProblems } from './validate/kind-checks.js';
import type { DocumentResult, FileResult } from './process-file.js';
import { translateErrors } from './validate/schema-errors.js';
import { validatorFor } from './validate/validator.js';
import { substituteVariables, type VariableSource } from './environments/variables.js';

export type DocumentFileText = FileText | { refused: string };

/** Where document files come from: the tree on disk, or the texts given to desiredFromTexts. */
export interface DocumentFileSource {
  /** The file at `path` (relative to the tree's root, `/`-separated), within `budget` bytes. */
  read(path: string, budget: number): DocumentFileText;
  /** The rendered environment's variables: `${var:}` is the one placeholder a document file takes. */
  variables?: VariableSource;
}

/** Files of the tree at `root`; a path whose real location is outside the tree is refused. */
export function treeDocumentFiles(root: string): DocumentFileSource {
  let realRoot: string | undefined;
  return {
    read(path, budget) {
      const absolute = join(root, ...path.split('/'));
      let real: string;
      try {
        realRoot ??= realpathSync(root);
        real = realpathSync(absolute);
      } catch (err) {
        const code = (err as { code?: string }).code;
        return { error: code === 'ENOENT' ? 'no such file' : `cannot be read${code ? ` (${code})` : ''}` };
      }
      const rel = relative(realRoot, real);
      if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
        return { refused: 'a symbolic link to a file outside the directory read: refused, only files inside it are read' };
      }
      if (!statSync(real).isFile()) return { error: 'not a file' };
      return readText({ path, absolute }, budget);
    },
  };
}

/** The given texts, by path: for desiredFromTexts. */
export function textDocumentFiles(texts: ReadonlyMap<string, string>): DocumentFileSource {
  return {
    read(path) {
      const text = texts.get(path);
      return text === undefined ? { error: 'no such file' } : { text, bytes: Buffer.byteLength(text) };
    },
  };
}

/** The tree path of `written`, relative to the folder of `resourceFile`; or why it is refused. */
export function documentPath(resourceFile: string, written: string): { path: string } | { refused: string } {
  if (written.includes('\\')) return { refused: 'use "/" between folders, not "\\"' };
  if (written.startsWith('/') || /^[A-Za-z]:/.test(written)) {
    return { refused: 'an absolute path is refused: give the path relative to this file, inside the directory read' };
  }
  const path = posix.normalize(posix.join(posix.dirname(resourceFile), written));
  if (path === '..' || path.startsWith('../')) return { refused: 'the path leads out of the directory read: refused' };
  return { path };
}

interface Loading {
  entry: DocumentResult & { resource: DesiredResource };
  file: DocumentFile;
  written: string;
  resourceFile: string;
  diagnostics: Diagnostic[];
}

function label(loading: Loading, d: Diagnostic): Diagnostic {
  const { resource } = loading.entry;
  return { ...d, kind: resource.kind, name: loading.entry.declaration?.shownName ?? resource.name };
}

/** A problem with the path field itself, reported where the YAML file writes it. */
function pathProblem(loading: Loading, message: string): void {
  const { resource } = loading.entry;
  const at = resource.locations[`/spec/${loading.file.pathField}`] ?? resource.source;
  loading.diagnostics.push(
    label(loading, { severity: 'error', code: 'document-file', ...at, field: `spec.${loading.file.pathField}`, message: `spec.${loading.file.pathField}: ${message}` }),
  );
}

/** Reads, parses and checks one document file; the new spec, or undefined after reporting why not. */
function load(loading: Loading, source: DocumentFileSource, budget: { left: number }): JsonObject | undefined {
  const { entry, file, written } = loading;
  const { resource } = entry;
  if (resource.interpolated.includes(`/spec/${file.pathField}`)) {
    pathProblem(loading, 'the path cannot come from ${env:} or ${file:}');
    return undefined;
  }
  const located = documentPath(loading.resourceFile, written);
  if ('refused' in located) {
    pathProblem(loading, `"${written}": ${located.refused}`);
    return undefined;
  }
  const content = source.read(located.path, budget.left);
  if ('refused' in content || 'overLimit' in content) {
    pathProblem(loading, `"${written}": ${'refused' in content ? content.refused : 'the files hold more than the tree may (--max-input-bytes)'}`);
    return undefined;
  }
  if ('error' in content) {
    const at = content.line === undefined ? undefined : { file: located.path, line: content.line, column: content.column ?? 1 };
    if (at) loading.diagnostics.push(label(loading, { severity: 'error', code: 'document-file', ...at, message: content.error }));
    else pathProblem(loading, `"${written}": ${content.error}`);
    return undefined;
  }
  budget.left -= content.bytes;
  const parsed = readJsonText(content.text, located.path);
  if ('error' in parsed) {
    loading.diagnostics.push(label(loading, { severity: 'error', code: 'json-syntax', file: located.path, ...parsed.error }));
    return undefined;
  }
  const start = { file: located.path, line: 1, column: 1 };
  // A tree without environments reads its documents as written, `${var:` and all, as it always did.
  if (source.variables !== undefined && source.variables.environments.length > 0 && content.text.includes('${var:')) {
    for (const problem of substituteVariables(parsed.value, source.variables)) {
      const at = parsed.locations[problem.pointer] ?? start;
      loading.diagnostics.push(label(loading, { severity: 'error', code: 'interpolation', ...at, message: problem.message }));
    }
  }
  const validate = validatorFor(file.schemaFile);
  if (!validate(parsed.value)) {
    const errors = translateErrors(validate.errors ?? [], { document: parsed.value, locations: parsed.locations, start, skip: new Set() });
    loading.diagnostics.push(...errors.map((d) => label(loading, d)));
  }
  const { [file.pathField]: _path, ...rest } = resource.spec;
  const spec: JsonObject = { ...rest, [file.documentField]: parsed.value };
  const problems = specProblems(KINDS[resource.kind], resource.name, spec, []);
  const at = { locations: parsed.locations, fallback: start, base: '', strip: `/${file.documentField}` };
  loading.diagnostics.push(...problemDiagnostics(problems, at).map((d) => label(loading, d)));
  const failed = loading.diagnostics.some((d) => d.severity === 'error') || !isJsonObject(parsed.value);
  return failed ? undefined : spec;
}

/** The document file a resource of the file names, with the kind's rule for it; undefined when it names none. */
function namedDocumentFile(entry: DocumentResult): { resource: DesiredResource; file: DocumentFile; written: string } | undefined {
  const resource = entry.resource;
  const file = resource ? KINDS[resource.kind].documentFile : undefined;
  const written = file ? resource?.spec[file.pathField] : undefined;
  return resource && file && typeof written === 'string' ? { resource, file, written } : undefined;
}

/** Whether a document of the file names a document file (loadDocumentFiles has something to do, and changes the result). */
export function namesDocumentFiles(result: FileResult): boolean {
  return result.documents.some((entry) => namedDocumentFile(entry) !== undefined);
}

/**
 * Puts the documents that resources of `result` name (KindModule.documentFile) into their specs.
 * A resource whose document cannot be had is dropped from the result (its declaration stays, so
 * references to it are not "undeclared") and the reasons are added to its diagnostics. Returns the
 * bytes read.
 */
export function loadDocumentFiles(result: FileResult, resourceFile: string, source: DocumentFileSource, budget: number): number {
  const left = { left: budget };
  for (const entry of result.documents) {
    const named = namedDocumentFile(entry);
    if (!named) continue;
    const { resource, file, written } = named;
    const loading: Loading = { entry: { ...entry, resource }, file, written, resourceFile, diagnostics: [] };
    const spec = load(loading, source, left);
    result.diagnostics.push(...loading.diagnostics);
    if (spec) entry.resource = { ...resource, spec };
    else delete entry.resource;
  }
  return budget - left.left;
}
