import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isControlAction, type ControlAction, type ControlAnswer, type ControlRequestOptions } from './control.js';

export interface ListenAddress {
  host: string;
  port: number;
}

/** `127.0.0.1:9464`, `0.0.0.0:0`, `[::1]:9464`, `:9464` (all interfaces) or a bare port. */
export function parseListen(text: string): ListenAddress {
  const trimmed = text.trim();
  let host: string;
  let portText: string;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(trimmed);
  if (v6) {
    host = v6[1] as string;
    portText = v6[2] as string;
  } else if (/^\d+$/.test(trimmed)) {
    host = '127.0.0.1';
    portText = trimmed;
  } else {
    const i = trimmed.lastIndexOf(':');
    if (i < 0) throw new Error(`--listen: expected HOST:PORT, got "${text}"`);
    host = trimmed.slice(0, i) || '0.0.0.0';
    portText = trimmed.slice(i + 1);
  }
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`--listen: "${portText}" is not a port number (0-65535)`);
  return { host, port };
}

export interface Routes {
  healthz(): { ok: boolean; body: string };
  readyz(): { ok: boolean; body: string };
  metrics(): Promise<{ contentType: string; body: string }>;
  statusPage(): string;
  /** GET /status: what `wsync ctl status` shows, as JSON. */
  statusJson(): Record<string, unknown>;
  /** POST /suspend, /resume, /reconcile. */
  control(action: ControlAction, authorization: string | undefined, request?: ControlRequestOptions): ControlAnswer;
  /** POST /approve/FINGERPRINT (`wsync ctl approve`). */
  approve?(fingerprint: string, authorization: string | undefined, request?: ControlRequestOptions): ControlAnswer;
  /** The refusal of a request for the status page or /status (--status-auth); undefined: served. */
  refuseStatus?(authorization: string | undefined): ControlAnswer | undefined;
}

export interface HttpServer {
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  send(res, status, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`);
}

/** No route reads a body (control requests carry none); a few bytes (`curl -d ''`) are let through. */
export const MAX_REQUEST_BODY_BYTES = 1024;
/** Whole request (headers and body) and headers alone: probes, scrapes and control requests are small. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const HEADERS_TIMEOUT_MS = 5_000;

/**
 * Why the request's body is refused before anything else is looked at, or undefined. A body is
 * never read: a request that has one is answered and its connection closed, so the server never
 * drains what a client keeps sending (Node reads the rest of a kept-alive request's body otherwise).
 */
function refusedBody(req: IncomingMessage, res: ServerResponse): boolean {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) return false;
  res.setHeader('connection', 'close');
  if (chunked) {
    send(res, 411, 'text/plain; charset=utf-8', 'a request body must give its length (Content-Length); the daemon reads none\n');
    return true;
  }
  if (!/^\d+$/.test(length ?? '') || Number(length) > MAX_REQUEST_BODY_BYTES) {
    send(res, 413, 'text/plain; charset=utf-8', `request bodies are not read: at most ${MAX_REQUEST_BODY_BYTES} bytes are accepted\n`);
    return true;
  }
  return false;
}

/** A path segment as sent; one that does not decode stays as it is (and is then no fingerprint). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function sendAnswer(res: ServerResponse, answer: ControlAnswer): void {
  if (answer.status === 401) res.setHeader('www-authenticate', 'Bearer');
  // Not authorised: the connection ends with the answer, nothing more of the request is read.
  if (answer.status !== 200) res.setHeader('connection', 'close');
  sendJson(res, answer.status, answer.body);
}

async function handle(routes: Routes, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const action = path.slice(1);
  if (refusedBody(req, res)) return;
  const approval = routes.approve ? /^approve\/([^/]{1,64})$/.exec(action)?.[1] : undefined;
  if (isControlAction(action) || approval !== undefined) {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      send(res, 405, 'text/plain; charset=utf-8', 'method not allowed: POST\n');
      return;
    }
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const request: ControlRequestOptions = query.get('override-freeze') === '1' ? { overrideFreeze: true } : {};
    const env = query.get('env');
    if (env !== null) request.env = env;
    sendAnswer(res, approval === undefined ? routes.control(action as ControlAction, req.headers.authorization, request) : routes.approve?.(safeDecode(approval), req.headers.authorization, request) ?? { status: 404, body: { error: 'not found' } });
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    return;
  }
  switch (path) {
    case '/healthz': {
      const r = routes.healthz();
      send(res, r.ok ? 200 : 503, 'text/plain; charset=utf-8', r.body);
      return;
    }
    case '/readyz': {
      const r = routes.readyz();
      send(res, r.ok ? 200 : 503, 'text/plain; charset=utf-8', r.body);
      return;
    }
    case '/metrics': {
      const m = await routes.metrics();
      send(res, 200, m.contentType, m.body);
      return;
    }
    case '/status':
    case '/': {
      const refused = routes.refuseStatus?.(req.headers.authorization);
      if (refused) sendAnswer(res, refused);
      else if (path === '/status') sendJson(res, 200, routes.statusJson());
      else send(res, 200, 'text/html; charset=utf-8', routes.statusPage());
      return;
    }
    default:
      send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  }
}

function formatUrl(addr: AddressInfo): string {
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${host}:${addr.port}`;
}

/** The daemon's one port: /healthz, /readyz, /metrics, the status page (and /status as JSON), the control endpoints. */
export async function startHttpServer(listen: ListenAddress, routes: Routes): Promise<HttpServer> {
  const server: Server = createServer((req, res) => {
    handle(routes, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.destroy();
    });
  });
  // Probes and scrapes are short; keep idle sockets from holding shutdown up, and slow clients from
  // holding sockets at all.
  server.keepAliveTimeout = 5000;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = formatUrl(server.address() as AddressInfo);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
