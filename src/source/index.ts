import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CONFIG_FILE, readWorkspaceConfig } from './config.js';
import { readOverlays } from './environments/read-overlays.js';
import { renderingOf, type EnvironmentRendering } from './environments/render.js';
import { sortDiagnostics } from '../core/diagnostics.js';
import type { Desired, DesiredResource, Diagnostic, KindName, SkippedDocument, SourceLocation } from '../core/types.js';
import { loadDocumentFiles, namesDocumentFiles, textDocumentFiles, treeDocumentFiles, type DocumentFileSource } from './document-files.js';
import { listYamlFiles, readText, stampOf, type ListedFile, type ListingProblem } from './read/files.js';
import { createSecretSources, type SecretSources } from './interpolate/interpolate.js';
import type { Measure } from '../core/phase-times.js';
import type { FileCache } from './read/file-cache.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from './limits.js';
import { secretValueLimit } from './secret-limit.js';
import { tokenFileClashes } from './token-file-clash.js';
import { moreDocumentsThan } from './parse/prescan.js';
import { tooManyBytes, tooManyDocuments, treeBudget, type TreeBudget } from './read/tree-budget.js';
import { CheckOnlyRead } from './check-only.js';
import { processFile, processText, type Declaration, type DocumentHook, type DocumentResult, type FileResult } from './process-file.js';

export { checkReferences } from './references/references.js';

export interface ReadOptions {
  /** Where `${file:PATH}` reads from; defaults to env WSYNC_SECRETS_DIR. */
  secretsDir?: string;
  /** Where `${env:NAME}` reads from; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Bounds on the whole tree; DEFAULT_TREE_LIMITS for what is not given. */
  limits?: Partial<TreeLimits>;
  /**
   * Check `${env:}`/`${file:}` references as written and read nothing: for a run without the
   * secrets, such as a pull request from a fork (the schemas accept the references as written).
   */
  secretsAsWritten?: boolean;
  /** Results of the files read before (the daemon's): a file whose text has not changed is not processed again. */
  cache?: FileCache;
  /**
   * The files stay where they are for as long as the result is used (a plan's or an apply's own
   * tree): the result keeps no hold on their texts, and a position asked for later is computed from
   * the file read again (if unchanged). Not with a cache, whose results outlive a file's edits.
   */
  releaseTexts?: boolean;
  /** Times reading, parsing and validating. */
  measure?: Measure;
  /** Told after each file how many documents the read has read so far (a plan's memory policy: src/util/heap-growth.ts). */
  onDocumentsRead?: (documents: number) => void;
  /**
   * The environment of wsync.yaml to render: its variables, its overlays (environments/NAME/), not
   * another's. Required on a tree that declares environments; an error on one that does not.
   */
  environment?: string;
  /**
   * The result is only checked (`wsync validate`), never planned: a valid resource that no check
   * after the read needs (check-only.ts) keeps no spec (an empty record), locations, interpolated pointers or annotations. Not with
   * a cache, whose results outlive the read.
   */
  checkOnly?: boolean;
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
  const stats = { files: results.filter((result) => result.notAFile !== true).length, documents: 0, skipped: 0 };
  const skips: SkippedDocument[] = [];
  // By kind, then key, to the document that declared it first: nothing made per document.
  const declared = new Map<KindName, Map<string, DocumentResult>>();
  const declaredInOrder: Declaration[] = [];
  /** Every object declared is a valid resource, of the same key: the resources are what is declared. */
  let onlyResources = true;
  for (const result of results) {
    diagnostics.push(...result.diagnostics);
    for (const doc of result.documents) {
      stats.documents++;
      if (doc.skipped) {
        stats.skipped++;
        // A settings file (wsync.yaml without a kind) is read as settings, not skipped as a stranger: not listed.
        const settings = basename(doc.start.file) === CONFIG_FILE && doc.declaresKind !== true;
        if (!settings) skips.push({ ...doc.start, reason: doc.skipReason ?? 'not a wsync resource' });
      }
      const declaration = doc.declaration;
      if (!declaration) continue;
      let ofKind = declared.get(declaration.kind);
      if (ofKind === undefined) declared.set(declaration.kind, (ofKind = new Map()));
      const first = ofKind.get(declaration.key);
      if (first) {
        diagnostics.push({
          severity: 'error',
          code: 'duplicate-key-declared',
          ...doc.start,
          kind: declaration.kind,
          name: declaration.shownName,
          field: 'metadata.name',
          message:
            `${declaration.kind} "${declaration.shownKey}" is also declared at ${where(first.start)}` +
            (lookAlikes(first.declaration?.writtenName ?? '', declaration.writtenName)
              ? ' (the two names differ only in how their characters are encoded, Unicode NFC or NFD: they are the same name)'
              : ''),
        });
        continue;
      }
      ofKind.set(declaration.key, doc);
      declaredInOrder.push(declaration);
      if (doc.resource) resources.push(doc.resource);
      if (doc.resource?.kind !== declaration.kind || doc.resource.key !== declaration.key) onlyResources = false;
    }
  }
  diagnostics.push(...secretValueLimit(resources), ...tokenFileClashes(resources));
  const desired: Desired = {
    resources,
    diagnostics: sortDiagnostics(diagnostics),
    stats,
    skips,
    secretValues: [...new Set(secretValues)],
  };
  // Not a copy of every resource's kind and key (the common case, and a large tree's is large).
  if (!onlyResources) declaredByDesired.set(desired, declaredInOrder.map(({ kind, key }) => ({ kind, key })));
  return desired;
}

