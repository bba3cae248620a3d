// The daemon's write-back checkout (#26.2): a clone of the synced repository of its own (never the
// directory git-sync serves), driven through `git` child processes. Every message git gives is
// passed through the caller's redactor before it is put in an error: a remote URL may carry a
// credential, and git echoes URLs.
import { execFile } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

const GIT_TIMEOUT_MS = 120_000;

export class GitError extends Error {
  constructor(
    message: string,
    /** All git wrote to stderr, redacted. */
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface GitCheckoutOptions {
  /** The checkout's directory (made and cloned into when absent). */
  dir: string;
  /** The git remote's URL (a path to a bare repository, https://..., ssh). */
  remote: string;
  /** `Name <email>` of the commits made. */
  author: { name: string; email: string };
  redact: (text: string) => string;
}

export type PushResult = 'pushed' | 'rejected';

/** Where the write-back branch stands on the remote against the base branch. */
export type BranchState = 'absent' | 'merged' | 'ahead';

export class GitCheckout {
  constructor(private readonly options: GitCheckoutOptions) {}

  get dir(): string {
    return this.options.dir;
  }

  /** git in the checkout; its stdout, or a GitError with its stderr (redacted). */
  private run(args: string[], cwd = this.options.dir): Promise<string> {
    const { author } = this.options;
    const config = ['-c', `user.name=${author.name}`, '-c', `user.email=${author.email}`, '-c', 'core.quotePath=off'];
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        [...config, ...args],
        { cwd, timeout: GIT_TIMEOUT_MS, windowsHide: true, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } },
        (err, stdout, stderr) => {
          if (err === null) return resolve(stdout);
          const all = String(stderr).trim();
          const detail = all.split('\n').filter((l) => !l.startsWith('hint:')).slice(-3).join('; ') || err.message;
          reject(new GitError(this.options.redact(`git ${args[0] ?? ''}: ${detail}`), this.options.redact(all)));
        },
      );
    });
  }

  /** Clones the remote when the checkout is not there yet, then fetches every branch. */
  async fetch(): Promise<void> {
    if (!(await exists(`${this.options.dir}/.git`))) {
      await mkdir(dirname(this.options.dir), { recursive: true });
      await this.run(['clone', '--quiet', '--no-checkout', '--', this.options.remote, this.options.dir], dirname(this.options.dir));
    }
    await this.run(['fetch', '--quiet', '--prune', 'origin', '+refs/heads/*:refs/remotes/origin/*']);
  }

  /** The commit a remote branch names after the last fetch, or undefined. */
  async remoteHead(branch: string): Promise<string | undefined> {
    try {
      return (await this.run(['rev-parse', '--verify', '-q', `refs/remotes/origin/${branch}^{commit}`])).trim();
    } catch {
      return undefined;
    }
  }

  /** After a fetch: the branch is gone, merged into `base` (an ancestor of it), or ahead of it. */
  async branchState(branch: string, base: string): Promise<BranchState> {
    const head = await this.remoteHead(branch);
    if (head === undefined) return 'absent';
    try {
      await this.run(['merge-base', '--is-ancestor', head, `refs/remotes/origin/${base}`]);
      return 'merged';
    } catch {
      return 'ahead';
    }
  }

  /**
   * Checks out `branch` as the remote has it, or a new one at `base` when the remote has none or
   * the remote's was merged into base (its work is done; the new one fast-forwards it). Files left
   * by an earlier attempt are thrown away: the checkout holds nothing but what is committed.
   */
  async checkoutBranch(branch: string, base: string): Promise<void> {
    const state = await this.branchState(branch, base);
    const start = state === 'ahead' ? `refs/remotes/origin/${branch}` : `refs/remotes/origin/${base}`;
    if ((await this.remoteHead(base)) === undefined && state !== 'ahead') throw new GitError(`the remote has no branch ${base} to start ${branch} from`);
    await this.run(['checkout', '--quiet', '--force', '-B', branch, start]);
    await this.run(['clean', '--quiet', '-fdx']);
  }

  /** Commits every change under the checkout; false when there was none. */
  async commitAll(message: string): Promise<boolean> {
    await this.run(['add', '--all']);
    const staged = await this.run(['diff', '--cached', '--name-only']);
    if (staged.trim() === '') return false;
    await this.run(['commit', '--quiet', '--no-verify', '-m', message]);
    return true;
  }

  /** The messages of the commits on HEAD and not on `ref`, newest first. */
  async messagesSince(ref: string): Promise<string[]> {
    const text = await this.run(['log', '--format=%B%x00', `${ref}..HEAD`]);
    return text.split('\0').map((m) => m.trim()).filter((m) => m !== '');
  }

  async headCommit(): Promise<string> {
    return (await this.run(['rev-parse', 'HEAD'])).trim();
  }

  /** Pushes HEAD to `branch`; 'rejected' when the remote's branch moved on (non-fast-forward). */
  async push(branch: string): Promise<PushResult> {
    try {
      await this.run(['push', 'origin', `HEAD:refs/heads/${branch}`]);
      return 'pushed';
    } catch (err) {
      if (err instanceof GitError && /non-fast-forward|fetch first|\[rejected\]/i.test(err.stderr)) return 'rejected';
      throw err;
    }
  }
}

/** The user and password of a remote URL (https://user:token@host/...), for the redactor. */
export function remoteCredentials(remote: string): string[] {
  let url: URL;
  try {
    url = new URL(remote);
  } catch {
    return [];
  }
  const parts = [url.password, url.username];
  return [...new Set([...parts, ...parts.map(decoded)])].filter((s) => s !== '');
}

/** A URL part as git may print it, decoded; as written when a `%` is no escape (decoding would throw). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
