// Bearer authentication: who is calling. What the caller may do is in capabilities.ts.
import { ADMIN_USER } from './constants.js';
import { unauthorized } from './errors.js';
import type { Stored } from './collection.js';
import type { Workspace } from './store.js';

export interface Caller {
  userId: string;
  email: string;
  name: string;
  /** The API token used, or undefined for the admin token. */
  token: Stored | undefined;
}

export function isTokenExpired(token: Stored, nowMs: number): boolean {
  const expiresAt = token.expiresAt;
  return typeof expiresAt === 'string' && Date.parse(expiresAt) <= nowMs;
}

export function authenticate(
  header: string | undefined,
  workspace: Workspace,
  adminToken: string,
  nowMs: number,
): Caller {
  if (!header) throw unauthorized('missing Authorization header: send "Authorization: Bearer <token>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthorized('malformed Authorization header: expected "Bearer <token>"');
  const secret = match[1];
  const base = { userId: ADMIN_USER.id, email: ADMIN_USER.email, name: ADMIN_USER.name };
  if (secret === adminToken) return { ...base, token: undefined };
  const tokenId = workspace.tokenIdsBySecret.get(secret);
  const token = tokenId === undefined ? undefined : workspace.tokens.get(tokenId);
  if (!token) throw unauthorized('unknown API token: it was never issued here or has been deleted');
  if (isTokenExpired(token, nowMs)) throw unauthorized(`API token "${String(token.name)}" has expired`);
  return { ...base, token };
}
