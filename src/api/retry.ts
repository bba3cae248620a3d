// Retry timing: exponential backoff with full jitter, and the server's own hints (Retry-After,
// X-RateLimit-Reset) when it gives them.

export interface BackoffSettings {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 200, capMs: 10_000 };

/**
 * Delay before retry number `retry` (1 for the first retry): uniformly random in
 * [0, min(cap, base * 2^(retry-1))] ("full jitter"), so clients that failed together spread out.
 */
export function backoffDelay(retry: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.capMs, settings.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After as milliseconds from `nowMs`: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // An HTTP date names a weekday and month; anything else (a negative number) is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * X-RateLimit-Reset as milliseconds from `nowMs`. Epoch seconds (what the wire contract says);
 * a small number is read as seconds from now, which some servers send instead.
 */
export function parseRateLimitReset(value: string | undefined, nowMs: number): number | undefined {
  const seconds = parseNumber(value);
  if (seconds === undefined || seconds < 0) return undefined;
  if (seconds > 1e9) return Math.max(0, seconds * 1000 - nowMs);
  return Math.ceil(seconds * 1000);
}

export function parseNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}
