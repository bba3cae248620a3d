// What `wsync validate FILE...` (a pre-commit hook) looks at besides the files: the tree each file
// belongs to, whose declarations answer the files' references (a notifier declared in another file
// of the tree is declared), and, for a dashboard's `.json` named on its own, the YAML that names it.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { CONFIG_FILE } from '../config.js';

/** Is `path` a file (not a directory, not missing)? */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The tree a file belongs to: the nearest folder above it holding wsync.yaml, up to `cwd` (where a
 * hook runs: the repository); else `cwd` when the file is under it; else the file's folder.
 */
export async function treeOfFile(file: string, cwd: string): Promise<string> {
  const within = inside(cwd, file);
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (await isFile(join(dir, CONFIG_FILE))) return dir;
    if ((within && dir === cwd) || dirname(dir) === dir) break;
  }
  return within ? cwd : dirname(file);
}

/** The paths as given, each `.json` one replaced by the YAML files beside it that name it (if any). */
export async function withDocumentOwners(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    if (!/\.json$/i.test(path) || !(await isFile(path))) {
      out.push(path);
      continue;
    }
    const dir = dirname(path);
    const escaped = basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const owners: string[] = [];
    for (const entry of (await readdir(dir)).sort()) {
      if (!/\.ya?ml$/i.test(entry)) continue;
      const text = await readFile(join(dir, entry), 'utf8').catch(() => '');
      // `file: NAME` in any style (block, flow, quoted); a mention elsewhere is a rare false match,
      // and costs only that YAML being checked too.
      if (new RegExp(`(^|[\\s{,])["']?file["']?\\s*:\\s*["']?(\\./)?${escaped}["']?(\\s|[,}]|$)`, 'm').test(text)) owners.push(join(dir, entry));
    }
    out.push(...(owners.length > 0 ? owners : [path]));
  }
  return [...new Set(out)];
}
