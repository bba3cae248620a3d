// A local stand-in for the GitHub REST API (127.0.0.1 only), for what wsync calls: commit statuses
// and pull requests. It checks each request as GitHub documents it (docs.github.com/rest, API
// version 2022-11-28) and answers as GitHub's documented responses do, so a client that sends
// something GitHub would refuse fails here too. Every request is recorded (body parsed, headers
// kept) for the test's assertions. Not a mock of our client: real HTTP.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export const GITHUB_TEST_TOKEN = 'ghp_wsyncStandInToken0123456789abcdefABCD';

export interface GitHubRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when none). */
  body: unknown;
  /** What the stand-in answered. */
  status: number;
}

export interface StoredStatus {
  sha: string;
  state: string;
  context: string;
  description: string | null;
  target_url: string | null;
}

export interface StoredPull {
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  state: 'open' | 'closed';
}

export interface ScriptedFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface GitHubStandIn {
  url: string;
  token: string;
  requests: GitHubRequest[];
  statuses: StoredStatus[];
  pulls: StoredPull[];
  /** The next requests answer these, in order, instead of being served (a rate limit, a 500). */
  failNext(...failures: ScriptedFailure[]): void;
  /** The next request waits unanswered until released (a slow GitHub, deterministically). */
  holdNext(): HeldRequest;
  reset(): void;
  close(): Promise<void>;
}

export interface HeldRequest {
  /** Resolves with `METHOD url` once the held request arrived. */
  arrived: Promise<string>;
  /** Serves it (and is a no-op after the first call). */
  release(): void;
}

interface Gate {
  arrive(request: string): void;
  released: Promise<void>;
}

function gate(): { held: HeldRequest; gate: Gate } {
  let arrive: (request: string) => void = () => undefined;
  let release: () => void = () => undefined;
  const arrived = new Promise<string>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { held: { arrived, release }, gate: { arrive, released } };
}

const DOCS = 'https://docs.github.com/rest';
const STATES = ['error', 'failure', 'pending', 'success'];

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const validationFailed = (resource: string, field: string, code: string, message?: string): Refusal =>
  new Refusal(422, {
    message: 'Validation Failed',
    errors: [{ resource, field, code, ...(message === undefined ? {} : { message }) }],
    documentation_url: DOCS,
  });

export interface StandInOptions {
  token?: string;
  owner?: string;
  repo?: string;
  /** Where the API sits on the host: `/api/v3` as on a GitHub Enterprise Server; default the root, as api.github.com. */
  prefix?: string;
}

