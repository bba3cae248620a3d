import { isIP } from 'node:net';
import { ConfigError } from './errors.js';

/** localhost, 127.0.0.0/8 and ::1: where plain http cannot be read by anyone else on the network. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) {
    if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    return mapped !== null && mapped[1] !== undefined && mapped[1].startsWith('127.');
  }
  return false;
}

/**
 * A URL as given, for an error message, without what may be a credential in it: the user info
 * (`user:token@`), the query and the fragment. The text may not parse, so this works on the text.
 */
export function urlTextForMessage(text: string): string {
  const withoutUser = text.replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1***@');
  const cut = withoutUser.search(/[?#]/);
  const shown = cut < 0 ? withoutUser : `${withoutUser.slice(0, cut)}?***`;
  return shown.length > 200 ? `${shown.slice(0, 200)}...` : shown;
}

/** Parses and checks the API root: http(s) only, and plain http only to loopback unless insecure. */
export function parseApiUrl(text: string, insecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`API URL "${urlTextForMessage(text)}" is not a valid URL (expected e.g. https://api.axiom.co)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`API URL "${urlTextForMessage(text)}": only http:// and https:// are supported`);
  }
  if (url.username || url.password) {
    throw new ConfigError('API URL must not hold credentials: pass the token with --token, --token-file or WSYNC_TOKEN');
  }
  if (url.search || url.hash) {
    throw new ConfigError(`API URL "${url.origin}${url.pathname}" must not have a query string or fragment`);
  }
  if (url.protocol === 'http:' && !insecure && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      `refusing plain http to ${url.host}: the API token would cross the network unencrypted. ` +
        'Use https://, or pass --insecure (WSYNC_INSECURE=1) if this network is trusted',
    );
  }
  return url;
}
