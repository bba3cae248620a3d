// The opt-in marks of what apply and the daemon applied (#26.3): `--annotate` (an Annotation on the
// datasets written) and `--commit-status` (a GitHub commit status on the revision). Where the
// GitHub token goes and which repository it writes to come from flags and the environment only,
// never from DIR/wsync.yaml: the tree is what a pull request changes (config-trust.ts). Their flags:
// revision-mark-options.ts.
import { ConfigError } from '../api/errors.js';
import { createGitHubClient, GITHUB_API_URL, parseRepository, type GitHubClient, type Repository } from '../api/github.js';
import { constantToken, ownCredential, tokenFileReader } from '../api/token-source.js';
import { REVISION_PLACEHOLDER, type MarkSetup, type RevisionMarks } from '../reconcile/revision-marks.js';
import type { RevisionMarkFlags } from './revision-mark-options.js';

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes'].includes(value.trim().toLowerCase());
}

function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The GitHub token, recorded as wsync's own credential: never a value of a resource, scrubbed from every output. */
export function githubToken(env: Record<string, string | undefined>, flag = '--commit-status'): () => string {
  const token = optionalGithubToken(env, flag);
  if (token === undefined) throw new ConfigError(`${flag} needs a GitHub token: set WSYNC_GITHUB_TOKEN or WSYNC_GITHUB_TOKEN_FILE`);
  return token;
}

/** The GitHub token when one is set (the write-back works without one: commit and push only). */
export function optionalGithubToken(env: Record<string, string | undefined>, flag: string): (() => string) | undefined {
  const what = 'the GitHub token';
  const value = given(env.WSYNC_GITHUB_TOKEN);
  const file = given(env.WSYNC_GITHUB_TOKEN_FILE);
  if (value !== undefined && file !== undefined) throw new ConfigError(`${flag}: set WSYNC_GITHUB_TOKEN or WSYNC_GITHUB_TOKEN_FILE, not both`);
  if (value !== undefined) return ownCredential(what, constantToken(value));
  if (file !== undefined) return ownCredential(what, tokenFileReader(file, 'WSYNC_GITHUB_TOKEN_FILE'), file);
  return undefined;
}

/** The commit's page on GitHub: github.com for api.github.com, the server itself for an Enterprise one. */
function commitUrlTemplate(apiUrl: string, repo: Repository): string {
  const api = new URL(apiUrl);
  const web = api.hostname === 'api.github.com' ? 'https://github.com' : `${api.origin}${api.pathname.replace(/\/+$/, '').replace(/\/api\/v3$/, '')}`;
  return `${web}/${repo.owner}/${repo.name}/commit/${REVISION_PLACEHOLDER}`;
}

/**
 * The marks the flags and the environment (never wsync.yaml: `env` is the process's own) ask
 * for, or undefined when none. Throws ConfigError for an incomplete opt-in, before anything runs.
 */
export function resolveRevisionMarks(flags: RevisionMarkFlags, env: Record<string, string | undefined>, insecure: boolean): MarkSetup | undefined {
  const annotate = flags.annotate === true || isTrue(env.WSYNC_ANNOTATE);
  const status = flags.commitStatus === true || isTrue(env.WSYNC_COMMIT_STATUS);
  if (!annotate && !status) return undefined;
  let urlTemplate = given(flags.annotateUrlTemplate) ?? given(env.WSYNC_ANNOTATE_URL_TEMPLATE);
  if (urlTemplate !== undefined && !urlTemplate.includes(REVISION_PLACEHOLDER)) {
    throw new ConfigError(`--annotate-url-template: "${urlTemplate}" has no ${REVISION_PLACEHOLDER} to put the commit in`);
  }
  const marks: RevisionMarks = {};
  let github: GitHubClient | undefined;
  let token: (() => string) | undefined;
  if (status) {
    const repoText = given(env.WSYNC_GITHUB_REPOSITORY);
    if (repoText === undefined) throw new ConfigError('--commit-status needs the repository: set WSYNC_GITHUB_REPOSITORY=owner/name');
    const repository = parseRepository(repoText, 'WSYNC_GITHUB_REPOSITORY');
    token = githubToken(env);
    const url = given(env.WSYNC_GITHUB_API_URL) ?? GITHUB_API_URL;
    github = createGitHubClient({ url, token, insecure });
    const targetUrl = given(env.WSYNC_COMMIT_STATUS_URL);
    marks.commitStatus = { github, repository, context: given(env.WSYNC_COMMIT_STATUS_CONTEXT) ?? 'wsync', ...(targetUrl === undefined ? {} : { targetUrl }) };
    urlTemplate ??= commitUrlTemplate(url, repository);
  }
  if (annotate) marks.annotate = urlTemplate === undefined ? {} : { urlTemplate };
  return {
    marks,
    secrets: () => (token === undefined ? [] : [token()]),
    close: async () => {
      await github?.close();
    },
  };
}