export async function startGitHubStandIn(options: StandInOptions = {}): Promise<GitHubStandIn> {
  const token = options.token ?? GITHUB_TEST_TOKEN;
  const prefix = options.prefix ?? '';
  const repoPath = `${prefix}/repos/${options.owner ?? 'acme'}/${options.repo ?? 'workspace'}`;
  const requests: GitHubRequest[] = [];
  const statuses: StoredStatus[] = [];
  const pulls: StoredPull[] = [];
  const failures: ScriptedFailure[] = [];
  const gates: Gate[] = [];

  function checkHeaders(headers: IncomingHttpHeaders, hasBody: boolean): void {
    // Requests without a User-Agent are rejected (docs: "User agent required").
    if (!headers['user-agent']) throw new Refusal(403, { message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header' });
    if (headers.authorization !== `Bearer ${token}`) throw new Refusal(401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
    if (headers.accept !== 'application/vnd.github+json') throw new Refusal(415, { message: `stand-in: Accept must be application/vnd.github+json, got ${String(headers.accept)}` });
    const version = headers['x-github-api-version'];
    if (version !== '2022-11-28') throw new Refusal(400, { message: `stand-in: X-GitHub-Api-Version must be 2022-11-28, got ${String(version)}` });
    if (hasBody && !String(headers['content-type'] ?? '').startsWith('application/json')) throw new Refusal(415, { message: 'stand-in: a body must be application/json' });
  }

  function createStatus(sha: string, body: Record<string, unknown>): [number, unknown] {
    if (!/^[0-9a-f]{40}$/.test(sha)) throw new Refusal(422, { message: `No commit found for SHA: ${sha}`, documentation_url: DOCS });
    if (typeof body.state !== 'string' || !STATES.includes(body.state)) throw validationFailed('Status', 'state', 'custom', 'state is not included in the list');
    for (const field of ['target_url', 'description', 'context']) {
      if (body[field] !== undefined && body[field] !== null && typeof body[field] !== 'string') throw validationFailed('Status', field, 'invalid');
    }
    if (typeof body.description === 'string' && body.description.length > 140) {
      throw validationFailed('Status', 'description', 'custom', 'description is too long (maximum is 140 characters)');
    }
    const stored: StoredStatus = {
      sha,
      state: body.state,
      context: typeof body.context === 'string' ? body.context : 'default',
      description: typeof body.description === 'string' ? body.description : null,
      target_url: typeof body.target_url === 'string' ? body.target_url : null,
    };
    statuses.push(stored);
    const at = new Date().toISOString();
    return [201, { id: statuses.length, node_id: `SC_${statuses.length}`, url: `${repoPath}/statuses/${sha}`, ...stored, created_at: at, updated_at: at }];
  }

  function pullJson(pr: StoredPull): Record<string, unknown> {
    return {
      number: pr.number,
      html_url: `https://github.example/${options.owner ?? 'acme'}/${options.repo ?? 'workspace'}/pull/${pr.number}`,
      url: `${repoPath}/pulls/${pr.number}`,
      state: pr.state,
      title: pr.title,
      body: pr.body,
      head: { ref: pr.head, label: `${options.owner ?? 'acme'}:${pr.head}` },
      base: { ref: pr.base },
    };
  }

  function createPull(body: Record<string, unknown>): [number, unknown] {
    for (const field of ['title', 'head', 'base']) {
      if (typeof body[field] !== 'string' || body[field] === '') throw validationFailed('PullRequest', field, 'missing_field');
    }
    if (body.body !== undefined && typeof body.body !== 'string') throw validationFailed('PullRequest', 'body', 'invalid');
    const head = String(body.head).replace(/^[^:]+:/, '');
    if (head === body.base) throw validationFailed('PullRequest', 'base', 'invalid', `No commits between ${String(body.base)} and ${head}`);
    if (pulls.some((p) => p.state === 'open' && p.head === head && p.base === body.base)) {
      throw validationFailed('PullRequest', 'head', 'custom', `A pull request already exists for ${options.owner ?? 'acme'}:${head}.`);
    }
    const pr: StoredPull = { number: pulls.length + 1, title: String(body.title), body: typeof body.body === 'string' ? body.body : null, head, base: String(body.base), state: 'open' };
    pulls.push(pr);
    return [201, pullJson(pr)];
  }

  function updatePull(number: number, body: Record<string, unknown>): [number, unknown] {
    const pr = pulls.find((p) => p.number === number);
    if (pr === undefined) throw new Refusal(404, { message: 'Not Found', documentation_url: DOCS });
    for (const field of ['title', 'body', 'base']) if (body[field] !== undefined && typeof body[field] !== 'string') throw validationFailed('PullRequest', field, 'invalid');
    if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed') throw validationFailed('PullRequest', 'state', 'invalid');
    if (typeof body.title === 'string') pr.title = body.title;
    if (typeof body.body === 'string') pr.body = body.body;
    if (typeof body.base === 'string') pr.base = body.base;
    if (body.state === 'open' || body.state === 'closed') pr.state = body.state;
    return [200, pullJson(pr)];
  }

  function route(method: string, url: URL, body: unknown): [number, unknown] {
    const path = url.pathname;
    const object = (body ?? {}) as Record<string, unknown>;
    if (method !== 'GET' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw new Refusal(400, { message: 'Problems parsing JSON', documentation_url: DOCS });
    }
    const status = new RegExp(`^${repoPath}/statuses/([^/]+)$`).exec(path);
    if (status && method === 'POST') return createStatus(decodeURIComponent(status[1] ?? ''), object);
    if (path === `${repoPath}/pulls` && method === 'GET') {
      const head = url.searchParams.get('head');
      const state = url.searchParams.get('state') ?? 'open';
      if (head !== null && !head.includes(':')) throw validationFailed('PullRequest', 'head', 'invalid', 'head must be user:ref-name');
      const found = pulls.filter((p) => (state === 'all' || p.state === state) && (head === null || head.endsWith(`:${p.head}`)));
      return [200, found.map(pullJson)];
    }
    if (path === `${repoPath}/pulls` && method === 'POST') return createPull(object);
    const pull = new RegExp(`^${repoPath}/pulls/(\\d+)$`).exec(path);
    if (pull && method === 'PATCH') return updatePull(Number(pull[1]), object);
    throw new Refusal(404, { message: 'Not Found', documentation_url: DOCS });
  }

  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const held = gates.shift();
      if (held === undefined) return serve();
      held.arrive(`${req.method ?? ''} ${req.url ?? ''}`);
      void held.released.then(serve);
    });
    function serve(): void {
      const method = req.method ?? '';
      let parsed: unknown;
      let answer: [number, unknown];
      let headers: Record<string, string> = {};
      try {
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          throw new Refusal(400, { message: 'Problems parsing JSON', documentation_url: DOCS });
        }
        checkHeaders(req.headers, text !== '');
        const failure = failures.shift();
        if (failure) {
          answer = [failure.status, failure.body ?? { message: 'stand-in failure', documentation_url: DOCS }];
          headers = failure.headers ?? {};
        } else {
          answer = route(method, new URL(req.url ?? '/', 'http://127.0.0.1'), parsed);
        }
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        answer = [err.status, err.body];
      }
      requests.push({ method, url: req.url ?? '', headers: req.headers, body: parsed, status: answer[0] });
      res.writeHead(answer[0], { 'content-type': 'application/json; charset=utf-8', 'x-github-api-version-selected': '2022-11-28', ...headers });
      res.end(JSON.stringify(answer[1]));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    token,
    requests,
    statuses,
    pulls,
    failNext: (...more) => failures.push(...more),
    holdNext() {
      const { held, gate: next } = gate();
      gates.push(next);
      return held;
    },
    reset() {
      requests.length = 0;
      statuses.length = 0;
      pulls.length = 0;
      failures.length = 0;
      gates.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One stand-in for the file's tests (beforeAll/afterAll); `get()` once the suite started. */
export function useGitHubStandIn(options: StandInOptions = {}): { get(): GitHubStandIn } {
  let standIn: GitHubStandIn | undefined;
  beforeAll(async () => {
    standIn = await startGitHubStandIn(options);
  });
  afterAll(async () => {
    await standIn?.close();
  });
  return {
    get() {
      if (standIn === undefined) throw new Error('the GitHub stand-in starts in beforeAll');
      return standIn;
    },
  };
}
