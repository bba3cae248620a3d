import { safeMessage } from '../core/safe-text.js';

/**
 * The message of any thrown value; never a stack trace, never a raw control character. Its lines
 * stay lines (several refusals of wsync.yaml are one per line), each made safe on its own.
 */
export function errorMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n').map(safeMessage).join('\n');
}
