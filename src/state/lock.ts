import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { syncDirectory } from './atomic.js';

/**
 * How long a lock stays valid without being refreshed. The holder refreshes it (the file's
 * modification time) every quarter of this while it runs, so only a holder that is gone (killed,
 * OOM, a lost node) or hung lets it expire; then anyone may take it over, whatever host wrote it.
 */
export const DEFAULT_LOCK_LEASE_MS = 60_000;

export interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
  /** The holder's lease; a lock written without one (an older wsync) has the default. */
  leaseMs?: number;
}

export interface LockOptions {
  leaseMs?: number;
  /** Milliseconds since the epoch; tests pass a fake one. */
  clock?: () => number;
}

/** Another process holds the lock of a state directory. */
export class StateLockedError extends Error {
  constructor(
    readonly stateDir: string,
    readonly holder: LockOwner | undefined,
    expiresAt?: number,
  ) {
    const elsewhere = holder !== undefined && holder.hostname !== hostname();
    const expiry =
      expiresAt === undefined
        ? ''
        : `; if it no longer runs, the lock is taken over once its lease expires at ${new Date(expiresAt).toISOString()}`;
    super(
      holder
        ? `state directory ${stateDir} is locked by pid ${holder.pid}${elsewhere ? ` on ${holder.hostname}` : ''} ` +
            `(started ${holder.startedAt}); another apply is running${expiry}`
        : `state directory ${stateDir} is locked (${join(stateDir, 'lock')} cannot be read); another apply may be running${expiry}`,
    );
    this.name = 'StateLockedError';
  }
}

/** This process held the lock and no longer does: it stopped refreshing it and another took it over. */
export class StateLockLostError extends Error {
  constructor(stateDir: string, reason: string) {
    super(`state directory ${stateDir}: ${reason}; nothing more is written to its inventory`);
    this.name = 'StateLockLostError';
  }
}

export interface HeldLock {
  owner: LockOwner;
  /** Why the lock is no longer ours, once that has been found out. */
  readonly lost: string | undefined;
  /** Renews the lease now (the holder's timer does it every quarter of the lease). */
  refresh(): Promise<void>;
  release(): Promise<void>;
}

interface Held {
  path: string;
  owner: LockOwner;
}

/** Lock files this process holds: a lock naming our own pid that is not among them is a previous life's. */
const heldHere = new Map<string, Held>();

/**
 * Whatever way the process ends (a deadline exit, a second signal, an uncaught error), the locks
 * it holds go with it: synchronously, from the 'exit' event, each only if it is still ours.
 */
function releaseAllSync(): void {
  for (const { path, owner } of heldHere.values()) {
    try {
      const current = parseOwner(readFileSync(path, 'utf8'));
      if (current !== undefined && sameOwner(current, owner)) unlinkSync(path);
    } catch {
      // Gone already, or unreadable: nothing of ours to remove.
    }
  }
  heldHere.clear();
}
process.on('exit', releaseAllSync);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.hostname === 'string' && typeof value.startedAt === 'string') {
      const owner: LockOwner = { pid: value.pid, hostname: value.hostname, startedAt: value.startedAt };
      if (typeof value.leaseMs === 'number' && value.leaseMs > 0) owner.leaseMs = value.leaseMs;
      return owner;
    }
  } catch {
    // fall through
  }
  return undefined;
}

interface Found {
  owner: LockOwner | undefined;
  /** When the holder last refreshed the lock (the file's modification time). */
  refreshedAt: number;
}

async function readLock(path: string): Promise<Found | 'missing'> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { owner: parseOwner(text), refreshedAt: info.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt;
}

async function touch(path: string, nowMs: number): Promise<void> {
  const at = new Date(nowMs);
  await utimes(path, at, at);
}

/**
 * Takes `<stateDir>/lock`. The lock file is written whole to a temp file and hard-linked into
 * place, which fails when the lock exists (O_EXCL semantics) and never leaves a half-written lock.
 * A lock is taken over, with a warning, when its lease has expired (whatever host wrote it), or at
 * once when it names a process of this host that is no longer running.
 */
