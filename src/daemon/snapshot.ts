import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

/**
 * One consistent view of DIR for one reconcile. git-sync never changes a worktree once the link
 * points at it (it builds a new one and swaps the link), so reading the resolved path — not the
 * link — sees exactly one commit even when the link moves half-way through the read.
 */
export interface Snapshot {
  /** DIR with every symbolic link resolved: the path the reconcile reads. */
  target: string;
  /** Base name of the git-sync link's target (the worktree, named after the commit); null without a link. */
  revision: string | null;
  /** The symbolic link at or above DIR that is swapped to publish a new revision. */
  link: string | null;
}

function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/**
 * The symbolic link git-sync swaps: DIR itself, or the nearest parent of DIR that is a link
 * (DIR = `<link>/<subfolder>` when the wsync files sit in a sub-folder of the repository).
 * Top-level directories (`/tmp`, `/var`, ...) are never taken for it: some systems make those
 * links, and they are not revisions.
 */
export async function findLink(dir: string): Promise<string | null> {
  let current = resolve(dir);
  while (dirname(current) !== current && dirname(dirname(current)) !== dirname(current)) {
    try {
      if ((await lstat(current)).isSymbolicLink()) return current;
    } catch (err) {
      if (!MISSING.has(errCode(err) ?? '')) throw err;
    }
    current = dirname(current);
  }
  return null;
}

/** Resolves DIR once; null when DIR (or the link's target) does not exist yet or is not a directory. */
export async function resolveSnapshot(dir: string): Promise<Snapshot | null> {
  const absolute = resolve(dir);
  // The link may appear (or turn into a directory) between finding it and resolving it: look again.
  for (let attempt = 0; ; attempt++) {
    try {
      const link = await findLink(absolute);
      const snap = await resolveOnce(absolute, link);
      if (attempt >= 3 || (await findLink(absolute)) === link) return snap;
    } catch (err) {
      if (MISSING.has(errCode(err) ?? '')) {
        if (attempt >= 3) return null;
        continue;
      }
      throw err;
    }
  }
}

async function resolveOnce(absolute: string, link: string | null): Promise<Snapshot | null> {
  let target: string;
  let revision: string | null = null;
  if (link) {
    // Read the link once: the revision and the path read come from the same target.
    const linkTarget = await realpath(link);
    revision = basename(linkTarget);
    target = await realpath(join(linkTarget, relative(link, absolute)));
  } else {
    target = await realpath(absolute);
  }
  if (!(await stat(target)).isDirectory()) return null;
  return { target, revision, link };
}

/** True when `path` is `root` or inside it. */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(prefix);
}

/**
 * Where the inventory lives when --state-dir is not given: `<DIR>/.wsync` for a plain directory,
 * but outside the worktree when DIR is (or sits under) a git-sync link — a worktree is replaced
 * wholesale on every revision, and the inventory must survive that.
 */
export async function defaultStateDir(dir: string): Promise<string> {
  const absolute = resolve(dir);
  const link = await findLink(absolute);
  if (link) return join(dirname(link), '.wsync');
  try {
    const st = await lstat(absolute);
    if (st.isDirectory()) return join(absolute, '.wsync');
  } catch (err) {
    if (!MISSING.has(errCode(err) ?? '')) throw err;
  }
  // DIR is not there yet: it may well be a link still to come, so stay out of it.
  return join(dirname(absolute), '.wsync');
}

/**
 * git-sync removes the old worktree as soon as the link names the new one: files read from a
 * worktree the link has left may be a part of it (docs/deploy.md). Resolved again once the files
 * are read: undefined when the link still names what was read; otherwise why the reconcile is
 * dropped, and after a move `moved` asks for the new revision to be reconciled next.
 */
export async function linkMovedSince(dir: string, read: Snapshot, redact: (text: string) => string, moved: () => void): Promise<string | undefined> {
  let now: Snapshot | null;
  try {
    now = await resolveSnapshot(dir);
  } catch (err) {
    return `${dir} could not be resolved again after the read (${redact(err instanceof Error ? err.message : String(err))}): nothing written`;
  }
  if (now !== null && now.target === read.target) return undefined;
  moved();
  const to = now === null ? 'nothing' : (now.revision ?? now.target);
  return `the link moved from ${read.revision ?? read.target} to ${to} while the files were read: nothing written from them, the new revision is read next`;
}