function sourcesFor(options: ReadOptions, rendering?: EnvironmentRendering): SecretSources {
  const env = options.env ?? process.env;
  return createSecretSources(env, options.secretsDir || env.WSYNC_SECRETS_DIR || undefined, {
    asWritten: options.secretsAsWritten === true,
    ...(rendering ? { variables: rendering.variables } : {}),
  });
}

function dirProblem(dir: string, message: string): Desired {
  return {
    resources: [],
    diagnostics: [{ severity: 'error', code: 'dir', message: `${dir}: ${message}` }],
    stats: { files: 0, documents: 0, skipped: 0 },
    secretValues: [],
  };
}

function listingProblem(problem: ListingProblem): FileResult {
  return {
    diagnostics: [{ severity: 'error', code: 'file', file: problem.path, line: 1, column: 1, message: problem.message }],
    documents: [],
  };
}

/**
 * Reads the files in order, within the tree's limits: past one, reading stops with an error at
 * the file where it stopped.
 */
async function readFiles(
  files: readonly { file: ListedFile; sources: SecretSources }[],
  documents: DocumentFileSource,
  budget: TreeBudget,
  options: Pick<ReadOptions, 'cache' | 'measure' | 'releaseTexts' | 'checkOnly' | 'onDocumentsRead'> & { hook?: DocumentHook } = {},
): Promise<FileResult[]> {
  const { cache, measure = untimed, hook } = options;
  const release = options.releaseTexts === true && !cache;
  const checkOnly = options.checkOnly === true && !cache ? new CheckOnlyRead() : undefined;
  const results: FileResult[] = [];
  let lastYield = performance.now();
  // Synchronous reads and one thread: the thread pool's round trips and a second parsing thread
  // were both measured slower on a busy two-core machine. A long read still lets the event loop
  // breathe now and then, for a daemon answering health checks meanwhile.
  for (const { file, sources } of files) {
    const stamp = cache ? measure('read', () => stampOf(file)) : undefined;
    const unread = stamp && stamp.bytes <= budget.bytesLeft ? cache?.resultByStamp(file.path, stamp) : undefined;
    let processed: FileResult;
    if (unread && stamp) {
      budget.bytesLeft -= stamp.bytes;
      processed = unread;
    } else {
      const content = measure('read', () => readText(file, budget.bytesLeft, release));
      if ('overLimit' in content) {
        results.push(tooManyBytes(file.path, budget));
        break;
      }
      if ('bytes' in content) budget.bytesLeft -= content.bytes;
      // Counted before the file is parsed: parsing holds all its documents at once.
      if ('text' in content && moreDocumentsThan(content.text, budget.limits.maxResources - budget.resources)) {
        results.push(tooManyDocuments(file.path, budget));
        break;
      }
      processed =
        cache && 'text' in content
          ? cache.resultFor(file.path, content.text, () => processFile(file, content, sources, { measure, hook }), stamp)
          : processFile(file, content, sources, { measure, hook, release, compact: !checkOnly });
    }
    // The cache holds what the YAML text yields; the document files it names (a dashboard's JSON)
    // are read at every pass, into a copy, so an edit of the JSON alone is seen.
    const result = cache && namesDocumentFiles(processed) ? { diagnostics: [...processed.diagnostics], documents: processed.documents.map((d) => ({ ...d })) } : processed;
    budget.bytesLeft -= loadDocumentFiles(result, file.path, documents, budget.bytesLeft);
    checkOnly?.afterFile(result);
    results.push(result);
    // What aliases expand to reaches plans and request bodies as if it were written out.
    budget.bytesLeft -= result.aliasBytes ?? 0;
    // Every document counts, skipped or not: each costs memory whatever its kind.
    budget.resources += result.documents.length;
    options.onDocumentsRead?.(budget.resources);
    const past = budget.bytesLeft < 0 ? tooManyBytes(file.path, budget, true) : budget.resources > budget.limits.maxResources ? tooManyDocuments(file.path, budget) : undefined;
    if (past) {
      // The file is counted already, by its own result.
      results.push({ ...past, notAFile: true });
      break;
    }
    if (performance.now() - lastYield > 50) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
  }
  return results;
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
  const measure = options.measure ?? untimed;
  const listing = measure('read', () => listYamlFiles(dir));
  // wsync.yaml's own problems are the commands' to report (they read it first); here it only says
  // which environments there are.
  const rendering = renderingOf(listing.files, readWorkspaceConfig(dir).config, options.environment);
  const environment = rendering.environment?.name;
  if (rendering.problems.some((d) => d.severity === 'error')) return labelled({ ...dirProblem(dir, ''), diagnostics: rendering.problems }, environment);
  const sources = sourcesFor(options, rendering);
  const documents = { ...treeDocumentFiles(dir), variables: rendering.variables };
  const warnings: FileResult = { diagnostics: rendering.problems, documents: [], notAFile: true };
  const read = (results: readonly FileResult[]): Desired =>
    labelled(assemble([...listing.problems.map(listingProblem), warnings, ...results], sources.secretValues), environment);
  // One budget for every file this rendering reads: the overlays count toward the limits as the base does.
  const budget = treeBudget({ ...DEFAULT_TREE_LIMITS, ...options.limits });
  const overlaid = environment === undefined ? undefined : readOverlays(environment, rendering.overlays, sources, budget);
  if (overlaid?.stopped) return read(overlaid.problems);
  const overlays = overlaid?.overlays;
  options.cache?.beginPass(overlays?.fingerprint);
  const base = await readFiles(
    rendering.base.map((file) => ({ file, sources })),
    documents,
    budget,
    overlays && overlays.size > 0 ? { ...options, hook: overlays.apply } : options,
  );
  options.cache?.endPass();
  return read([...base, ...(overlaid?.problems ?? []), ...overlayOnly(overlays?.results(base) ?? [], documents, budget)]);
}

