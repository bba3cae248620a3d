// The only code that speaks HTTP: auth, timeouts, retries, rate-limit pacing and error bodies.
import pLimit from 'p-limit';
import { createRedactor } from '../core/redact.js';
import { safeLine } from '../core/safe-text.js';
import type { JsonValue } from '../core/types.js';
import { ApiError } from './errors.js';
import { createAgent, httpRequest } from './http.js';
import { readJsonBody } from './json-body.js';
import { RateLimiter, systemClock } from './rate-limiter.js';
import { isCertificateError, isConnectFailure, Reachability } from './reachability.js';
import { backoffDelay, DEFAULT_BACKOFF, parseNumber, parseRateLimitReset, parseRetryAfter } from './retry.js';
import type { ApiClient, ApiRequest, ApiResponse, ApiStats, ConnectionConfig, HttpMethod } from './types.js';
import { parseApiUrl } from './url.js';
import { userAgent } from './user-agent.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 6;
export const DEFAULT_MAX_CONCURRENCY = 8;
export const DEFAULT_RETRY_BUDGET_MS = 60_000;
/** The longest wait for a rate window a 429 names that is waited out: the documented window is a minute. */
const MAX_RATE_WAIT_MS = 120_000;

/** Longest server message kept in an error: enough to explain, not enough to dump a page. */
const MAX_SERVER_MESSAGE = 500;


type Answered = {
  answered: true;
  status: number;
  headers: Record<string, string>;
} & (
  | { text: string }
  /** A successful answer that is an array, parsed as it arrived (json-body.ts). */
  | { value: unknown }
  /** The start of a successful answer's text that is not JSON: all that its message quotes. */
  | { notJson: string }
);
type Attempt = Answered | { answered: false; code: string; detail: string; notSent: boolean };

class AttemptTimeout extends Error {}

export function createApiClient(config: ConnectionConfig): ApiClient {
  const base = parseApiUrl(config.url, config.insecure === true);
  const basePath = base.pathname.replace(/\/+$/, '');
  const timeoutMs = positive(config.timeoutMs, DEFAULT_TIMEOUT_MS);
  const maxRetries = nonNegative(config.maxRetries, DEFAULT_MAX_RETRIES);
  const maxConcurrency = positive(config.maxConcurrency, DEFAULT_MAX_CONCURRENCY);
  const backoff = {
    baseMs: nonNegative(config.retryBaseMs, DEFAULT_BACKOFF.baseMs),
    capMs: nonNegative(config.retryCapMs, DEFAULT_BACKOFF.capMs),
  };
  const retryBudgetMs = nonNegative(config.retryBudgetMs, DEFAULT_RETRY_BUDGET_MS);

  const agent = createAgent({ connections: maxConcurrency, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000 });
  const limiter = new RateLimiter(systemClock);
  // At most maxConcurrency attempts in flight; the rest wait in order.
  const gate = pLimit(Math.ceil(maxConcurrency));
  const stats: ApiStats = { requests: 0, byMethodStatus: {}, retries: 0, rateLimited: 0 };
  const reachability = new Reachability();

  function urlOf(req: ApiRequest): { url: string; query: string } {
    if (!req.path.startsWith('/')) throw new TypeError(`API path must start with "/": ${req.path}`);
    // A URL given as https://host/v2 and a path /v2/... must not become /v2/v2/...
    const prefix = basePath.endsWith('/v2') && req.path.startsWith('/v2/') ? basePath.slice(0, -3) : basePath;
    const query = queryString(req.query);
    return { url: `${base.origin}${prefix}${req.path}${query ? `?${query}` : ''}`, query };
  }

  function attempt(method: HttpMethod, url: string, body: string | undefined): Promise<Attempt> {
    return gate(async () => {
      await limiter.acquire();
      let token: string;
      try {
        token = config.token();
      } catch (err) {
        // Not a network failure: let the requests waiting behind this one go, and stop.
        limiter.noAnswer();
        throw err;
      }
      const sentAt = Date.now();
      let result: Answered;
      try {
        result = await send({ agent, orgId: config.orgId, timeoutMs }, method, url, body, token);
      } catch (err) {
        limiter.noAnswer();
        return noAnswerOf(err, timeoutMs, config.token);
      }
      limiter.observe({
        sentAt,
        receivedAt: Date.now(),
        status: result.status,
        limit: parseNumber(result.headers['x-ratelimit-limit']),
        remaining: parseNumber(result.headers['x-ratelimit-remaining']),
        reset: parseNumber(result.headers['x-ratelimit-reset']),
        retryAfterMs: parseRetryAfter(result.headers['retry-after'], Date.now()),
      });
      return result;
    });
  }

  function record(method: HttpMethod, status: number): void {
    stats.requests++;
    const key = `${method} ${status}`;
    stats.byMethodStatus[key] = (stats.byMethodStatus[key] ?? 0) + 1;
    if (status === 429) stats.rateLimited++;
    try {
      client.onAttempt?.(method, status);
    } catch {
      // A metrics hook must never break a request.
    }
  }

  async function request<T = JsonValue>(req: ApiRequest): Promise<ApiResponse<T>> {
    const started = Date.now();
    const { url, query } = urlOf(req);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const where = { method: req.method, path: req.path, query };
    const refused = reachability.refusal();
    if (refused !== undefined) throw new ApiError({ ...where, noAnswer: true, notSent: true, notAttempted: refused, attempts: 0 });
    for (let attempts = 1; ; attempts++) {
      const result = await attempt(req.method, url, body);
      record(req.method, result.answered ? result.status : 0);
      if (!result.answered && result.notSent) reachability.failedToConnect(result.code);
      else reachability.reached();

      if (result.answered && result.status >= 200 && result.status < 300) {
        return { status: result.status, body: parseBody<T>(result, where, attempts, config.token), headers: result.headers };
      }
      const delay = retryDelay(req.readOnly === true ? 'GET' : req.method, result, backoffDelay(attempts, backoff), reachability.gone);
      const error = (): ApiError => errorOf(result, where, attempts, config.token);
      if (delay === undefined || attempts > maxRetries) throw error();
      // A 429 was refused unprocessed and names its window's end: waiting for it (a minute at most on
      // the service) is the way through, however long the request already waited its turn.
      const rateWait = result.answered && result.status === 429;
      if (rateWait ? delay > MAX_RATE_WAIT_MS : Date.now() - started + delay > retryBudgetMs) throw error();
      stats.retries++;
      await systemClock.sleep(delay);
    }
  }


  const client: ApiClient = {
    request,
    stats,
    get unreachable() {
      return reachability.reason;
    },
    onAttempt: undefined,
    async close() {
      await agent.close();
    },
  };
  return client;
}

