// The files of the base of a change (`plan --base REF`): DIR as it is at REF in DIR's own git
// repository (its YAML and the JSON documents the YAML names), read with git (ls-tree, cat-file: nothing in the repository or its work tree changes),
// copied to a temporary directory and read like any tree. The base is only asked what it declares,
// so its secrets are checked as written and none is read.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import type { Desired } from '../../core/types.js';
import { readDesired, type ReadOptions } from '../index.js';

export class BaseTreeError extends Error {}

interface GitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

function git(cwd: string, args: readonly string[], input?: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // No pager, no prompts, and the user's configuration cannot turn the output into something else.
    const child = spawn('git', ['-c', 'core.quotePath=off', ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (err) => reject(new BaseTreeError(`--base needs git, which could not be run: ${err.message}`)));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
    if (child.stdin) {
      // git answers and exits before reading all of it only when it fails, which its exit code says.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}

interface TreeFile {
  path: string;
  object: string;
}

/**
 * Resource files (by name) under `prefix` at `commit`, and the `.json` files a resource may name as
 * its document (a dashboard's `spec.file`), paths relative to `prefix`.
 */
async function listFiles(top: string, commit: string, prefix: string): Promise<TreeFile[]> {
  const listed = await git(top, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', prefix === '' ? '.' : prefix]);
  if (listed.code !== 0) throw new BaseTreeError(`git ls-tree ${commit} failed: ${listed.stderr.trim()}`);
  const files: TreeFile[] = [];
  for (const record of listed.stdout.toString('utf8').split('\0')) {
    // `<mode> <type> <object>\t<path>`; symbolic links (120000) and submodules are left out.
    const match = /^(100644|100755) blob ([0-9a-f]+)\t(.+)$/s.exec(record);
    if (!match || !/\.(ya?ml|json)$/i.test(match[3] ?? '')) continue;
    const path = prefix === '' ? (match[3] ?? '') : (match[3] ?? '').slice(prefix.length + 1);
    files.push({ path, object: match[2] ?? '' });
  }
  return files;
}

/** The contents of `objects`, in order, through one `git cat-file --batch`. */
async function readObjects(top: string, objects: readonly string[]): Promise<Buffer[]> {
  if (objects.length === 0) return [];
  const batch = await git(top, ['cat-file', '--batch'], `${objects.join('\n')}\n`);
  if (batch.code !== 0) throw new BaseTreeError(`git cat-file failed: ${batch.stderr.trim()}`);
  const out: Buffer[] = [];
  let at = 0;
  for (const object of objects) {
    const headerEnd = batch.stdout.indexOf(0x0a, at);
    const header = batch.stdout.subarray(at, headerEnd).toString('utf8');
    const size = Number(/^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1]);
    if (headerEnd < 0 || !Number.isInteger(size)) throw new BaseTreeError(`git cat-file: unexpected answer for ${object}: ${header}`);
    out.push(batch.stdout.subarray(headerEnd + 1, headerEnd + 1 + size));
    at = headerEnd + 1 + size + 1;
  }
  return out;
}

/**
 * What DIR declared at `ref`. Throws BaseTreeError when DIR is not in a git repository or the ref
 * is not a commit there (a shallow clone may lack it: fetch it first).
 */
export async function readGitBase(dir: string, ref: string, options: ReadOptions = {}): Promise<Desired> {
  if (ref.trim() === '' || ref.startsWith('-')) throw new BaseTreeError(`--base: "${ref}" is not a git revision`);
  const where = await git(dir, ['rev-parse', '--show-toplevel']);
  if (where.code !== 0) throw new BaseTreeError(`--base: ${dir} is not in a git repository (${where.stderr.trim()})`);
  const top = where.stdout.toString('utf8').trim();
  const resolved = await git(top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (resolved.code !== 0) {
    throw new BaseTreeError(
      `--base: no commit "${ref}" in the repository of ${dir} (a shallow clone may lack it: fetch it, e.g. actions/checkout with fetch-depth: 0)`,
    );
  }
  const commit = resolved.stdout.toString('utf8').trim();
  const prefix = relative(await realpath(top), await realpath(dir)).split(sep).join('/');
  const files = await listFiles(top, commit, prefix);
  const contents = await readObjects(top, files.map((f) => f.object));
  const copy = await mkdtemp(join(tmpdir(), 'wsync-base-'));
  try {
    for (const [i, file] of files.entries()) {
      await mkdir(dirname(join(copy, file.path)), { recursive: true });
      await writeFile(join(copy, file.path), contents[i] ?? Buffer.alloc(0), { mode: 0o600 });
    }
    return await readDesired(copy, { ...options, secretsAsWritten: true });
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** What a directory holding the base's files declares (`plan --base-dir`); secrets as written. */
export function readBaseDir(dir: string, options: ReadOptions = {}): Promise<Desired> {
  return readDesired(dir, { ...options, secretsAsWritten: true });
}

/**
 * Of `paths` (relative to `dir`, `/`-separated), those git sees changed and not committed
 * (modified, staged, new and untracked, deleted) in DIR's repository; undefined when DIR is not
 * in a git repository (then nothing can be told apart and nothing is refused).
 */
export async function uncommittedFiles(dir: string, paths: readonly string[]): Promise<string[] | undefined> {
  const where = await git(dir, ['rev-parse', '--show-toplevel']);
  if (where.code !== 0) return undefined;
  if (paths.length === 0) return [];
  const status = await git(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...paths.map((p) => `:(literal)${p}`)]);
  if (status.code !== 0) throw new BaseTreeError(`git status failed: ${status.stderr.trim()}`);
  const top = await realpath(where.stdout.toString('utf8').trim());
  const prefix = relative(top, await realpath(dir)).split(sep).join('/');
  const changed: string[] = [];
  const records = status.stdout.toString('utf8').split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    if (record.length < 4) continue;
    // A rename names its source in the next record.
    if (record[0] === 'R' || record[0] === 'C') i++;
    const path = record.slice(3);
    changed.push(prefix === '' ? path : path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : path);
  }
  return changed;
}

/**
 * The revision local edits are told by when none is named: where this branch left the remote's
 * default branch (`git merge-base HEAD origin/HEAD`: what is merged, and so applied, is there),
 * else HEAD; undefined outside a git repository or before the first commit.
 */
export async function defaultGitBase(dir: string): Promise<string | undefined> {
  const head = await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => undefined);
  if (head?.code !== 0) return undefined;
  const remote = await git(dir, ['merge-base', 'HEAD', 'refs/remotes/origin/HEAD']).catch(() => undefined);
  return remote?.code === 0 ? remote.stdout.toString('utf8').trim() : 'HEAD';
}
