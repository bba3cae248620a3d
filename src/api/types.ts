import type { JsonValue } from '../core/types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRequest {
  method: HttpMethod;
  /** Path from the API root, starting with `/v2/`. */
  path: string;
  query?: Record<string, string | number | readonly string[]>;
  body?: JsonValue;
  /** A POST that changes nothing (a query): retried like a GET, since sending it twice does no harm. */
  readOnly?: boolean;
}

export interface ApiResponse<T = JsonValue> {
  status: number;
  /** Parsed JSON body; `null` for an empty body (204). */
  body: T;
  headers: Record<string, string>;
}

export interface ApiStats {
  /** Every HTTP attempt, retries included. */
  requests: number;
  /** Attempts by `METHOD STATUS` (status `0` when no answer came), e.g. `GET 200`. */
  byMethodStatus: Record<string, number>;
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
}

export interface ApiClient {
  /**
   * Sends one logical request: retries GET, PUT and DELETE on 429, 5xx and network errors with
   * backoff; a POST is retried only on 429 (the server refused it unprocessed). Throws ApiError.
   */
  request<T = JsonValue>(req: ApiRequest): Promise<ApiResponse<T>>;
  readonly stats: ApiStats;
  /**
   * Why the server is taken to be gone (a run of refused connections, no such host), or undefined:
   * while it is, requests fail at once without sending anything (one is tried every few seconds).
   */
  readonly unreachable?: string | undefined;
  /** Called for every HTTP attempt (metrics hook). */
  onAttempt?: (method: HttpMethod, status: number) => void;
  close(): Promise<void>;
}

export interface ConnectionConfig {
  /** API root, e.g. `https://api.axiom.co` or `http://127.0.0.1:8080`; requests add `/v2/...`. */
  url: string;
  /** Returns the current bearer token; re-read per request so a rotated token file takes effect. */
  token: () => string;
  orgId?: string;
  /** Allow plain http to a non-loopback host. */
  insecure?: boolean;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs?: number;
  /** Retry budget per logical request. */
  maxRetries?: number;
  /** Concurrent requests at most (the client queues the rest). */
  maxConcurrency?: number;
  /** Backoff before retry n is random in [0, min(retryCapMs, retryBaseMs * 2^(n-1))]. Default 200. */
  retryBaseMs?: number;
  /** Upper bound of one backoff delay. Default 10 000. */
  retryCapMs?: number;
  /**
   * Time budget of one logical request, retries and their waits included: a retry that would start
   * after it is not made (the last error is thrown instead). Default 60 000.
   */
  retryBudgetMs?: number;
}
