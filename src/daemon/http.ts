import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isControlAction, type ControlAction, type ControlAnswer } from './control.js';

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
  control(action: ControlAction, authorization: string | undefined): ControlAnswer;
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

async function handle(routes: Routes, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const action = path.slice(1);
  if (isControlAction(action)) {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      send(res, 405, 'text/plain; charset=utf-8', 'method not allowed: POST\n');
      return;
    }
    const answer = routes.control(action, req.headers.authorization);
    if (answer.status === 401) res.setHeader('www-authenticate', 'Bearer');
    sendJson(res, answer.status, answer.body);
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
      sendJson(res, 200, routes.statusJson());
      return;
    case '/':
      send(res, 200, 'text/html; charset=utf-8', routes.statusPage());
      return;
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
  // Probes and scrapes are short; keep idle sockets from holding shutdown up.
  server.keepAliveTimeout = 5000;
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
