// Posts the daemon's notifications (a generic webhook, a Slack incoming webhook). One attempt each,
// bounded in time by undici's own timeouts and by the caller's signal: a notification is never
// worth holding anything up for, and the caller counts what was not delivered.
import { ConfigError } from './errors.js';
import { createAgent, httpRequest } from './http.js';
import { isLoopbackHost } from './url.js';
import { userAgent } from './user-agent.js';

export interface WebhookPost {
  url: string;
  body: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface WebhookSender {
  /** Resolves with the HTTP status; rejects on no answer (refused, timeout, aborted). */
  post(req: WebhookPost): Promise<number>;
  close(): Promise<void>;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;

export function createWebhookSender(opts: { timeoutMs?: number } = {}): WebhookSender {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const agent = createAgent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 2 });
  return {
    async post(req) {
      const res = await httpRequest(agent, req.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': userAgent(), ...req.headers },
        body: req.body,
        signal: req.signal,
      });
      // Drain, never read: the receiver's answer is not ours to keep.
      await res.body.dump();
      return res.statusCode;
    },
    close: () => agent.close(),
  };
}

/**
 * A notification target's URL: https, or plain http to loopback only unless insecure (a Slack
 * webhook URL is itself a secret, and a webhook body says what is failing). `what` names the
 * setting in errors; the URL itself is never quoted, it may be the secret.
 */
export function parseWebhookUrl(text: string, what: string, insecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(`${what}: not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${what}: only http:// and https:// are supported`);
  if (url.protocol === 'http:' && !insecure && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(`${what}: refusing plain http to ${url.host}; use https://, or --insecure if this network is trusted`);
  }
  return url;
}
