import { createHmac } from 'node:crypto';

/**
 * Keyed hash of a secret value, as recorded in the inventory and compared by the planner.
 * Keyed (HMAC-SHA256) so that the inventory file alone does not allow guessing short secrets.
 */
export function hashSecret(key: string, value: string): string {
  return `hmac-sha256:${createHmac('sha256', key).update(value, 'utf8').digest('hex')}`;
}

/**
 * Recorded in place of a hash by `export --adopt` for a secret the API does not return (PagerDuty
 * blanks it): the value the user sets for the exported variable is trusted as the one in use, and
 * the first apply records its real hash without writing it.
 */
export const TRUST_ON_FIRST_USE = 'trust-on-first-use';
