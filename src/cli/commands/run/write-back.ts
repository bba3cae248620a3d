// `wsync run --write-back KINDS`: drift made in the workspace written back to a branch of the
// synced repository as one pull request (#26.2). Where it pushes, which branch, which GitHub
// repository and token come from flags and the process's environment only, never from
// DIR/wsync.yaml: the tree is what a pull request changes (config-trust.ts). Its flags:
// write-back-options.ts.
import { isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { ConfigError } from '../../../api/errors.js';
import { createGitHubClient, GITHUB_API_URL, parseRepository, type GitHubClient } from '../../../api/github.js';
import type { KindName } from '../../../core/types.js';
import { KIND_NAMES, parseKindName } from '../../../kinds/index.js';
import type { KindChoice } from '../../../reconcile/write-back/drift.js';
import type { WriteBackSetup } from '../../../reconcile/write-back/publish.js';
import { remoteCredentials } from '../../../state/git-checkout.js';
import { optionalGithubToken } from '../../revision-marks.js';
import { DEFAULT_BASE, DEFAULT_WRITE_BACK_BRANCH, type WriteBackFlags } from './write-back-options.js';

const DEFAULT_AUTHOR = { name: 'wsync', email: 'wsync@localhost' };

function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes'].includes(value.trim().toLowerCase());
}

/** `all`, `none` (when allowed) or comma-separated kind names. */
export function parseKindChoice(text: string, flag: string, allowNone: boolean): KindChoice {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === 'all') return 'all';
  if (allowNone && trimmed.toLowerCase() === 'none') return [];
  const kinds: KindName[] = [];
  for (const part of trimmed.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const kind = parseKindName(part);
    if (kind === undefined) throw new ConfigError(`${flag}: "${part}" is not a kind (${KIND_NAMES.join(', ')}), nor "all"${allowNone ? ' or "none"' : ''}`);
    kinds.push(kind);
  }
  if (kinds.length === 0) throw new ConfigError(`${flag}: name kinds (comma-separated) or "all"`);
  return kinds;
}

function parseAuthor(text: string | undefined): { name: string; email: string } {
  if (text === undefined) return DEFAULT_AUTHOR;
  const match = /^([^<>]+?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(text);
  if (match === null) throw new ConfigError(`WSYNC_WRITE_BACK_AUTHOR: expected "Name <email>", got "${text}"`);
  return { name: match[1] ?? '', email: match[2] ?? '' };
}

function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A branch name git takes (git check-ref-format's rules, as far as a typo goes). */
function checkBranch(name: string, flag: string): string {
  if (!/^[A-Za-z0-9._/-]+$/.test(name) || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.lock') || name.includes('..') || name.includes('//')) {
    throw new ConfigError(`${flag}: "${name}" is not a branch name`);
  }
  return name;
}

/**
 * The write-back the flags and the process's environment ask for, or undefined. Throws
 * ConfigError for an incomplete or unsafe one (no remote, a checkout inside DIR, the base branch
 * as the write-back branch without --write-back-to-base), before anything runs.
 */
export function resolveWriteBack(flags: WriteBackFlags, env: Record<string, string | undefined>, paths: { dir: string; stateDir: string; cwd: string }, insecure: boolean): WriteBackSetup | undefined {
  const kindsText = given(flags.writeBack) ?? given(env.WSYNC_WRITE_BACK);
  if (kindsText === undefined) return undefined;
  const kinds = parseKindChoice(kindsText, '--write-back', false);
  const remote = given(flags.writeBackRemote) ?? given(env.WSYNC_WRITE_BACK_REMOTE);
  if (remote === undefined) throw new ConfigError('--write-back needs the git remote to push to: set --write-back-remote or WSYNC_WRITE_BACK_REMOTE');
  const branch = checkBranch(given(flags.writeBackBranch) ?? given(env.WSYNC_WRITE_BACK_BRANCH) ?? DEFAULT_WRITE_BACK_BRANCH, '--write-back-branch');
  const base = checkBranch(given(flags.writeBackBase) ?? given(env.WSYNC_WRITE_BACK_BASE) ?? DEFAULT_BASE, '--write-back-base');
  if (branch === base && flags.writeBackToBase !== true && !isTrue(env.WSYNC_WRITE_BACK_TO_BASE)) {
    throw new ConfigError(`--write-back-branch ${branch} is the branch the daemon syncs from (--write-back-base): write-back pushes there only with --write-back-to-base (WSYNC_WRITE_BACK_TO_BASE=1)`);
  }
  const path = normalize(given(flags.writeBackPath) ?? given(env.WSYNC_WRITE_BACK_PATH) ?? '.').replace(/\/+$/, '') || '.';
  if (isAbsolute(path) || path.startsWith('..')) throw new ConfigError(`--write-back-path: "${path}" must be a folder inside the repository (relative, no ..)`);
  const dirText = given(flags.writeBackDir) ?? given(env.WSYNC_WRITE_BACK_DIR);
  const checkoutDir = dirText === undefined ? join(paths.stateDir, 'write-back') : resolve(paths.cwd, dirText);
  if (isWithin(paths.dir, checkoutDir) && !isWithin(paths.stateDir, checkoutDir)) {
    throw new ConfigError(`--write-back-dir ${checkoutDir} is inside DIR ${paths.dir}: the checkout must be a directory of its own, never the tree the daemon reads`);
  }
  const hold = parseKindChoice(given(flags.writeBackHold) ?? given(env.WSYNC_WRITE_BACK_HOLD) ?? 'all', '--write-back-hold', true);
  let github: WriteBackSetup['github'];
  let client: GitHubClient | undefined;
  const token = optionalGithubToken(env, '--write-back');
  if (token !== undefined) {
    const repoText = given(env.WSYNC_GITHUB_REPOSITORY);
    if (repoText === undefined) throw new ConfigError('--write-back with a GitHub token opens a pull request: set WSYNC_GITHUB_REPOSITORY=owner/name (or unset the token to commit and push only)');
    client = createGitHubClient({ url: given(env.WSYNC_GITHUB_API_URL) ?? GITHUB_API_URL, token, insecure });
    github = { client, repository: parseRepository(repoText, 'WSYNC_GITHUB_REPOSITORY') };
  }
  const author = parseAuthor(given(env.WSYNC_WRITE_BACK_AUTHOR));
  return {
    kinds,
    hold,
    checkoutDir,
    remote,
    branch,
    base,
    path: path === '.' ? '' : path,
    author,
    ...(github === undefined ? {} : { github }),
    secrets: () => [...remoteCredentials(remote), ...(token === undefined ? [] : [token()])],
    close: async () => {
      await client?.close();
    },
  };
}
