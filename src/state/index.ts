import { randomBytes } from 'node:crypto';
import { isAbsolute, join, relative } from 'node:path';
import type { Inventory, InventoryEntry, KindName } from '../core/types.js';
import { writeFileAtomic } from './atomic.js';
import { ensureStateGitignore, makePrivateDir, removeUnusedStateDir, stateDirGitExposure, type PreparedDir } from './directory.js';
import {
  HASH_KEY_FILE,
  INVENTORY_FILE,
  loadInventory,
  readHashKey,
  readWriterId,
  inventoryChunks,
  sameEntry,
  sortEntries,
  WRITER_ID_FILE,
} from './inventory-file.js';
import { acquireLock, StateLockLostError, type HeldLock, type LockOptions, type LockOwner } from './lock.js';

export { loadInventory, readWriterId, InventoryFileError } from './inventory-file.js';
export { DEFAULT_LOCK_LEASE_MS, StateLockedError, StateLockLostError, type LockOwner } from './lock.js';
export {
  checkTokenDirWritable,
  clearIssuePending,
  heldTokenSecrets,
  issueMarkerNames,
  tokenFileHolding,
  markIssuePending,
  tokenFileName,
  tokenOutputDirOf,
  writeTokenSecret,
  type HeldTokenSecrets,
} from './tokens.js';
export { writeFileAtomic } from './atomic.js';
export { readHeldRecords, recordHeldChanges } from './held-record.js';
export { makePrivateDir, stateDirGitExposure } from './directory.js';

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
  /** The entry of an object by kind and id (a copy), without copying the whole inventory. */
  entryFor(kind: KindName, id: string): InventoryEntry | undefined;
  /** Records that wsync owns an object (replacing an entry of the same kind and key, or of the same id; a retired entry has a place of its own); durable when it resolves. */
  record(entry: InventoryEntry): Promise<void>;
  /** Drops an object from the inventory; durable when it resolves. */
  forget(kind: KindName, id: string): Promise<void>;
  /** Resolves once every record/forget so far is on disk. */
  flush(): Promise<void>;
  /** Flushes and releases the lock. */
  close(): Promise<void>;
  /** Renews the lock's lease now (a timer does it every quarter of the lease while the handle is open). */
  renewLock(): Promise<void>;
  /**
   * Writes the hash key and writer id if they are not on disk yet: before the first write of the
   * workspace (the writer lease names the id). Records do it themselves; nothing else writes them,
   * so a command that writes nothing leaves no state behind.
   */
  prepareWrites(): Promise<void>;
}

