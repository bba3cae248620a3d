import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_FILE_BYTES } from './limits.js';

export interface ListedFile {
  /** Relative to the directory read, with `/` separators. */
  path: string;
  absolute: string;
}

const YAML_FILE = /\.ya?ml$/i;

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every *.yaml / *.yml under `root`, sorted by relative path. Skips dot-folders and node_modules;
 * follows symbolic links, each real directory once (a link cycle cannot loop).
 */
export function listYamlFiles(root: string): ListedFile[] {
  const found: ListedFile[] = [];
  const visited = new Set<string>();
  function visit(absolute: string, relative: string): void {
    let real: string;
    let entries;
    try {
      real = realpathSync(absolute);
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    entries.sort((a, b) => byName(a.name, b.name));
    for (const entry of entries) {
      const childAbsolute = join(absolute, entry.name);
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(childAbsolute);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch {
          continue; // a dangling link
        }
      }
      if (isDirectory) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        visit(childAbsolute, childRelative);
      } else if (isFile && YAML_FILE.test(entry.name)) {
        found.push({ path: childRelative, absolute: childAbsolute });
      }
    }
  }
  visit(root, '');
  return found.sort((a, b) => byName(a.path, b.path));
}

export type FileText = { text: string } | { error: string };

/**
 * A file's text, or why it cannot be had. Synchronous on purpose: for hundreds of small files the
 * thread-pool round trips of fs/promises cost more than the reads.
 */
export function readText(file: ListedFile): FileText {
  try {
    const info = statSync(file.absolute);
    if (info.size > MAX_FILE_BYTES) return { error: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; split it into smaller files` };
    return { text: readFileSync(file.absolute, 'utf8') };
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { error: `cannot be read${code ? ` (${code})` : ''}` };
  }
}
