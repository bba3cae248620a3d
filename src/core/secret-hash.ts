import { createHmac } from 'node:crypto';

/**
 * Keyed hash of a secret value, as recorded in the inventory and compared by the planner.
 * Keyed (HMAC-SHA256) so that the inventory file alone does not allow guessing short secrets.
 */
export function hashSecret(key: string, value: string): string {
  return `hmac-sha256:${createHmac('sha256', key).update(value, 'utf8').digest('hex')}`;
}
