// The state directory holds the hash key, the inventory and (by default) API token secrets: it is
// private (0700), ignores itself for git, and is left behind only by a command that wrote something.
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

export const STATE_GITIGNORE = '.gitignore';
/** Everything in the directory, this file included: `git add -A` in a work tree holding it adds nothing. */
const GITIGNORE_TEXT = '# wsync state: the hash key, the inventory, API token secrets. Never commit it.\n*\n';

/** What `makePrivateDir` made, so that `removeUnusedStateDir` can take back exactly that. */
export interface PreparedDir {
  dir: string;
  /** The outermost directory this call created (`mkdir -p` may make parents too); undefined when it existed. */
  createdFrom: string | undefined;
}

/**
 * Makes a directory for secrets (the state directory, the token output directory) if it is
 * missing: mode 0700 whatever the umask, with a `.gitignore` of `*`. An existing directory is left
 * as it is (`ensureStateGitignore` adds the file to an older state directory).
 */
export async function makePrivateDir(dir: string): Promise<PreparedDir> {
  const createdFrom = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (createdFrom !== undefined) {
    await chmod(dir, 0o700);
    await writeFile(join(dir, STATE_GITIGNORE), GITIGNORE_TEXT, { mode: 0o600 });
  }
  return { dir, createdFrom };
}

/** Adds the `.gitignore` to a state directory made before wsync wrote one (or whose file was deleted). */
export async function ensureStateGitignore(dir: string): Promise<void> {
  await writeFile(join(dir, STATE_GITIGNORE), GITIGNORE_TEXT, { mode: 0o600, flag: 'wx' }).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  });
}

/**
 * Takes back a state directory this process created when nothing was written into it (a refused or
 * empty apply): only if it holds nothing but its `.gitignore`, and parents only if they are empty.
 */
export async function removeUnusedStateDir(prepared: PreparedDir): Promise<void> {
  const { dir, createdFrom } = prepared;
  if (createdFrom === undefined) return;
  const entries = await readdir(dir).catch(() => undefined);
  if (entries === undefined || entries.some((name) => name !== STATE_GITIGNORE)) return;
  await unlink(join(dir, STATE_GITIGNORE)).catch(() => undefined);
  for (let at = dir; ; at = dirname(at)) {
    try {
      await rmdir(at);
    } catch {
      return; // not empty (someone else wrote there meanwhile): kept
    }
    if (at === createdFrom || dirname(at) === at) return;
  }
}

/** The git work tree holding `dir` (the nearest parent with a `.git`), or undefined. */
export async function gitWorkTreeOf(dir: string): Promise<string | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    if (await stat(join(at, '.git')).then(() => true, () => false)) return at;
    if (dirname(at) === at) return undefined;
  }
}

function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 10_000, windowsHide: true }, (err, stdout) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout });
    });
  });
}

/**
 * Why git would commit files of the state directory, or undefined when it would not (or when `dir`
 * is not in a git work tree, or git cannot be run: then its `.gitignore` is all there is).
 * Tracked files count too: ignore rules do not apply to a file committed before.
 */
export async function stateDirGitExposure(dir: string): Promise<string | undefined> {
  const tree = await gitWorkTreeOf(dir);
  if (tree === undefined) return undefined;
  const tracked = await git(dir, ['ls-files', '-z', '--', '.']);
  if (tracked.code !== 0) return undefined;
  const files = tracked.stdout.split('\0').filter((name) => name !== '');
  if (files.length > 0) {
    return `git already tracks ${files.length} file${files.length === 1 ? '' : 's'} of it (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''}): run git rm -r --cached ${relative(tree, dir) || '.'}`;
  }
  // Exit 1: the probe is not ignored. Any other code (no git, not a repository after all) says nothing.
  const probe = await git(dir, ['check-ignore', '-q', '--', 'inventory.json']);
  if (probe.code === 1) {
    return `git does not ignore it: add ${relative(tree, dir).split(sep).join('/') || '.'}/ to ${join(relative(process.cwd(), tree) || '.', '.gitignore')}, or keep a .gitignore of * inside it`;
  }
  return undefined;
}
