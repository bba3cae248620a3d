// The GitHub REST API, as far as wsync uses it: commit statuses on the revisions it applied, and
// the pull request its write-back opens or updates. Requests as GitHub documents them
// (docs.github.com/rest: the media type, the API version header, a bearer token, a User-Agent);
// a GitHub Enterprise Server is the same API under https://HOST/api/v3. The token is never put in
// a message: errors quote GitHub's own message, scrubbed of it.
import { createRedactor } from '../core/redact.js';
import { safeLine } from '../core/safe-text.js';
import { ConfigError } from './errors.js';
import { createAgent, httpRequest } from './http.js';
import { systemClock } from './rate-limiter.js';
import { backoffDelay, DEFAULT_BACKOFF, parseNumber, parseRetryAfter, type BackoffSettings } from './retry.js';
import { parseApiUrl } from './url.js';
import { userAgent } from './user-agent.js';

export const GITHUB_API_URL = 'https://api.github.com';
export const GITHUB_API_VERSION = '2022-11-28';
/** GitHub keeps at most this much of a commit status's description. */
export const MAX_STATUS_DESCRIPTION = 140;
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RETRIES = 3;
/** A rate window longer than this is not waited out: the write is reported as failed instead. */
const MAX_RATE_WAIT_MS = 60_000;
const MAX_MESSAGE = 300;

export type CommitState = 'error' | 'failure' | 'pending' | 'success';

export interface Repository {
  owner: string;
  name: string;
}

export interface CommitStatusInput {
  state: CommitState;
  /** A label that tells this status from other tools' on the same commit (e.g. `wsync/production`). */
  context: string;
  /** Cut to 140 characters (GitHub's limit). */
  description?: string;
  targetUrl?: string;
}

export interface PullRequest {
  number: number;
  htmlUrl: string;
  state: string;
  title: string;
  head: string;
  base: string;
}

export interface PullRequestInput {
  title: string;
  /** The branch with the change (`branch`, or `owner:branch` from a fork). */
  head: string;
  base: string;
  body?: string;
}

export interface PullRequestUpdate {
  title?: string;
  body?: string;
  state?: 'open' | 'closed';
  base?: string;
}

export interface GitHubConfig {
  /** API root; default https://api.github.com (GitHub Enterprise Server: https://HOST/api/v3). */
  url?: string;
  /** The token, read for each request (a rotated file takes effect). */
  token: () => string;
  /** Plain http to a host that is not loopback. */
  insecure?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  backoff?: BackoffSettings;
}

export interface GitHubClient {
  createCommitStatus(repo: Repository, sha: string, status: CommitStatusInput): Promise<void>;
  /** The open pull request from `head` (a branch of `repo`), or undefined. */
  findOpenPullRequest(repo: Repository, head: string): Promise<PullRequest | undefined>;
  createPullRequest(repo: Repository, pr: PullRequestInput): Promise<PullRequest>;
  updatePullRequest(repo: Repository, number: number, update: PullRequestUpdate): Promise<PullRequest>;
  close(): Promise<void>;
}

/** What GitHub answered (or that it did not), without the token, headers or request body. */
export class GitHubError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number | undefined,
    detail: string,
  ) {
    super(`GitHub ${method} ${path}: ${status === undefined ? 'no answer' : status}${detail ? `: ${detail}` : ''}`);
    this.name = 'GitHubError';
  }
}

/** `owner/name` as GitHub spells a repository; throws ConfigError naming `what` otherwise. */
export function parseRepository(text: string, what: string): Repository {
  const match = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/.exec(text.trim());
  if (match === null || match[2] === '.' || match[2] === '..') throw new ConfigError(`${what}: expected owner/name, got "${safeLine(text)}"`);
  return { owner: match[1] ?? '', name: match[2] ?? '' };
}

