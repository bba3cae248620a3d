// The effectful edge of `wsync pull` on disk: the texts of the tree's files (its YAML, and the
// JSON documents they name) and the writing of the changed ones, each file replaced atomically.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { KINDS, parseKindName } from '../kinds/index.js';
import { listYamlFiles } from '../source/read/files.js';
import { readDesired, type ReadOptions } from '../source/index.js';
import type { Desired } from '../core/types.js';
import { documentPath } from '../source/document-files.js';
import { writeFileAtomic } from '../state/atomic.js';
import { parseYaml } from './object-edit.js';
import type { FileChange } from './planner.js';

async function textOf(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

/** The document files (`spec.file` of a dashboard) the YAML text names, as tree paths. */
function namedDocuments(path: string, text: string): string[] {
  const out: string[] = [];
  for (const doc of parseYaml(text)) {
    const value = doc.toJS({ maxAliasCount: -1 }) as { kind?: unknown; spec?: Record<string, unknown> } | null;
    const kind = typeof value?.kind === 'string' ? parseKindName(value.kind) : undefined;
    const declared = kind ? KINDS[kind].documentFile : undefined;
    const written = declared ? value?.spec?.[declared.pathField] : undefined;
    if (typeof written !== 'string') continue;
    const located = documentPath(path, written);
    if ('path' in located) out.push(located.path);
  }
  return out;
}

/** Every YAML file of the tree and the JSON documents they name, by tree path. */
export async function readTreeTexts(dir: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const file of listYamlFiles(dir).files) {
    const text = await textOf(file.absolute);
    if (text === undefined) continue;
    texts.set(file.path, text);
    for (const document of namedDocuments(file.path, text)) {
      if (texts.has(document)) continue;
      const content = await textOf(join(dir, ...document.split('/')));
      if (content !== undefined) texts.set(document, content);
    }
  }
  return texts;
}

/**
 * Where a file of the tree is written: a symbolic link to a file inside the tree (the reader follows
 * only those) is written through, so the link stays a link; anything else at its own path.
 */
async function writtenPath(root: string, target: string): Promise<string> {
  const real = await realpath(target).catch(() => undefined);
  if (real === undefined || real === target) return target;
  const rel = relative(await realpath(root), real);
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside ? real : target;
}

/** Writes the changes under `dir`: each file whole or not at all (temp file, fsync, rename). */
export async function writeTreeChanges(dir: string, changes: readonly FileChange[]): Promise<void> {
  for (const change of changes) {
    const target = join(dir, ...change.path.split('/'));
    if (change.after === undefined) {
      await rm(target, { force: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(await writtenPath(dir, target), change.after, 0o644);
  }
}

/** Texts read as a tree on disk (a private copy, removed after): for what only a directory renders (environments). */
export async function readTextsAsTree(files: readonly { path: string; text: string }[], options: ReadOptions): Promise<Desired> {
  const copy = await mkdtemp(join(tmpdir(), 'wsync-pull-'));
  try {
    for (const file of files) {
      const target = join(copy, ...file.path.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.text, { mode: 0o600 });
    }
    return await readDesired(copy, options);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
