import { lstat, mkdir, mkdtemp, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { syncDirectory } from '../state/atomic.js';
import type { ExportedFile } from './workspace.js';

/** The export directory cannot be written as asked (not empty without --force, not a directory). */
export class ExportTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportTargetError';
  }
}

async function entriesOf(dir: string): Promise<string[] | undefined> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(dir)).isDirectory();
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return undefined;
    throw err;
  }
  if (!isDirectory) throw new ExportTargetError(`${dir} exists and is not a directory`);
  return readdir(dir);
}

/** A relative `/`-separated path that stays inside the tree. */
function checkedPath(root: string, path: string): string {
  const target = resolve(root, ...path.split('/'));
  if (path === '' || path.startsWith('/') || path.split('/').includes('..') || !target.startsWith(root + sep)) {
    throw new Error(`export: refusing to write outside the export directory: ${path}`);
  }
  return target;
}

async function writeFiles(root: string, files: readonly ExportedFile[]): Promise<void> {
  const dirs = new Set<string>();
  for (const file of files) {
    const target = checkedPath(root, file.path);
    const dir = dirname(target);
    if (!dirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      dirs.add(dir);
    }
    const handle = await open(target, 'wx', 0o644);
    try {
      await handle.writeFile(file.content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  for (const dir of [...dirs].sort().reverse()) await syncDirectory(dir);
  await syncDirectory(root);
}

export interface WriteTreeOptions {
  /** Replace the given folders of a non-empty directory (else a non-empty directory is refused). */
  force: boolean;
  /**
   * Top-level folders the export owns (one per exported kind): with `force`, each is replaced as
   * a whole, even when it gets no file this time; everything else in the directory stays.
   */
  folders: readonly string[];
}

/**
 * Writes the tree so that no reader and no crash sees half of it: the files go into a staging
 * directory beside `out` (same file system) and are fsynced; then the staging directory is renamed
 * to `out`, or, for `--force` into a non-empty `out`, each exported folder is swapped in by rename.
 */
export async function writeTree(outDir: string, files: readonly ExportedFile[], options: WriteTreeOptions): Promise<void> {
  const out = resolve(outDir);
  const existing = await entriesOf(out);
  const nonEmpty = existing !== undefined && existing.length > 0;
  if (nonEmpty && !options.force) {
    throw new ExportTargetError(`${outDir} is not empty; pass --force to replace the exported folders in it`);
  }
  const parent = dirname(out);
  await mkdir(parent, { recursive: true });
  const staging = await mkdtemp(join(parent, `.${basename(out)}.export-`));
  try {
    for (const folder of options.folders) await mkdir(join(staging, folder), { recursive: true });
    await writeFiles(staging, files);
    if (!nonEmpty) {
      if (existing !== undefined) await rmdir(out);
      await rename(staging, out);
      await syncDirectory(parent);
      return;
    }
    await swapFolders(out, staging, parent, options.folders);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Moves each folder of `staging` into `out`, the old one aside first; puts the old ones back on failure. */
async function swapFolders(out: string, staging: string, parent: string, folders: readonly string[]): Promise<void> {
  const trash = await mkdtemp(join(parent, `.${basename(out)}.replaced-`));
  const moved: string[] = [];
  const swapped: string[] = [];
  try {
    for (const folder of folders) {
      const current = join(out, folder);
      const present = await lstat(current).then(
        () => true,
        () => false,
      );
      if (present) {
        await rename(current, join(trash, folder));
        moved.push(folder);
      }
      await rename(join(staging, folder), current);
      swapped.push(folder);
    }
    await syncDirectory(out);
  } catch (err) {
    let restored = true;
    for (const folder of swapped) await rename(join(out, folder), join(staging, folder)).catch(() => (restored = false));
    for (const folder of moved) await rename(join(trash, folder), join(out, folder)).catch(() => (restored = false));
    if (!restored) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`${reason}; the folders it replaced are kept in ${trash}`);
    }
    await rm(trash, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  await rm(trash, { recursive: true, force: true });
}
