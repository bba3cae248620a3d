// A tiny node:http server whose answers a test scripts one by one, to drive the client through
// exact sequences (429 then 200, reset on POST, ...). Not a mock of the client: real HTTP on 127.0.0.1.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  remotePort: number | undefined;
}

export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Destroy the connection instead of answering. */
  destroy?: boolean;
  /** Wait before answering (or destroying). */
  delayMs?: number;
}

export interface ScriptServer {
  url: string;
  seen: Seen[];
  /** Most requests in progress at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startScriptServer(
  script: (request: Seen, index: number) => Scripted | Promise<Scripted>,
): Promise<ScriptServer> {
  const seen: Seen[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      const request: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        remotePort: req.socket.remotePort,
      };
      const index = seen.push(request) - 1;
      void (async () => {
        const reply = await script(request, index);
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        inFlight--;
        if (reply.destroy) {
          req.socket.destroy();
          return;
        }
        answer(res, reply);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, reply: Scripted): void {
  const status = reply.status ?? 200;
  const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const headers: Record<string, string | number> = { ...reply.headers };
  if (text !== '') headers['content-type'] = 'application/json';
  headers['content-length'] = Buffer.byteLength(text);
  if (res.destroyed) return;
  res.writeHead(status, headers);
  res.end(text);
}
