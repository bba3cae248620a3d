// The git commit a tree was read from, for marking what was applied (an annotation, a commit
// status): `git rev-parse HEAD` where DIR is in a git work tree (a git-sync worktree is one), and
// whether the files under DIR differ from it (then they are not that commit).
import { execFile } from 'node:child_process';

export interface TreeRevision {
  /** The full object name of HEAD. */
  commit: string;
  /** Files under DIR differ from HEAD (edited, added, removed): what was read is not the commit. */
  dirty: boolean;
}

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 10_000, windowsHide: true, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (err, stdout) => {
      resolve(err === null ? stdout : undefined);
    });
  });
}

/** HEAD of DIR's git work tree, or undefined when DIR is in none (or git cannot be run). */
export async function treeRevision(dir: string): Promise<TreeRevision | undefined> {
  const head = (await git(dir, ['rev-parse', '--verify', '-q', 'HEAD']))?.trim();
  if (head === undefined || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(head)) return undefined;
  const status = await git(dir, ['status', '--porcelain', '--untracked-files=normal', '--', '.']);
  return { commit: head, dirty: status === undefined || status.trim() !== '' };
}

/** A full commit object name (SHA-1 or SHA-256), as a commit status needs. */
export function isCommitId(text: string): boolean {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text);
}