interface Where {
  method: HttpMethod;
  path: string;
  query: string;
}

function parseBody<T>(result: Answered, where: Where, attempts: number, token: () => string): T {
  if ('value' in result) return result.value as T;
  const notJson = (text: string): ApiError =>
    new ApiError({ ...where, status: result.status, serverMessage: scrub(`the answer is not JSON: ${oneLine(text)}`, token), attempts });
  if ('notJson' in result) throw notJson(result.notJson);
  if (result.text.trim() === '') return null as T;
  try {
    return JSON.parse(result.text) as T;
  } catch {
    throw notJson(result.text);
  }
}

function errorOf(result: Attempt, where: Where, attempts: number, token: () => string): ApiError {
  if (!result.answered) {
    return new ApiError({ ...where, code: result.code, detail: result.detail, noAnswer: true, notSent: result.notSent, attempts });
  }
  const { message, code } = serverError('text' in result ? result.text : '');
  return new ApiError({
    ...where,
    status: result.status,
    serverMessage: message === undefined ? undefined : scrub(message, token),
    code,
    maybeApplied: where.method === 'POST' && result.status >= 500,
    ...limitOf(result.status, result.headers),
    attempts,
  });
}

/**
 * The limit a 429 or 430 names (docs' api-limits page, axiom-go `parseLimit`): 429 is the request
 * rate of the user or the organization (X-RateLimit-Scope), per minute; 430 the query or ingest
 * limit (X-QueryLimit-*, X-IngestLimit-*), which is not retried: it lasts until its reset.
 */
function limitOf(status: number, headers: Record<string, string>): { limit?: string } {
  const resetText = (name: string): string => {
    const reset = parseNumber(headers[name]);
    return reset === undefined ? '' : ` until ${new Date(reset * 1000).toISOString()}`;
  };
  if (status === 429) {
    const scope = headers['x-ratelimit-scope'];
    const whose = scope === 'organization' ? "the organization's" : scope === 'user' ? "the user's" : 'the';
    return { limit: `${whose} request rate limit of ${headers['x-ratelimit-limit'] ?? '?'} per minute is used up${resetText('x-ratelimit-reset')}` };
  }
  if (status !== 430) return {};
  if (headers['x-querylimit-limit'] !== undefined) return { limit: `the query limit is used up${resetText('x-querylimit-reset')}; not retried` };
  if (headers['x-ingestlimit-limit'] !== undefined) return { limit: `the ingest limit is used up${resetText('x-ingestlimit-reset')}; not retried` };
  return { limit: 'a query or ingest limit is used up; not retried' };
}