/** The overlay files' own results, with the document files they name read within the budget (a file past it is refused there). */
function overlayOnly(results: FileResult[], documents: DocumentFileSource, budget: TreeBudget): FileResult[] {
  for (const result of results) budget.bytesLeft -= loadDocumentFiles(result, result.documents[0]?.start.file ?? '', documents, Math.max(0, budget.bytesLeft));
  return results;
}

/** Names the environment in the Desired and in each of its diagnostics. */
function labelled(desired: Desired, environment: string | undefined): Desired {
  if (environment === undefined) return desired;
  desired.environment = environment;
  for (const d of desired.diagnostics) d.environment = environment;
  return desired;
}

const untimed: Measure = (_phase, work) => work();

/** One argument of `wsync validate`: a directory or a single file. */
export interface SourcePath {
  path: string;
  /** Where `${file:PATH}` reads from for the files of this path; defaults to env WSYNC_SECRETS_DIR. */
  secretsDir?: string;
}

export interface ReadPathsOptions {
  /** Files are named relative to this directory, with `/` separators. */
  root: string;
  /** Where `${env:NAME}` reads from; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Bounds on all the files together; DEFAULT_TREE_LIMITS for what is not given. */
  limits?: Partial<TreeLimits>;
  /**
   * Check `${env:}`/`${file:}` references as written and read nothing: for a run without the
   * secrets, such as a pull request from a fork (the schemas accept the references as written).
   */
  secretsAsWritten?: boolean;
  /** As ReadOptions.checkOnly. */
  checkOnly?: boolean;
}

type PathKind = 'directory' | 'file' | { problem: string };

