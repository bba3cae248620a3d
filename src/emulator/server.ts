// The request pipeline: log -> rate limit -> injected reset / latency / 5xx -> route -> body ->
// auth -> capability -> handler -> (maybe drop the connection after a write) -> answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate } from './auth.js';
import { requireCapability } from './capabilities.js';
import { handleControl, type ControlDeps } from './control.js';
import { ApiError } from './errors.js';
import type { RateScope } from './rate-limit.js';
import type { Reply } from './routes.js';
import type { Router } from './router.js';
import type { AddOns } from './store.js';

export interface PipelineDeps extends ControlDeps {
  router: Router;
  logRequests: boolean;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);
const RATE_LIMITED_BODY = JSON.stringify({ code: 429, message: 'rate limit exceeded' });

export function createRequestHandler(deps: PipelineDeps): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    handle(deps, request, response).catch((error: unknown) => {
      // Only a failure to answer at all lands here (e.g. the socket vanished mid-write).
      if (!response.headersSent) send(response, errorReply(error), {});
      else response.destroy();
    });
  };
}

async function handle(deps: PipelineDeps, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = request.method ?? 'GET';
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const pathname = queryStart < 0 ? url : url.slice(0, queryStart);

  if (pathname === '/_emulator' || pathname.startsWith('/_emulator/')) {
    let reply: Reply;
    try {
      const body = WRITE_METHODS.has(method) ? await readJsonBody(request) : undefined;
      reply = handleControl(deps, method, pathname, request.headers.authorization, body);
    } catch (error) {
      reply = errorReply(error);
    }
    send(response, reply, {});
    return;
  }

  const started = performance.now();
  const now = new Date();
  const entry = deps.log.record(method, url, now.toISOString());
  const rate = deps.limiter.take(now.getTime(), rateScopeOf(request.headers.authorization, deps.adminToken));
  const rateHeaders = {
    'x-ratelimit-scope': rate.scope,
    'x-ratelimit-limit': String(rate.limit),
    'x-ratelimit-remaining': String(rate.remaining),
    'x-ratelimit-reset': String(rate.reset),
  };
  const { faults } = deps;

  if (faults.shouldReset()) {
    destroy(deps, request, entry, started);
    return;
  }
  const delay = faults.latency();
  if (delay > 0) await sleep(delay);

  let reply: Reply;
  if (!rate.allowed) {
    const retryAfter = Math.max(1, rate.reset - Math.floor(now.getTime() / 1000));
    reply = { status: 429, body: RATE_LIMITED_BODY, headers: { 'retry-after': String(retryAfter) } };
  } else {
    const injected = faults.injectedStatus();
    if (injected !== undefined) {
      reply = errorReply(new ApiError(injected, `injected fault (--fault-rate ${faults.settings.faultRate})`));
    } else {
      try {
        reply = await dispatch(deps, request, method, pathname, url, queryStart, now);
      } catch (error) {
        reply = errorReply(error);
      }
    }
  }

  if (WRITE_METHODS.has(method) && reply.status < 300 && faults.shouldDropAfterWrite()) {
    // The write is applied; the client never hears so. Naive clients retry and duplicate.
    destroy(deps, request, entry, started);
    return;
  }
  entry.status = reply.status;
  send(response, reply, rateHeaders);
  if (deps.logRequests) logLine(method, url, reply.status, started);
}

async function dispatch(
  deps: PipelineDeps,
  request: IncomingMessage,
  method: string,
  pathname: string,
  url: string,
  queryStart: number,
  now: Date,
): Promise<Reply> {
  const match = deps.router.match(method, pathname);
  if (match.kind === 'not-found') throw new ApiError(404, `no such endpoint: ${method} ${pathname}`);
  if (match.kind === 'wrong-method') {
    return {
      ...errorReply(new ApiError(405, `${method} is not allowed on ${pathname}; use ${match.allow.join(' or ')}`)),
      headers: { allow: match.allow.join(', ') },
    };
  }
  const body = WRITE_METHODS.has(method) ? await readJsonBody(request) : undefined;
  const caller = authenticate(request.headers.authorization, deps.workspace, deps.adminToken, now.getTime());
  const { route, params } = match;
  refuseMissingAddOn(deps.workspace.addOns, method, pathname);
  if (route.capability) requireCapability(caller, route.capability);
  return route.handle({
    method: route.method,
    params,
    query: new URLSearchParams(queryStart < 0 ? '' : url.slice(queryStart + 1)),
    body,
    caller,
    workspace: deps.workspace,
    now: now.toISOString(),
  });
}

/** A workspace without RBAC answers every /v2/rbac/* path 403 (or 404), whatever the token. */
function refuseMissingAddOn(addOns: AddOns, method: string, pathname: string): void {
  if (addOns.rbac || !pathname.startsWith('/v2/rbac/')) return;
  const why = 'RBAC (role-based access control) is not available on this workspace: it is an add-on';
  throw new ApiError(addOns.rbacStatus, addOns.rbacStatus === 404 ? `no such endpoint: ${method} ${pathname} (${why})` : why);
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks, size).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(400, `request body is not valid JSON: ${(error as Error).message}`);
  }
}

function errorReply(error: unknown): Reply {
  if (error instanceof ApiError) {
    return { status: error.status, body: JSON.stringify({ ...error.details, code: error.status, message: error.message }) };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, body: JSON.stringify({ code: 500, message: `internal emulator error: ${message}` }) };
}

function send(response: ServerResponse, reply: Reply, baseHeaders: Record<string, string>): void {
  const headers: Record<string, string | number> = { ...baseHeaders, ...reply.headers };
  if (reply.body !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.length;
  }
  response.writeHead(reply.status, headers);
  response.end(reply.body);
}

function destroy(deps: PipelineDeps, request: IncomingMessage, entry: { status: number }, started: number): void {
  entry.status = 0;
  request.socket.destroy();
  if (deps.logRequests) logLine(request.method ?? 'GET', request.url ?? '/', 0, started);
}

function logLine(method: string, url: string, status: number, started: number): void {
  const ms = (performance.now() - started).toFixed(1);
  process.stderr.write(`${method} ${url} ${status === 0 ? 'connection destroyed' : status} ${ms}ms\n`);
}

/**
 * Whose limit a request counts against: the admin token stands for a user's personal token, every
 * API token for the organization (docs' api-limits: X-RateLimit-Scope is `user` or `organization`).
 */
function rateScopeOf(authorization: string | undefined, adminToken: string): RateScope {
  const secret = authorization?.replace(/^Bearer\s+/i, '').trim();
  return secret === undefined || secret === adminToken ? 'user' : 'organization';
}
