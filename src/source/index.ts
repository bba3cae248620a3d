import { stat } from 'node:fs/promises';
import { sortDiagnostics } from '../core/diagnostics.js';
import type { Desired, DesiredResource, Diagnostic, KindName, SourceLocation } from '../core/types.js';
import { listYamlFiles, readText } from './files.js';
import { createSecretSources, type SecretSources } from './interpolate.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from './limits.js';
import { processFile, processText, type FileResult } from './process-file.js';

export { checkReferences } from './references.js';

export interface ReadOptions {
  /** Where `${file:PATH}` reads from; defaults to env WSYNC_SECRETS_DIR. */
  secretsDir?: string;
  /** Where `${env:NAME}` reads from; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Bounds on the whole tree; DEFAULT_TREE_LIMITS for what is not given. */
  limits?: Partial<TreeLimits>;
}

/** Every object each Desired declares, valid or not (Desired holds only the valid ones). */
const declaredByDesired = new WeakMap<Desired, { kind: KindName; key: string }[]>();

/**
 * Objects `desired` declares, including those whose documents have errors: a reference to one of
 * them is not "undeclared", however broken its declaration is.
 */
export function declaredObjects(desired: Desired): readonly { kind: KindName; key: string }[] {
  return declaredByDesired.get(desired) ?? desired.resources;
}

function where(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

/** Two names written differently that are the same name in NFC. */
function lookAlikes(a: string, b: string): boolean {
  return a !== b && a.normalize('NFC') === b.normalize('NFC');
}

/** Joins per-file results, in file order: stats, the same key declared twice, one Desired. */
function assemble(results: readonly FileResult[], secretValues: Iterable<string>): Desired {
  const resources: DesiredResource[] = [];
  const diagnostics: Diagnostic[] = [];
  const stats = { files: results.length, documents: 0, skipped: 0 };
  const declared = new Map<string, { at: SourceLocation; kind: KindName; key: string; writtenName: string }>();
  for (const result of results) {
    diagnostics.push(...result.diagnostics);
    for (const doc of result.documents) {
      stats.documents++;
      if (doc.skipped) stats.skipped++;
      const declaration = doc.declaration;
      if (!declaration) continue;
      const id = `${declaration.kind}\u0000${declaration.key}`;
      const first = declared.get(id);
      if (first) {
        diagnostics.push({
          severity: 'error',
          code: 'duplicate-key-declared',
          ...doc.start,
          kind: declaration.kind,
          name: declaration.shownName,
          field: 'metadata.name',
          message:
            `${declaration.kind} "${declaration.shownKey}" is also declared at ${where(first.at)}` +
            (lookAlikes(first.writtenName, declaration.writtenName)
              ? ' (the two names differ only in how their characters are encoded, Unicode NFC or NFD: they are the same name)'
              : ''),
        });
        continue;
      }
      declared.set(id, { at: doc.start, kind: declaration.kind, key: declaration.key, writtenName: declaration.writtenName });
      if (doc.resource) resources.push(doc.resource);
    }
  }
  const desired: Desired = {
    resources,
    diagnostics: sortDiagnostics(diagnostics),
    stats,
    secretValues: [...new Set(secretValues)],
  };
  declaredByDesired.set(
    desired,
    [...declared.values()].map(({ kind, key }) => ({ kind, key })),
  );
  return desired;
}

function sourcesFor(options: ReadOptions): SecretSources {
  const env = options.env ?? process.env;
  return createSecretSources(env, options.secretsDir || env.WSYNC_SECRETS_DIR || undefined);
}

function dirProblem(dir: string, message: string): Desired {
  return {
    resources: [],
    diagnostics: [{ severity: 'error', code: 'dir', message: `${dir}: ${message}` }],
    stats: { files: 0, documents: 0, skipped: 0 },
    secretValues: [],
  };
}

/**
 * Reads every resource file under `dir` (*.yaml, *.yml; not in dot-folders or node_modules).
 * Never throws for bad input: every problem is a Diagnostic. Resources come in file-path order,
 * then document order; files are named relative to `dir` with `/` separators.
 */
export async function readDesired(dir: string, options: ReadOptions = {}): Promise<Desired> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) return dirProblem(dir, 'not a directory');
  } catch (err) {
    const code = (err as { code?: string }).code;
    return dirProblem(dir, code === 'ENOENT' ? 'no such directory' : `cannot be read${code ? ` (${code})` : ''}`);
  }
  const sources = sourcesFor(options);
  const limits = { ...DEFAULT_TREE_LIMITS, ...options.limits };
  const listing = listYamlFiles(dir);
  const results: FileResult[] = listing.problems.map((problem) => ({
    diagnostics: [{ severity: 'error', code: 'file', file: problem.path, line: 1, column: 1, message: problem.message }],
    documents: [],
  }));
  let bytesLeft = limits.maxBytes;
  let resources = 0;
  let lastYield = performance.now();
  // Synchronous reads and one thread: the thread pool's round trips and a second parsing thread
  // were both measured slower on a busy two-core machine. A long read still lets the event loop
  // breathe now and then, for a daemon answering health checks meanwhile.
  for (const file of listing.files) {
    const content = readText(file, bytesLeft);
    if ('overLimit' in content) {
      results.push(overLimit(file.path, `the files hold more than ${sizeText(limits.maxBytes)} in total`, 'WSYNC_MAX_INPUT_BYTES', '--max-input-bytes'));
      break;
    }
    if ('bytes' in content) bytesLeft -= content.bytes;
    const result = processFile(file, content, sources);
    results.push(result);
    resources += result.documents.filter((doc) => !doc.skipped).length;
    if (resources > limits.maxResources) {
      results.push(overLimit(file.path, `the files declare more than ${limits.maxResources} resources`, 'WSYNC_MAX_RESOURCES', '--max-resources'));
      break;
    }
    if (performance.now() - lastYield > 50) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
  }
  return assemble(results, sources.secretValues);
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

/** The error that stops reading a tree past one of its limits, at the file where it stopped. */
function overLimit(file: string, what: string, variable: string, flag: string): FileResult {
  const message =
    `${what}: reading stopped here, before the rest could exhaust memory. If the files are meant to be this large, ` +
    `raise the limit with ${flag} or ${variable} (and the memory wsync may use)`;
  return { diagnostics: [{ severity: 'error', code: 'limit', file, line: 1, column: 1, message }], documents: [] };
}

/** readDesired over texts instead of a directory (same rules, same result); for tests and tools. */
export function desiredFromTexts(files: readonly { path: string; text: string }[], options: ReadOptions = {}): Desired {
  const sources = sourcesFor(options);
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return assemble(
    sorted.map((file) => processText(file.path, file.text, sources)),
    sources.secretValues,
  );
}