export async function acquireLock(
  stateDir: string,
  displayDir: string,
  warn: (message: string) => void,
  options: LockOptions = {},
): Promise<HeldLock> {
  const clock = options.clock ?? Date.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LOCK_LEASE_MS;
  const path = resolve(stateDir, 'lock');
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), startedAt: new Date(clock()).toISOString(), leaseMs };
  const temp = join(stateDir, `.lock.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(temp, `${JSON.stringify(owner)}\n`, { mode: 0o644, flag: 'wx' });
  try {
    await touch(temp, clock());
    for (let attempt = 0; ; attempt++) {
      try {
        await link(temp, path);
        await syncDirectory(stateDir);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const found = await readLock(path);
      if (found === 'missing') continue; // released between our link and our read
      const holder = found.owner;
      const expiresAt = found.refreshedAt + (holder?.leaseMs ?? DEFAULT_LOCK_LEASE_MS);
      const expired = clock() > expiresAt;
      // A container restarted with the same pid (often 1) on the same host name finds its own pid
      // in the lock: alive, but not holding it unless this very process took it.
      const ours = holder !== undefined && holder.pid === process.pid && !heldHere.has(path);
      const deadHere = holder !== undefined && holder.hostname === owner.hostname && (ours || !isAlive(holder.pid));
      if ((!expired && !deadHere) || attempt >= 3) throw new StateLockedError(displayDir, holder, expiresAt);
      await takeOverStale(path, found, warn, displayDir, expired ? clock() - found.refreshedAt : undefined);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  heldHere.set(path, { path, owner });
  return holdLock(path, owner, displayDir, warn, clock, leaseMs);
}

function holdLock(
  path: string,
  owner: LockOwner,
  displayDir: string,
  warn: (message: string) => void,
  clock: () => number,
  leaseMs: number,
): HeldLock {
  let released = false;
  let lost: string | undefined;
  const refresh = async (): Promise<void> => {
    if (released || lost !== undefined) return;
    const found = await readLock(path).catch(() => 'missing' as const);
    if (found === 'missing' || found.owner === undefined || !sameOwner(found.owner, owner)) {
      lost =
        found === 'missing' || found.owner === undefined
          ? 'its lock file was removed while this process held it'
          : `its lock was taken over by pid ${found.owner.pid} on ${found.owner.hostname} ` +
            `(this process did not renew its lease of ${Math.round(leaseMs / 1000)} s in time)`;
      heldHere.delete(path);
      warn(`state directory ${displayDir}: ${lost}`);
      return;
    }
    await touch(path, clock()).catch(() => undefined);
  };
  const timer = setInterval(() => void refresh(), Math.max(1, Math.floor(leaseMs / 4)));
  timer.unref();
  return {
    owner,
    get lost() {
      return lost;
    },
    refresh,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      heldHere.delete(path);
      const current = await readLock(path).catch(() => 'missing' as const);
      // Never remove a lock that another process took over from us.
      if (current !== 'missing' && current.owner !== undefined && sameOwner(current.owner, owner)) {
        await unlink(path).catch(() => undefined);
      }
    },
  };
}

/**
 * Moves a stale lock aside by rename (atomic), then checks that what was moved is the stale lock
 * seen before; if another process took over in between, its fresh lock is put back.
 */
async function takeOverStale(
  path: string,
  stale: Found,
  warn: (message: string) => void,
  displayDir: string,
  idleMs: number | undefined,
): Promise<void> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readLock(aside);
  const same =
    moved !== 'missing' &&
    moved.refreshedAt === stale.refreshedAt &&
    (moved.owner === undefined ? stale.owner === undefined : stale.owner !== undefined && sameOwner(moved.owner, stale.owner));
  if (!same) {
    await link(aside, path).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    return;
  }
  await unlink(aside).catch(() => undefined);
  const who = stale.owner
    ? `pid ${stale.owner.pid}${stale.owner.hostname !== hostname() ? ` on ${stale.owner.hostname}` : ''} (started ${stale.owner.startedAt})`
    : 'an unreadable holder';
  const why =
    idleMs !== undefined
      ? `whose lease expired: not renewed for ${Math.round(idleMs / 1000)} s, so it no longer runs (or hangs)`
      : 'which is no longer running';
  warn(`state directory ${displayDir}: took over the lock of ${who}, ${why}; its last writes are in the inventory`);
}
