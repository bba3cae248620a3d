// `wsync ctl`: the client of the daemon's own port (POST /suspend, /resume, /reconcile; GET /status).
import { ConfigError } from './errors.js';
import { createAgent, httpRequest } from './http.js';
import { isLoopbackHost, urlTextForMessage } from './url.js';
import { userAgent } from './user-agent.js';

export type ControlVerb = 'suspend' | 'resume' | 'reconcile' | 'status' | 'approve';

export interface ControlReply {
  status: number;
  body: Record<string, unknown>;
}

/** The daemon's base URL: http(s), and a token sent in plain http only to loopback unless insecure. */
export function parseDaemonUrl(text: string, insecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`daemon URL "${urlTextForMessage(text)}" is not a valid URL (expected e.g. http://127.0.0.1:9464)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`daemon URL "${urlTextForMessage(text)}": only http:// and https:// are supported`);
  if (url.protocol === 'http:' && !insecure && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      `refusing to send the control token in plain http to ${url.host}: run wsync ctl where the daemon runs (kubectl exec), through kubectl port-forward, or pass --insecure`,
    );
  }
  return url;
}

/** One request to the daemon; `argument` is the path segment after the verb (`approve/FINGERPRINT`). */
export async function callDaemon(
  base: URL,
  verb: ControlVerb,
  token: string | undefined,
  timeoutMs: number,
  request: { argument?: string; overrideFreeze?: boolean; env?: string } = {},
): Promise<ControlReply> {
  const path = request.argument === undefined ? verb : `${verb}/${encodeURIComponent(request.argument)}`;
  const url = new URL(path, base.href.endsWith('/') ? base.href : `${base.href}/`);
  if (request.overrideFreeze === true) url.searchParams.set('override-freeze', '1');
  if (request.env !== undefined && verb !== 'status') url.searchParams.set('env', request.env);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent() };
  // Status too: a daemon started with --status-auth asks for it there.
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  // One request, so its own connection, closed after it (a shared agent would hold the process open).
  const agent = createAgent({ connections: 1 });
  const { status, text } = await httpRequest(agent, url, {
    method: verb === 'status' ? 'GET' : 'POST',
    headers,
    signal: AbortSignal.timeout(timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  })
    .then(async (res) => ({ status: res.statusCode, text: await res.body.text() }))
    .finally(() => agent.destroy());
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    body = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { answer: parsed };
  } catch {
    body = { error: `not a wsync daemon answer (HTTP ${status})` };
  }
  return { status, body };
}