async function kindOf(path: string): Promise<PathKind> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch (err) {
    const code = (err as { code?: string }).code;
    // The name says which was meant: a pre-commit hook passes files, a user mostly directories.
    if (code === 'ENOENT') return { problem: /\.ya?ml$/i.test(path) ? 'no such file' : 'no such directory' };
    return { problem: `cannot be read${code ? ` (${code})` : ''}` };
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The directory `wsync validate PATH...` names files against: a single directory names them
 * relative to itself (as readDesired does); otherwise the working directory when every path lies
 * inside it, else the paths' nearest common directory.
 */
export async function rootOfPaths(paths: readonly string[], cwd: string): Promise<string> {
  const absolute = paths.map((path) => resolve(cwd, path));
  const kinds = await Promise.all(absolute.map(kindOf));
  if (absolute.length === 1 && kinds[0] === 'directory') return absolute[0] ?? cwd;
  if (absolute.every((path) => isInside(cwd, path))) return cwd;
  const dirs = absolute.map((path, i) => (kinds[i] === 'directory' ? path : dirname(path)));
  let root = dirs[0] ?? cwd;
  // Stops at the filesystem root (or a drive's, where paths on two drives share none).
  while (!dirs.every((dir) => isInside(root, dir)) && dirname(root) !== root) root = dirname(root);
  return root;
}

/** A file named on its own that is a symbolic link out of `root` is refused, as in a directory. */
async function linkOutOf(root: string, path: string): Promise<boolean> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return false;
    return !isInside(await realpath(root), await realpath(path));
  } catch {
    return false;
  }
}

/**
 * readDesired over directories and single files, as `wsync validate a.yaml b/` names them: one
 * Desired (a key declared in two of them is a duplicate), files named relative to `root`; a file
 * reached twice is read once. A path that cannot be read is a diagnostic, as for readDesired.
 */
export async function readDesiredPaths(paths: readonly SourcePath[], options: ReadPathsOptions): Promise<Desired> {
  const env = options.env ?? process.env;
  const sourcesByDir = new Map<string, SecretSources>();
  const files = new Map<string, { file: ListedFile; sources: SecretSources }>();
  const problems: FileResult[] = [];
  const missing: Desired[] = [];
  const nameOf = (absolute: string): string => relative(options.root, absolute).split(sep).join('/');
  for (const entry of paths) {
    const absolute = resolve(entry.path);
    const kind = await kindOf(absolute);
    if (typeof kind === 'object') {
      missing.push(dirProblem(entry.path, kind.problem));
      continue;
    }
    const secretsDir = entry.secretsDir || env.WSYNC_SECRETS_DIR || '';
    let sources = sourcesByDir.get(secretsDir);
    if (sources === undefined) {
      sources = createSecretSources(env, secretsDir === '' ? undefined : secretsDir, { asWritten: options.secretsAsWritten === true });
      sourcesByDir.set(secretsDir, sources);
    }
    let listed: ListedFile[] = [{ path: nameOf(absolute), absolute }];
    if (kind === 'directory') {
      const listing = listYamlFiles(absolute);
      problems.push(...listing.problems.map((p) => listingProblem({ ...p, path: nameOf(join(absolute, p.path)) })));
      // The listing names its files relative to the directory, with `/`: the directory's own name before them.
      const base = nameOf(absolute);
      listed = listing.files.map((file) => ({ path: base === '' ? file.path : `${base}/${file.path}`, absolute: file.absolute }));
    } else if (await linkOutOf(options.root, absolute)) {
      problems.push(listingProblem({ path: nameOf(absolute), message: 'a symbolic link to a file outside the directory read: refused, only files inside it are read' }));
      continue;
    }
    for (const file of listed) {
      if (!files.has(file.absolute)) files.set(file.absolute, { file, sources });
    }
  }
  const ordered = [...files.values()].sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
  const results = [...problems, ...(await readFiles(ordered, treeDocumentFiles(options.root), treeBudget({ ...DEFAULT_TREE_LIMITS, ...options.limits }), { checkOnly: options.checkOnly === true }))];
  const secretValues = [...sourcesByDir.values()].flatMap((sources) => [...sources.secretValues]);
  const desired = assemble(results, secretValues);
  if (missing.length === 0) return desired;
  desired.diagnostics = sortDiagnostics([...missing.flatMap((p) => p.diagnostics), ...desired.diagnostics]);
  return desired;
}

/** readDesired over texts instead of a directory (same rules, same result); for tests and tools. */
export function desiredFromTexts(files: readonly { path: string; text: string }[], options: ReadOptions = {}): Desired {
  const sources = sourcesFor(options);
  // The JSON files are documents the YAML files name (a dashboard), not resources of their own.
  const documents = textDocumentFiles(new Map(files.map((file) => [file.path, file.text])));
  const sorted = files.filter((file) => !file.path.endsWith('.json')).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return assemble(
    sorted.map((file) => {
      const result = processText(file.path, file.text, sources);
      loadDocumentFiles(result, file.path, documents, Number.POSITIVE_INFINITY);
      return result;
    }),
    sources.secretValues,
  );
}
