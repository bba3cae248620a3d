// Server-assigned identifiers in the service's style (docs/wire-contract.md "Conventions").
import { randomUUID } from 'node:crypto';
import type { Random } from './prng.js';

export type IdPrefix = 'notify' | 'mon' | 'ann' | 'role' | 'grp' | 'usr' | 'vfld' | 'sq' | 'tok' | 'dash';

function hex(random: Random, digits: number): string {
  let out = '';
  while (out.length < digits) out += Math.floor(random() * 0x10000).toString(16).padStart(4, '0');
  return out.slice(0, digits);
}

export class IdFactory {
  constructor(private readonly random: Random) {}

  /** `<prefix>_<16 hex>`, retried until `taken` says no (collisions are astronomically rare). */
  next(prefix: IdPrefix, taken: (id: string) => boolean): string {
    for (;;) {
      const id = `${prefix}_${hex(this.random, 16)}`;
      if (!taken(id)) return id;
    }
  }

  /** `org-<slug>-<6 hex>`, the slug made from the org's name. */
  nextOrg(name: string, taken: (id: string) => boolean): string {
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 32)
        .replace(/-+$/, '') || 'org';
    for (;;) {
      const id = `org-${slug}-${hex(this.random, 6)}`;
      if (!taken(id)) return id;
    }
  }
}

/** An API token secret. Not derived from the seed: a secret should not be guessable. */
export function newTokenSecret(): string {
  return `xaat-${randomUUID()}`;
}
