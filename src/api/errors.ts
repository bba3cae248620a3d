import { connectFailureText } from './reachability.js';
import type { HttpMethod } from './types.js';

export interface ApiErrorInit {
  method: HttpMethod;
  /** Request path without the query string, e.g. `/v2/monitors`. */
  path: string;
  /** Query string (without `?`) shown in the message so a per-dataset error names its dataset. */
  query?: string;
  status?: number;
  serverMessage?: string;
  code?: string;
  /** Low-level reason when no answer came (e.g. `socket hang up`); never holds request data. */
  detail?: string;
  noAnswer?: boolean;
  /** The connection could not be made (refused, no such host, certificate): nothing was sent. */
  notSent?: boolean;
  /** Why the request was not even tried (the server is gone): nothing was sent. */
  notAttempted?: string;
  maybeApplied?: boolean;
  /** Which limit a 429 or 430 hit, from the answer's limit headers (docs' api-limits page). */
  limit?: string;
  attempts: number;
}

/**
 * The one error the API client throws. Its message names the method, path, status and the
 * server's message; it never carries the bearer token, headers or the request body.
 */
export class ApiError extends Error {
  readonly status?: number;
  readonly method: HttpMethod;
  readonly path: string;
  readonly serverMessage?: string;
  /** The server's error code when it sent a string one, else the network error code (`ECONNRESET`, `ETIMEDOUT`). */
  readonly code?: string;
  /** No HTTP answer came (timeout, reset, socket closed): for a POST, the server may or may not have acted. */
  readonly noAnswer: boolean;
  /** Nothing of the request reached the server (it could not connect, or did not try): safe to send again. */
  readonly notSent: boolean;
  /** A POST answered 5xx: the server may have applied it before failing, so it was not retried. */
  readonly maybeApplied: boolean;
  /** HTTP attempts made for this request, retries included. */
  readonly attempts: number;

  constructor(init: ApiErrorInit) {
    super(apiErrorMessage(init));
    this.name = 'ApiError';
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serverMessage = init.serverMessage;
    this.code = init.code;
    this.noAnswer = init.noAnswer ?? false;
    this.notSent = init.notSent ?? false;
    this.maybeApplied = init.maybeApplied ?? false;
    this.attempts = init.attempts;
  }
}

function apiErrorMessage(init: ApiErrorInit): string {
  const where = `${init.method} ${init.path}${init.query ? `?${init.query}` : ''}`;
  let text: string;
  if (init.notAttempted !== undefined) {
    return `${where}: not attempted: ${init.notAttempted}; nothing was sent`;
  } else if (init.status === undefined) {
    const why = [init.code, init.detail].filter((s) => s !== undefined && s !== '').join(': ');
    if (init.notSent && init.code !== undefined) {
      text = `${where}: ${connectFailureText(init.code)}${why ? ` (${why})` : ''}: nothing was sent`;
    } else {
      text = `${where}: no answer${why ? ` (${why})` : ''}`;
      if (init.method === 'POST') text += '; the server may or may not have applied it';
    }
  } else {
    // Taken when needed: node:http is start-up time for every command that imports ConfigError.
    const reason = process.getBuiltinModule('node:http').STATUS_CODES[init.status];
    text = `${where}: ${init.status}${reason ? ` ${reason}` : ''}`;
    if (init.serverMessage) text += `: ${init.serverMessage}`;
    if (init.limit) text += ` (${init.limit})`;
    if (init.maybeApplied) text += ' (not retried: the server may have applied it)';
  }
  if (init.attempts > 1) text += ` (after ${init.attempts} attempts)`;
  return text;
}

/** Bad connection settings (missing URL or token, plain http to a remote host, unreadable token file). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
