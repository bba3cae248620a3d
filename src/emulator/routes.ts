// What a route is: a method, a path pattern, the capability the OpenAPI security entry names, and a
// handler that returns a Reply. Handlers are synchronous: the body is read before they run.
import type { Caller } from './auth.js';
import type { Capability } from './capabilities.js';
import type { Workspace } from './store.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export interface Reply {
  status: number;
  /** JSON text (or its UTF-8 bytes); absent for 204. */
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface RequestContext {
  method: Method;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  caller: Caller;
  workspace: Workspace;
  /** The request time, RFC 3339 with milliseconds. */
  now: string;
}

export interface Route {
  method: Method;
  /** e.g. `/v2/monitors/:id` */
  path: string;
  /** Absent where the OpenAPI security entry names none (any valid token will do). */
  capability?: Capability;
  handle(context: RequestContext): Reply;
}

export const json = (body: string | Buffer, status = 200): Reply => ({ status, body });
export const jsonOf = (value: unknown, status = 200): Reply => ({ status, body: JSON.stringify(value) });
export const noContent = (): Reply => ({ status: 204 });
