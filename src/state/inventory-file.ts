import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isJsonObject, jsonEqual } from '../core/json.js';
import type { Inventory, InventoryEntry, JsonObject } from '../core/types.js';
import { isKindName } from '../kinds/index.js';

export const INVENTORY_FILE = 'inventory.json';
export const HASH_KEY_FILE = 'hash.key';
export const WRITER_ID_FILE = 'writer-id';

const INVENTORY_HINT =
  'The inventory records which objects wsync owns; fix or restore the file ' +
  '(deleting it makes wsync forget what it owns, so nothing would be pruned)';

const HASH_KEY_HINT =
  'It is the key of the secret hashes in the inventory; restore it from a backup, or delete it: a new key ' +
  'is then made, and the next apply writes every secret value once more (it can no longer tell which changed)';

/** A file of the state directory cannot be used. Never reset it silently: that would orphan owned objects. */
export class InventoryFileError extends Error {
  constructor(
    readonly file: string,
    detail: string,
    hint: string = INVENTORY_HINT,
  ) {
    super(`${file}: ${detail}. ${hint}`);
    this.name = 'InventoryFileError';
  }
}

function compareEntries(a: InventoryEntry, b: InventoryEntry): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function canonicalEntry(entry: InventoryEntry): InventoryEntry {
  const out: InventoryEntry = { kind: entry.kind, key: entry.key, id: entry.id };
  const hashes = entry.secretHashes && sortedHashes(entry.secretHashes);
  if (hashes) out.secretHashes = hashes;
  if (entry.pruneDisabled) out.pruneDisabled = true;
  if (entry.retiredUntil !== undefined) out.retiredUntil = entry.retiredUntil;
  return out;
}

/** Secret hashes by pointer in order; undefined for none (the file then has no member for them). */
function sortedHashes(hashes: Record<string, string>): Record<string, string> | undefined {
  const entries = Object.entries(hashes);
  return entries.length === 0 ? undefined : Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The same record: what the file would say of the two is the same. */
export function sameEntry(a: InventoryEntry, b: InventoryEntry): boolean {
  return jsonEqual(canonicalEntry(a) as unknown as JsonObject, canonicalEntry(b) as unknown as JsonObject);
}

export function sortEntries(entries: readonly InventoryEntry[]): InventoryEntry[] {
  return entries.map(canonicalEntry).sort(compareEntries);
}

/**
 * The file's text, an entry at a time: stable order, one field a line, so a diff of two versions
 * reads well; never the whole file as one string nor a canonical copy of every entry at once (it
 * is written after every confirmed write).
 */
export function* inventoryChunks(entries: readonly InventoryEntry[]): Generator<string> {
  const order = [...entries].sort(compareEntries);
  if (order.length === 0) {
    yield '{\n  "version": 1,\n  "entries": []\n}\n';
    return;
  }
  yield '{\n  "version": 1,\n  "entries": [';
  let first = true;
  for (const entry of order) {
    yield `${first ? '' : ','}\n    ${JSON.stringify(canonicalEntry(entry), null, 2).replace(/\n/g, '\n    ')}`;
    first = false;
  }
  yield '\n  ]\n}\n';
}

export function parseInventory(text: string, file: string): InventoryEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new InventoryFileError(file, `not valid JSON (${(err as Error).message})`);
  }
  if (!isJsonObject(doc)) throw new InventoryFileError(file, 'expected an object with "version" and "entries"');
  if (doc.version !== 1) throw new InventoryFileError(file, `unsupported version ${JSON.stringify(doc.version)} (expected 1)`);
  if (!Array.isArray(doc.entries)) throw new InventoryFileError(file, '"entries" must be an array');
  // Each entry as canonicalEntry makes it (so loading makes no second copy of 10,000 of them); the
  // place named only for an error.
  return doc.entries.map((raw: unknown, i: number): InventoryEntry => {
    const at = (): string => `entries[${i}]`;
    if (!isJsonObject(raw)) throw new InventoryFileError(file, `${at()} must be an object`);
    const { kind, key, id, secretHashes, pruneDisabled, retiredUntil } = raw;
    if (typeof kind !== 'string' || !isKindName(kind)) throw new InventoryFileError(file, `${at()}.kind: unknown kind ${JSON.stringify(kind)}`);
    if (typeof key !== 'string' || key === '') throw new InventoryFileError(file, `${at()}.key must be a non-empty string`);
    if (typeof id !== 'string' || id === '') throw new InventoryFileError(file, `${at()}.id must be a non-empty string`);
    const entry: InventoryEntry = { kind, key, id };
    if (secretHashes !== undefined) {
      if (!isJsonObject(secretHashes) || !Object.values(secretHashes).every((v) => typeof v === 'string')) {
        throw new InventoryFileError(file, `${at()}.secretHashes must map JSON Pointers to strings`);
      }
      const hashes = sortedHashes(secretHashes as Record<string, string>);
      if (hashes) entry.secretHashes = hashes;
    }
    if (pruneDisabled !== undefined) {
      if (typeof pruneDisabled !== 'boolean') throw new InventoryFileError(file, `${at()}.pruneDisabled must be true or false`);
      if (pruneDisabled) entry.pruneDisabled = true;
    }
    if (retiredUntil !== undefined) {
      if (typeof retiredUntil !== 'string' || Number.isNaN(Date.parse(retiredUntil))) {
        throw new InventoryFileError(file, `${at()}.retiredUntil must be a timestamp`);
      }
      entry.retiredUntil = retiredUntil;
    }
    return entry;
  });
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new InventoryFileError(path, 'the state directory is not a directory');
    throw err;
  }
}

export async function readHashKey(stateDir: string): Promise<string | undefined> {
  const text = await readIfExists(join(stateDir, HASH_KEY_FILE));
  if (text === undefined) return undefined;
  const key = text.trim();
  if (!/^[0-9a-f]{64}$/i.test(key)) {
    throw new InventoryFileError(join(stateDir, HASH_KEY_FILE), 'expected 64 hex digits', HASH_KEY_HINT);
  }
  return key;
}

const WRITER_ID_HINT =
  'It names this state directory in the workspace\'s writer lease; delete it to get a new one (a daemon running ' +
  'with the old one then holds the lease until it expires)';

/** The id this state directory writes under (the writer lease), or undefined when none was made yet. */
export async function readWriterId(stateDir: string): Promise<string | undefined> {
  const text = await readIfExists(join(stateDir, WRITER_ID_FILE));
  if (text === undefined) return undefined;
  const id = text.trim();
  if (!/^[0-9a-f]{32}$/i.test(id)) throw new InventoryFileError(join(stateDir, WRITER_ID_FILE), 'expected 32 hex digits', WRITER_ID_HINT);
  return id;
}

/**
 * Reads the inventory of a state directory without locking it (plan, export, status use this).
 * A missing directory or file is an empty inventory; a corrupt file is an error naming it.
 */
export async function loadInventory(stateDir: string): Promise<Inventory> {
  const file = join(stateDir, INVENTORY_FILE);
  const text = await readIfExists(file);
  const entries = text === undefined ? [] : parseInventory(text, file);
  // parseInventory's entries are canonical already, and a file written by wsync is in order: sorting is one pass then.
  return { version: 1, entries: entries.sort(compareEntries), hashKey: (await readHashKey(stateDir)) ?? '' };
}
