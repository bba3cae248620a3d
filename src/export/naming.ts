import { createHash } from 'node:crypto';
import { compareText } from '../core/json.js';
import { forbiddenNameCharacter } from '../core/names.js';
import type { JsonObject } from '../core/types.js';
import type { KindModule } from '../kinds/types.js';

// Names the export derives from object names: file names, environment variable names, the names
// of duplicates, and whether a live name can be a metadata.name at all. File and variable names
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

/** The longest metadata.name the schema allows. */
const MAX_NAME = 256;

/** The name a second (third, ...) object with an already-taken key is written under. */
function duplicateName(module: KindModule, name: string, id: string): string {
  return module.duplicateName?.(name, id) ?? `${name} (duplicate ${id})`;
}

export interface Named {
  id: string;
  name: string;
  key: string;
}

/**
 * Objects sharing a key: the first by id keeps its name, the others get a changed name and a
 * warning. Returns id -> final name for the renamed ones.
 */
export function dedupe(module: KindModule, items: readonly Named[], spec: (id: string) => JsonObject, warnings: string[]): Map<string, string> {
  const groups = new Map<string, Named[]>();
  for (const item of items) groups.set(item.key, [...(groups.get(item.key) ?? []), item]);
  const renamed = new Map<string, string>();
  const taken = new Set(items.map((item) => item.key));
  for (const [key, group] of [...groups].sort(([a], [b]) => compareText(a, b))) {
    if (group.length < 2) continue;
    const [first, ...rest] = [...group].sort((a, b) => compareText(a.id, b.id)) as [Named, ...Named[]];
    const names: string[] = [];
    for (const other of rest) {
      let name = duplicateName(module, other.name, other.id);
      // A key the name does not make (an untitled annotation's) cannot be told apart by renaming.
      if (module.keyOf(name, spec(other.id)) === key) {
        names.push(`id ${other.id} as is (its key does not depend on its name)`);
        continue;
      }
      while (taken.has(module.keyOf(name, spec(other.id)))) name = `${name}'`;
      taken.add(module.keyOf(name, spec(other.id)));
      renamed.set(other.id, name);
      names.push(`id ${other.id} as "${name}"`);
    }
    warnings.push(
      `${module.kind} "${key}": ${group.length} live objects share this key; id ${first.id} is exported as is, ` +
        `${names.join(', ')}. Rename or delete the duplicates in the workspace by hand, then export again ` +
        `(until then, plan treats the key as ambiguous and the renamed files as new objects).`,
    );
  }
  return renamed;
}

export function checkName(module: KindModule, id: string, name: string, warnings: string[]): boolean {
  // The schema's metadata.name: 1..256 characters, no control, bidi or invisible characters.
  const forbidden = forbiddenNameCharacter(name);
  if (name.length >= 1 && name.length <= MAX_NAME && forbidden === undefined) return true;
  warnings.push(
    `${module.kind} id ${id}: skipped, its name cannot be a metadata.name (1 to ${MAX_NAME} characters, ` +
      `${forbidden === undefined ? 'no control, bidi or invisible characters' : `it holds ${forbidden}`}); manage it in the workspace by hand`,
  );
  return false;
}
