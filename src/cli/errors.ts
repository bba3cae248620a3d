import { safeMessage } from '../core/safe-text.js';

/** A one-line message for any thrown value; never a stack trace, never a raw control character. */
export function errorMessage(err: unknown): string {
  return safeMessage(err instanceof Error ? err.message : String(err));
}