/** The state directory as a user would name it: relative to the working directory when inside it. */
export function displayStateDir(stateDir: string): string {
  const rel = relative(process.cwd(), stateDir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : stateDir;
}

/**
 * The hash key and writer id of a state directory: read when they exist, otherwise made in memory
 * and written only once something is written into the directory (`prepareWrites`).
 */
async function stateKeys(stateDir: string): Promise<{ hashKey: string; writerId: string; onDisk: boolean }> {
  const [hashKey, writerId] = [await readHashKey(stateDir), await readWriterId(stateDir)];
  return {
    hashKey: hashKey ?? randomBytes(32).toString('hex'),
    // A random id for this state directory, made once: who writes, in the workspace's writer lease.
    writerId: writerId ?? randomBytes(16).toString('hex'),
    onDisk: hashKey !== undefined && writerId !== undefined,
  };
}

/** State directories whose git exposure was already told (the daemon opens its state more than once). */
const warnedExposure = new Set<string>();

/** Warns once per directory when git would commit what the state directory holds. */
async function warnIfGitWouldCommit(stateDir: string, warn: (message: string) => void): Promise<void> {
  if (warnedExposure.has(stateDir)) return;
  const why = await stateDirGitExposure(stateDir);
  if (why === undefined) return;
  warnedExposure.add(stateDir);
  warn(
    `state directory ${displayStateDir(stateDir)} is inside a git work tree and ${why}. ` +
      'It holds the hash key, the inventory and API token secrets: never commit it (or use --state-dir outside the tree)',
  );
}

export async function openState(stateDir: string, options: OpenStateOptions): Promise<StateHandle> {
  const warn = options.warn ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
  const prepared = await makePrivateDir(stateDir);
  const lock = options.lock ? await acquireLock(stateDir, displayStateDir(stateDir), warn, options.lease) : undefined;
  try {
    if (options.lock) {
      await ensureStateGitignore(stateDir);
      await warnIfGitWouldCommit(stateDir, warn);
    }
    const loaded = await loadInventory(stateDir);
    const keys = await stateKeys(stateDir);
    return createHandle({ dir: stateDir, initial: loaded.entries, ...keys, lock, prepared });
  } catch (err) {
    await lock?.release();
    await removeUnusedStateDir(prepared).catch(() => undefined);
    throw err;
  }
}

function slot(kind: KindName, key: string): string {
  return `${kind}\u0000${key}`;
}

/** Where an entry is kept: one current entry per key; a retired one (a replaced token) beside it, by id. */
function entrySlot(entry: InventoryEntry): string {
  const current = slot(entry.kind, entry.key);
  return entry.retiredUntil === undefined ? current : `${current}\u0000${entry.id}`;
}

function copyEntry(entry: InventoryEntry): InventoryEntry {
  const copy: InventoryEntry = { ...entry };
  if (entry.secretHashes) copy.secretHashes = { ...entry.secretHashes };
  return copy;
}

/** The entries of an open inventory: one per (kind, key), found by id too (forget, and a record under a new key). */
class EntryTable {
  private readonly entries = new Map<string, InventoryEntry>();
  private readonly ids = new Map<string, string>();
  /** The entries as `inventory` hands them out, until the next record or forget. */
  private ordered: InventoryEntry[] | undefined;

  constructor(initial: readonly InventoryEntry[]) {
    for (const entry of initial) {
      this.entries.set(entrySlot(entry), entry);
      this.ids.set(slot(entry.kind, entry.id), entrySlot(entry));
    }
  }

  /** Sorted once per change of the entries, not at every read (apply reads it per write). */
  sorted(): InventoryEntry[] {
    this.ordered ??= sortEntries([...this.entries.values()]);
    return this.ordered;
  }

  all(): InventoryEntry[] {
    return [...this.entries.values()];
  }

  /** The entry held where `entry` goes. */
  at(entry: InventoryEntry): InventoryEntry | undefined {
    return this.entries.get(entrySlot(entry));
  }

  byId(kind: KindName, id: string): InventoryEntry | undefined {
    const at = this.ids.get(slot(kind, id));
    return at === undefined ? undefined : this.entries.get(at);
  }

  /** `entry` in its slot, in place of what held its key or its id. */
  set(entry: InventoryEntry): void {
    this.remove(entrySlot(entry));
    this.remove(this.ids.get(slot(entry.kind, entry.id)));
    this.entries.set(entrySlot(entry), entry);
    this.ids.set(slot(entry.kind, entry.id), entrySlot(entry));
  }

  /** Drops the entry of an id; false when there is none. */
  forget(kind: KindName, id: string): boolean {
    const at = this.ids.get(slot(kind, id));
    if (at === undefined) return false;
    this.remove(at);
    return true;
  }

  private remove(at: string | undefined): void {
    this.ordered = undefined;
    if (at === undefined) return;
    const entry = this.entries.get(at);
    if (!entry) return;
    this.entries.delete(at);
    const idSlot = slot(entry.kind, entry.id);
    if (this.ids.get(idSlot) === at) this.ids.delete(idSlot);
  }
}

interface HandleInput {
  dir: string;
  initial: InventoryEntry[];
  hashKey: string;
  writerId: string;
  /** Whether the hash key and writer id are in files already. */
  onDisk: boolean;
  lock: HeldLock | undefined;
  prepared: PreparedDir;
}

function createHandle(input: HandleInput): StateHandle {
  const { dir, initial, hashKey, writerId, lock, prepared } = input;
  const file = join(dir, INVENTORY_FILE);
  let keysWritten: Promise<void> | undefined = input.onDisk ? Promise.resolve() : undefined;
  /** The hash key and writer id go to disk before the first record, or before the writer lease names the id. */
  function prepareWrites(): Promise<void> {
    keysWritten ??= (async () => {
      if ((await readHashKey(dir)) === undefined) await writeFileAtomic(join(dir, HASH_KEY_FILE), `${hashKey}\n`, 0o600);
      if ((await readWriterId(dir)) === undefined) await writeFileAtomic(join(dir, WRITER_ID_FILE), `${writerId}\n`, 0o600);
    })();
    return keysWritten;
  }
  const table = new EntryTable(initial);
  let closed = false;
  // Writes are serialized; records arriving while a write runs share the next one.
  let chain: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  /** The last write of the file failed: what the entries say may not be on disk. */
  let unwritten = false;

  function persist(): Promise<void> {
    if (queued) return queued;
    const next = chain
      .catch(() => undefined)
      .then(prepareWrites)
      .then(() => {
        queued = undefined;
        return writeFileAtomic(file, inventoryChunks(table.all()), 0o600);
      })
      .then(
        () => {
          unwritten = false;
        },
        (err: unknown) => {
          unwritten = true;
          throw err;
        },
      );
    queued = next;
    chain = next;
    return next;
  }

  function assertOpen(): void {
    if (closed) throw new Error(`state directory ${displayStateDir(dir)}: the inventory was already closed`);
    // Another process holds the lock now: two writers of one inventory would lose records.
    if (lock?.lost !== undefined) throw new StateLockLostError(displayStateDir(dir), lock.lost);
  }

  return {
    dir,
    get inventory(): Inventory {
      return { version: 1, entries: table.sorted(), hashKey };
    },
    lockOwner: lock?.owner,
    writerId,
    entryFor(kind, id) {
      const entry = table.byId(kind, id);
      return entry === undefined ? undefined : copyEntry(entry);
    },
    record(entry) {
      assertOpen();
      // An update of an owned object records what is recorded already: the file (10,000 entries
      // at scale) is not written again for it; the entry is on disk once the writes queued are.
      const held = table.at(entry);
      if (held !== undefined && sameEntry(held, entry) && !unwritten) return chain;
      table.set(copyEntry(entry));
      return persist();
    },
    forget(kind, id) {
      assertOpen();
      if (!table.forget(kind, id)) return chain.catch(() => undefined);
      return persist();
    },
    flush() {
      return chain;
    },
    renewLock() {
      return lock?.refresh() ?? Promise.resolve();
    },
    prepareWrites() {
      assertOpen();
      return prepareWrites();
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await chain;
      } finally {
        await lock?.release();
        // Nothing was written through this handle: a directory it made for nothing goes again.
        if (keysWritten === undefined) await removeUnusedStateDir(prepared).catch(() => undefined);
      }
    },
  };
}
