// POST /suspend, /resume and /reconcile: off unless a control token is configured, and then only
// with that token. Loopback alone is not trusted: in a pod, every container shares it.
import { createHash, timingSafeEqual } from 'node:crypto';

export const CONTROL_ACTIONS = ['suspend', 'resume', 'reconcile'] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

export function isControlAction(name: string): name is ControlAction {
  return (CONTROL_ACTIONS as readonly string[]).includes(name);
}

export interface ControlAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** What a control request asks besides its action (`POST /reconcile?override-freeze=1`). */
export interface ControlRequestOptions {
  overrideFreeze?: boolean;
  /** `?env=NAME`: which workspace of a daemon that syncs several (wsync ctl --env). */
  env?: string;
}

export interface ControlOptions {
  /** The expected token, read at each request (a rotated file takes effect); null: control is off. */
  token: (() => string) | null;
  act: (action: ControlAction, request: ControlRequestOptions) => Record<string, unknown>;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether `authorization` is `Bearer <expected>`. Both sides are hashed first, so the comparison
 * always runs over 32 bytes in constant time whatever the lengths: neither the token's length nor
 * its first differing byte shows in the time an answer takes.
 */
export function bearerMatches(authorization: string | undefined, expected: string): boolean {
  const presented = /^Bearer ([^\s]+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  const same = timingSafeEqual(digest(presented), digest(expected));
  return same && expected !== '' && presented !== '';
}

/** The refusal of a request that does not bear the control token; undefined when it does. */
export function refuseWithoutToken(token: (() => string) | null, authorization: string | undefined): ControlAnswer | undefined {
  if (token === null) {
    return { status: 403, body: { error: 'control endpoints are off: start wsync run with --control-token-file (or WSYNC_CONTROL_TOKEN)' } };
  }
  let expected: string;
  try {
    expected = token();
  } catch {
    return { status: 503, body: { error: 'the control token cannot be read' } };
  }
  if (!bearerMatches(authorization, expected)) return { status: 401, body: { error: 'a valid control token is required (Authorization: Bearer TOKEN)' } };
  return undefined;
}

export function handleControl(opts: ControlOptions, action: ControlAction, authorization: string | undefined, request: ControlRequestOptions = {}): ControlAnswer {
  return refuseWithoutToken(opts.token, authorization) ?? { status: 200, body: opts.act(action, request) };
}
