// The bearer token the client sends, as a function: a token file is read again when it changes.
import { readFileSync, statSync } from 'node:fs';
import { registerOwnCredential } from '../core/own-credentials.js';
import { ConfigError } from './errors.js';

/**
 * A credential wsync itself uses (`what` names it: "the API token"): recorded, so that no `${env:}`
 * or `${file:}` of the tree can copy it into an object (src/core/own-credentials.ts).
 */
export function ownCredential(what: string, read: () => string, path?: string): () => string {
  registerOwnCredential(path === undefined ? { what, value: read } : { what, path, value: read });
  return read;
}

/** A token given as a value. */
export function constantToken(token: string): () => string {
  if (token === '') throw new ConfigError('the API token is empty');
  return () => token;
}

/**
 * Reads the token now (so a bad path fails at start) and again whenever the file changes, so a
 * rotated token takes effect without a restart. A file caught mid-rotation (missing or empty)
 * keeps the last good token. `source` names where the path came from, for the error message.
 */
export function tokenFileReader(path: string, source: string): () => string {
  const read = (): { token: string; stamp: string } => {
    const stat = statSync(path);
    return { token: readFileSync(path, 'utf8').trim(), stamp: `${stat.mtimeMs}:${stat.size}:${stat.ino}` };
  };
  let current: { token: string; stamp: string };
  try {
    current = read();
  } catch (err) {
    const reason = (err as { code?: unknown }).code === 'ENOENT' ? 'no such file' : 'cannot be read';
    throw new ConfigError(`token file ${path} (${source}): ${reason}`);
  }
  if (current.token === '') throw new ConfigError(`token file ${path} (${source}) is empty`);
  return () => {
    try {
      const stat = statSync(path);
      const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      if (stamp !== current.stamp) {
        const next = read();
        if (next.token !== '') current = next;
      }
    } catch {
      // Keep the last good token; the next request looks again.
    }
    return current.token;
  };
}