type Method = 'GET' | 'POST' | 'PATCH';

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export function createGitHubClient(config: GitHubConfig): GitHubClient {
  const base = parseApiUrl(config.url ?? GITHUB_API_URL, config.insecure === true);
  const root = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
  const backoff = config.backoff ?? DEFAULT_BACKOFF;
  const agent = createAgent({ connections: 2, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });

  function scrub(text: string): string {
    let token = '';
    try {
      token = config.token();
    } catch {
      return text;
    }
    return createRedactor([token])(text);
  }

  async function send(method: Method, path: string, body: unknown): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': GITHUB_API_VERSION,
      authorization: `Bearer ${config.token()}`,
      'user-agent': userAgent(),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await httpRequest(agent, `${root}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    return { status: res.statusCode, headers: flat, text: await res.body.text() };
  }

  async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let answer: Answer | undefined;
      let failure = '';
      try {
        answer = await send(method, path, body);
      } catch (err) {
        failure = scrub(safeLine(err instanceof Error ? err.message : String(err)));
      }
      if (answer !== undefined && answer.status >= 200 && answer.status < 300) return parseJson<T>(answer.text, method, path);
      const wait = answer === undefined ? (method === 'POST' ? undefined : backoffDelay(attempt, backoff)) : retryWait(method, answer, attempt, backoff);
      if (wait === undefined || attempt > maxRetries) {
        throw new GitHubError(method, path, answer?.status, answer === undefined ? failure : scrub(githubMessage(answer)));
      }
      await systemClock.sleep(wait);
    }
  }

  const repoPath = (repo: Repository): string => `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;

  return {
    async createCommitStatus(repo, sha, status) {
      const body: Record<string, string> = { state: status.state, context: status.context };
      if (status.description !== undefined) body.description = cut(status.description, MAX_STATUS_DESCRIPTION);
      if (status.targetUrl !== undefined) body.target_url = status.targetUrl;
      await request('POST', `${repoPath(repo)}/statuses/${encodeURIComponent(sha)}`, body);
    },
    async findOpenPullRequest(repo, head) {
      const query = `head=${encodeURIComponent(`${repo.owner}:${head}`)}&state=open`;
      const list = await request<unknown>('GET', `${repoPath(repo)}/pulls?${query}`);
      const first = Array.isArray(list) ? (list as unknown[])[0] : undefined;
      return first === undefined ? undefined : pullRequestOf(first);
    },
    async createPullRequest(repo, pr) {
      const body = { title: pr.title, head: pr.head, base: pr.base, ...(pr.body === undefined ? {} : { body: pr.body }) };
      return pullRequestOf(await request<unknown>('POST', `${repoPath(repo)}/pulls`, body));
    },
    async updatePullRequest(repo, number, update) {
      return pullRequestOf(await request<unknown>('PATCH', `${repoPath(repo)}/pulls/${number}`, update));
    },
    close: () => agent.close(),
  };
}

/**
 * When to try again: GitHub's rate limits answer 403 or 429, the primary one with
 * x-ratelimit-remaining 0 and its reset (epoch seconds), a secondary one with retry-after
 * (docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api). Refused unprocessed, so
 * a POST may go again; a 5xx is retried only for a GET or PATCH (a POST may have been applied).
 */
function retryWait(method: Method, answer: Answer, attempt: number, backoff: BackoffSettings): number | undefined {
  const now = Date.now();
  const retryAfter = parseRetryAfter(answer.headers['retry-after'], now);
  if (answer.status === 403 || answer.status === 429) {
    if (retryAfter !== undefined) return retryAfter <= MAX_RATE_WAIT_MS ? retryAfter : undefined;
    if (answer.headers['x-ratelimit-remaining'] !== '0') return undefined;
    const reset = parseNumber(answer.headers['x-ratelimit-reset']);
    const wait = reset === undefined ? backoffDelay(attempt, backoff) : Math.max(0, reset * 1000 - now);
    return wait <= MAX_RATE_WAIT_MS ? wait : undefined;
  }
  if (answer.status >= 500 && method !== 'POST') return Math.max(backoffDelay(attempt, backoff), retryAfter ?? 0);
  return undefined;
}

/** GitHub's `{message, errors}`: the message and each error's own message or field and code. */
function githubMessage(answer: Answer): string {
  let text = answer.text;
  try {
    const parsed = JSON.parse(answer.text) as { message?: unknown; errors?: unknown };
    const errors = Array.isArray(parsed.errors) ? parsed.errors.map(errorText).filter((e) => e !== '') : [];
    if (typeof parsed.message === 'string') text = errors.length > 0 ? `${parsed.message} (${errors.join('; ')})` : parsed.message;
  } catch {
    // Not JSON (a proxy's page): a line of it.
  }
  return cut(safeLine(text.replace(/\s+/g, ' ').trim()), MAX_MESSAGE);
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error === null || typeof error !== 'object') return '';
  const e = error as Record<string, unknown>;
  if (typeof e.message === 'string') return e.message;
  return [e.field, e.code].filter((part) => typeof part === 'string').join(' ');
}

function parseJson<T>(text: string, method: string, path: string): T {
  if (text.trim() === '') return null as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GitHubError(method, path, undefined, 'the answer is not JSON');
  }
}

function pullRequestOf(value: unknown): PullRequest {
  const pr = (value ?? {}) as Record<string, unknown>;
  const ref = (side: unknown): string => {
    const r = (side ?? {}) as Record<string, unknown>;
    return typeof r.ref === 'string' ? r.ref : '';
  };
  if (typeof pr.number !== 'number') throw new GitHubError('GET', '/pulls', undefined, 'a pull request without a number');
  return {
    number: pr.number,
    htmlUrl: typeof pr.html_url === 'string' ? pr.html_url : '',
    state: typeof pr.state === 'string' ? pr.state : '',
    title: typeof pr.title === 'string' ? pr.title : '',
    head: ref(pr.head),
    base: ref(pr.base),
  };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
