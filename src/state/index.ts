import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { Inventory, InventoryEntry, KindName } from '../core/types.js';
import { writeFileAtomic } from './atomic.js';
import {
  HASH_KEY_FILE,
  INVENTORY_FILE,
  loadInventory,
  readHashKey,
  readWriterId,
  serializeInventory,
  sortEntries,
  WRITER_ID_FILE,
} from './inventory-file.js';
import { acquireLock, StateLockLostError, type HeldLock, type LockOptions, type LockOwner } from './lock.js';

export { loadInventory, InventoryFileError } from './inventory-file.js';
export { DEFAULT_LOCK_LEASE_MS, StateLockedError, StateLockLostError, type LockOwner } from './lock.js';
export { writeTokenSecret, tokenFileName } from './tokens.js';
export { writeFileAtomic } from './atomic.js';

export interface OpenStateOptions {
  /** Take `<stateDir>/lock` for as long as the handle is open (apply, the daemon). */
  lock: boolean;
  /** Where warnings go (a stale lock taken over); default stderr. */
  warn?: (message: string) => void;
  /** The lock's lease and clock (tests). */
  lease?: LockOptions;
}

/** The inventory of a state directory, opened for writing. */
export interface StateHandle {
  readonly dir: string;
  /** The current inventory, including everything recorded through this handle. */
  readonly inventory: Inventory;
  readonly lockOwner: LockOwner | undefined;
  /** This state directory's id in the workspace's writer lease. */
  readonly writerId: string;
  /** Records that wsync owns an object (replacing an entry of the same kind and key or id); durable when it resolves. */
  record(entry: InventoryEntry): Promise<void>;
  /** Drops an object from the inventory; durable when it resolves. */
  forget(kind: KindName, id: string): Promise<void>;
  /** Resolves once every record/forget so far is on disk. */
  flush(): Promise<void>;
  /** Flushes and releases the lock. */
  close(): Promise<void>;
  /** Renews the lock's lease now (a timer does it every quarter of the lease while the handle is open). */
  renewLock(): Promise<void>;
}

/** The state directory as a user would name it: relative to the working directory when inside it. */
export function displayStateDir(stateDir: string): string {
  const rel = relative(process.cwd(), stateDir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : stateDir;
}

/** A random id for this state directory, made once: who writes, in the workspace's writer lease. */
async function ensureWriterId(stateDir: string): Promise<string> {
  const existing = await readWriterId(stateDir);
  if (existing !== undefined) return existing;
  const id = randomBytes(16).toString('hex');
  await writeFileAtomic(join(stateDir, WRITER_ID_FILE), `${id}\n`, 0o600);
  return id;
}

async function ensureHashKey(stateDir: string): Promise<string> {
  const existing = await readHashKey(stateDir);
  if (existing !== undefined) return existing;
  const key = randomBytes(32).toString('hex');
  await writeFileAtomic(join(stateDir, HASH_KEY_FILE), `${key}\n`, 0o600);
  return key;
}

export async function openState(stateDir: string, options: OpenStateOptions): Promise<StateHandle> {
  const warn = options.warn ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const lock = options.lock ? await acquireLock(stateDir, displayStateDir(stateDir), warn, options.lease) : undefined;
  try {
    const loaded = await loadInventory(stateDir);
    const hashKey = await ensureHashKey(stateDir);
    const writerId = await ensureWriterId(stateDir);
    return createHandle(stateDir, loaded.entries, hashKey, writerId, lock);
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

function slot(kind: KindName, key: string): string {
  return `${kind}\u0000${key}`;
}

function createHandle(
  dir: string,
  initial: InventoryEntry[],
  hashKey: string,
  writerId: string,
  lock: HeldLock | undefined,
): StateHandle {
  const file = join(dir, INVENTORY_FILE);
  // One entry per (kind, key); `ids` finds the entry of an id (forget, and a record under a new key).
  const entries = new Map<string, InventoryEntry>();
  const ids = new Map<string, string>();
  for (const entry of initial) {
    entries.set(slot(entry.kind, entry.key), entry);
    ids.set(slot(entry.kind, entry.id), slot(entry.kind, entry.key));
  }
  let closed = false;
  // Writes are serialized; records arriving while a write runs share the next one.
  let chain: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;

  function persist(): Promise<void> {
    if (queued) return queued;
    const next = chain
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return writeFileAtomic(file, serializeInventory([...entries.values()]), 0o600);
      });
    queued = next;
    chain = next;
    return next;
  }

  function remove(at: string | undefined): void {
    if (at === undefined) return;
    const entry = entries.get(at);
    if (!entry) return;
    entries.delete(at);
    const idSlot = slot(entry.kind, entry.id);
    if (ids.get(idSlot) === at) ids.delete(idSlot);
  }

  function assertOpen(): void {
    if (closed) throw new Error(`state directory ${displayStateDir(dir)}: the inventory was already closed`);
    // Another process holds the lock now: two writers of one inventory would lose records.
    if (lock?.lost !== undefined) throw new StateLockLostError(displayStateDir(dir), lock.lost);
  }

  return {
    dir,
    get inventory(): Inventory {
      return { version: 1, entries: sortEntries([...entries.values()]), hashKey };
    },
    lockOwner: lock?.owner,
    writerId,
    record(entry) {
      assertOpen();
      remove(slot(entry.kind, entry.key));
      remove(ids.get(slot(entry.kind, entry.id)));
      const copy: InventoryEntry = { ...entry };
      if (entry.secretHashes) copy.secretHashes = { ...entry.secretHashes };
      entries.set(slot(entry.kind, entry.key), copy);
      ids.set(slot(entry.kind, entry.id), slot(entry.kind, entry.key));
      return persist();
    },
    forget(kind, id) {
      assertOpen();
      const at = ids.get(slot(kind, id));
      if (at === undefined) return chain.catch(() => undefined);
      remove(at);
      return persist();
    },
    flush() {
      return chain;
    },
    renewLock() {
      return lock?.refresh() ?? Promise.resolve();
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await chain;
      } finally {
        await lock?.release();
      }
    },
  };
}
