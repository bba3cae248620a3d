import { createHash } from 'node:crypto';

// Names the export derives from object names: file names and environment variable names. Both
// must be stable across runs (a second export is byte-identical) and safe for any input.

const MAX_SLUG = 64;

// Device names Windows refuses as file names, whatever the extension.
const RESERVED = new Set(['con', 'prn', 'aux', 'nul', ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((n) => [`com${n}`, `lpt${n}`])]);

/** Accented letters lose their accents; what is not ASCII afterwards is left to the caller's filter. */
function foldToAscii(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/** Lower-case ASCII letters, digits and single `-`; `unnamed` when nothing is left. */
export function slugify(text: string): string {
  const slug = foldToAscii(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug === '' ? 'unnamed' : slug;
}

export function shortHash(text: string, length = 6): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, length);
}

/** Upper-case ASCII letters, digits and single `_`; `UNNAMED` when nothing is left. */
export function envPart(text: string): string {
  const part = foldToAscii(text)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return part === '' ? 'UNNAMED' : part;
}

export interface FileNameRequest {
  /** Identity of the object the name is for (kind and exact key): what the hash is taken of. */
  identity: string;
  /** The exact natural key. */
  key: string;
}

/**
 * File base names (without extension) for objects of one folder. A name is the slug of the key,
 * plus a short hash of the exact key when the slug is not the key itself or when two objects would
 * share a name; the hash grows until every name is distinct. The result depends only on the set
 * of requests, not on their order.
 */
export function fileBaseNames(requests: readonly FileNameRequest[]): string[] {
  const slugs = requests.map((r) => slugify(r.key));
  // Per request: 0 for the bare slug, else the length of the hash suffix.
  const hashLength: number[] = requests.map((r, i) => (slugs[i] !== r.key || RESERVED.has(slugs[i] ?? '') ? 6 : 0));
  const nameOf = (i: number): string => {
    const slug = slugs[i] ?? 'unnamed';
    const length = hashLength[i] ?? 0;
    return length === 0 ? slug : `${slug}-${shortHash((requests[i] as FileNameRequest).identity, length)}`;
  };
  for (;;) {
    const names = requests.map((_, i) => nameOf(i));
    const counts = new Map<string, number>();
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    const clashing = names.map((name) => (counts.get(name) ?? 0) > 1);
    if (!clashing.includes(true)) return names;
    if (clashing.every((clash, i) => !clash || (hashLength[i] ?? 0) >= 64)) {
      // Only identical identities are left (cannot happen for distinct keys): number them in order.
      const seen = new Map<string, number>();
      return names.map((name) => {
        const n = (seen.get(name) ?? 0) + 1;
        seen.set(name, n);
        return n === 1 ? name : `${name}-${n}`;
      });
    }
    clashing.forEach((clash, i) => {
      if (clash) hashLength[i] = Math.min(64, (hashLength[i] ?? 0) + 6);
    });
  }
}