/** `{code, message}` (the wire contract), or `{error}`, or the text itself when it is not JSON. */
function serverError(text: string): { message?: string; code?: string } {
  if (text.trim() === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      const message = [record.message, record.error].find((v): v is string => typeof v === 'string');
      const code = typeof record.code === 'string' ? record.code : undefined;
      return { message: message === undefined ? undefined : oneLine(message), code };
    }
  } catch {
    // Not JSON (a proxy's HTML page, plain text): keep a line of it.
  }
  return { message: oneLine(text) };
}

function noAnswerOf(err: unknown, timeoutMs: number, token: () => string): Attempt {
  if (err instanceof AttemptTimeout) {
    return { answered: false, code: 'ETIMEDOUT', detail: `no answer within ${timeoutMs} ms`, notSent: false };
  }
  const code = errorCode(err) ?? 'ENETWORK';
  const message = err instanceof Error ? err.message : String(err);
  return { answered: false, code, detail: scrub(oneLine(message), token), notSent: isConnectFailure(code) };
}

function errorCode(err: unknown): string | undefined {
  // undici wraps socket errors; the system code (ECONNRESET, ECONNREFUSED) is often on the cause.
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR_SOCKET')) return code;
    e = (e as { cause?: unknown }).cause;
  }
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Removes the bearer token from text that came from elsewhere (a server echoing a header). */
function scrub(text: string, token: () => string): string {
  let secret = '';
  try {
    secret = token();
  } catch {
    return text;
  }
  return createRedactor([secret])(text);
}

/** A server's text as one line of a message: whitespace collapsed, controls escaped, cut when long. */
function oneLine(text: string): string {
  const line = safeLine(text.replace(/\s+/g, ' ').trim());
  return line.length > MAX_SERVER_MESSAGE ? `${line.slice(0, MAX_SERVER_MESSAGE)}…` : line;
}

/** `datasets: [a, b]` becomes `datasets=a,b` (form style, not exploded), each value encoded. */
function queryString(query: ApiRequest['query']): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.map((v) => encodeURIComponent(String(v))).join(',') : encodeURIComponent(String(value));
    parts.push(`${encodeURIComponent(key)}=${text}`);
  }
  return parts.join('&');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegative(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** One attempt over the wire: the answer, or what undici threw (an AttemptTimeout past the timeout). */
async function send(
  via: { agent: ReturnType<typeof createAgent>; orgId?: string; timeoutMs: number },
  method: HttpMethod,
  url: string,
  body: string | undefined,
  token: string,
): Promise<Answered> {
  const { agent, timeoutMs } = via;
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    accept: 'application/json',
    'user-agent': userAgent(),
  };
  if (via.orgId) headers['x-axiom-org-id'] = via.orgId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
  try {
    const res = await httpRequest(agent, url, { method, headers, ...(body !== undefined ? { body } : {}), signal: controller.signal });
    const answer = { answered: true as const, status: res.statusCode, headers: flattenHeaders(res.headers) };
    if (res.statusCode >= 200 && res.statusCode < 300) return { ...answer, ...(await readJsonBody(res.body)) };
    return { ...answer, text: await res.body.text() };
  } catch (err) {
    if (controller.signal.aborted) throw new AttemptTimeout();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Milliseconds to wait before retrying, or undefined when this outcome must not be retried. */
function retryDelay(method: HttpMethod, result: Attempt, jittered: number, gone: boolean): number | undefined {
  if (!result.answered) {
    // undici refused to build the request (e.g. a header value it cannot send): no retry helps.
    if (result.code === 'UND_ERR_INVALID_ARG') return undefined;
    // A certificate does not change between attempts; a server gone is not retried into.
    if (isCertificateError(result.code) || gone) return undefined;
    // A POST that may have reached the server is never sent twice: apply re-lists instead.
    if (method === 'POST' && !result.notSent) return undefined;
    return jittered;
  }
  const now = Date.now();
  const retryAfter = parseRetryAfter(result.headers['retry-after'], now);
  if (result.status === 429) {
    // Refused unprocessed, so any method may go again once the server's window has passed.
    const reset = parseRateLimitReset(result.headers['x-ratelimit-reset'], now);
    if (retryAfter === undefined && reset === undefined) return jittered;
    return Math.max(retryAfter ?? 0, reset ?? 0);
  }
  if (result.status >= 500 && method !== 'POST') return Math.max(jittered, retryAfter ?? 0);
  return undefined;
}
