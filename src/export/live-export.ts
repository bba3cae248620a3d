// The effectful half of `wsync export`: read the live workspace, turn it into files (pure
// exportWorkspace), write the tree atomically.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ApiClient } from '../api/types.js';
import type { KindName } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { isPerDataset, readLive, type LiveScope } from '../live/index.js';
import { loadSchemas, schemaFileTexts } from '../source/validate/schema-files.js';
import type { SchemaSet } from './schema-order.js';
import { exportWorkspace, type ExportResult } from './workspace.js';
import { writeTree } from './write-tree.js';

export interface LiveExportOptions {
  /** The output directory, absolute. */
  out: string;
  /** The kinds to export, in dependency order. */
  kinds: readonly KindName[];
  /**
   * Where the files' `$schema` lines point: a URL or a path. Default: the schemas themselves,
   * written into OUT/.schemas, so the lines still point somewhere once the folder is committed.
   */
  schemaBase?: string;
}

/** The kinds to list: the exported ones and those they point at by id (whose names the files use). */
export function readScope(kinds: readonly KindName[]): LiveScope {
  const read = new Set<KindName>(kinds);
  for (const kind of kinds) for (const ref of KINDS[kind].references) read.add(ref.target);
  const ordered = KIND_NAMES.filter((kind) => read.has(kind));
  const perDataset = ordered.filter(isPerDataset);
  // Per-dataset kinds are read for every dataset GET /v2/datasets lists.
  const scope: LiveScope = { kinds: ordered, datasets: {} };
  for (const kind of perDataset) scope.datasets[kind] = [];
  if (perDataset.length > 0) scope.allDatasets = perDataset;
  return scope;
}

function isUrl(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) && !/^[A-Za-z]:[\\/]/.test(text);
}

/** The folder of OUT the schemas go to when no `--schema-base` is given. */
export const EXPORT_SCHEMA_FOLDER = '.schemas';

/** The `$schema` base as exportWorkspace wants it: a URL, or the schemas folder relative to `out`. */
export function schemaBaseFor(out: string, base: string | undefined): string {
  if (base === undefined) return EXPORT_SCHEMA_FOLDER;
  if (isUrl(base)) return base;
  const target = resolve(base);
  const rel = relative(resolve(out), target);
  // Another drive (Windows): only an absolute reference can reach it.
  if (isAbsolute(rel)) return target.split(sep).join('/');
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/** Reads what the exported kinds need and turns it into files; writes nothing. */
export async function exportLive(client: ApiClient, options: LiveExportOptions): Promise<ExportResult> {
  const live = await readLive(client, readScope(options.kinds));
  const result = exportWorkspace(live, {
    kinds: options.kinds,
    schemas: Object.fromEntries(loadSchemas()) as SchemaSet,
    schemaBase: schemaBaseFor(options.out, options.schemaBase),
  });
  if (options.schemaBase !== undefined) return result;
  const schemaFiles = schemaFileTexts().map(({ file, text }) => ({ path: `${EXPORT_SCHEMA_FOLDER}/${file}`, content: text }));
  return { ...result, files: [...result.files, ...schemaFiles] };
}

/** Writes the files under `out`; with `force`, the folders of the exported kinds are replaced. */
export async function writeExport(
  out: string,
  result: ExportResult,
  options: { kinds: readonly KindName[]; force: boolean },
): Promise<void> {
  const folders = options.kinds.map((kind) => KINDS[kind].plural);
  // The schemas written with the files are replaced with them (a newer wsync's schemas).
  if (result.files.some((file) => file.path.startsWith(`${EXPORT_SCHEMA_FOLDER}/`))) folders.push(EXPORT_SCHEMA_FOLDER);
  await writeTree(out, result.files, { force: options.force, folders });
}
