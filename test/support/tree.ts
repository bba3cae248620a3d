// Temporary directories and file trees: made fresh for a test, removed after it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { EXAMPLES_DIR } from './paths.js';

/** Relative path -> file content. */
export type Files = Record<string, string | Uint8Array>;

/** The YAML files below `dir` (`.yaml`, `.yml`), every folder deep, in path order. */
export function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

export function tempDir(prefix = 'wsync-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function writeTree(dir: string, files: Files): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

export function writeTreeSync(dir: string, files: Files): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A temporary directory holding `files`, made synchronously (for tables built at collection time). */
export function makeTree(files: Files, prefix = 'wsync-tree-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeTreeSync(dir, files);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A copy of config-examples/ at `<dir>/tree`, so a test can edit it and keep state beside it. */
export async function copyExamples(dir: string): Promise<string> {
  const tree = join(dir, 'tree');
  await cp(EXAMPLES_DIR, tree, { recursive: true });
  return tree;
}

export async function editFile(path: string, edit: (text: string) => string): Promise<void> {
  await writeFile(path, edit(await readFile(path, 'utf8')));
}

export interface Scratch {
  /** A new empty directory, removed after the file's tests. */
  dir(prefix?: string): Promise<string>;
  /** A new directory holding `files`, removed after the file's tests. */
  tree(files: Files, prefix?: string): string;
}

/** Temporary directories for one test file, all removed in its afterAll. */
export function useScratch(prefix = 'wsync-test-'): Scratch {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.splice(0).map(removeDir));
  });
  return {
    dir: async (p = prefix) => {
      const dir = await tempDir(p);
      dirs.push(dir);
      return dir;
    },
    tree: (files, p = prefix) => {
      const { dir } = makeTree(files, p);
      dirs.push(dir);
      return dir;
    },
  };
}

/** git in `cwd` with a fixed author and no user configuration; its output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** `dir` made a git repository with everything in it committed (the state directory ignored). */
export function commitTree(dir: string, message = 'tree'): void {
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, '.gitignore'), '.wsync/\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}
