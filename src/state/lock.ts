import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { syncDirectory } from './atomic.js';

export interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

/** Another process holds the lock of a state directory. */
export class StateLockedError extends Error {
  constructor(
    readonly stateDir: string,
    readonly holder: LockOwner | undefined,
  ) {
    const elsewhere = holder !== undefined && holder.hostname !== hostname();
    super(
      holder
        ? `state directory ${stateDir} is locked by pid ${holder.pid}${elsewhere ? ` on ${holder.hostname}` : ''} ` +
            `(started ${holder.startedAt}); another apply is running` +
            (elsewhere ? ` (if it no longer runs there, remove ${join(stateDir, 'lock')})` : '')
        : `state directory ${stateDir} is locked (${join(stateDir, 'lock')} cannot be read); another apply may be running — ` +
            'remove the lock file if it is not',
    );
    this.name = 'StateLockedError';
  }
}

export interface HeldLock {
  owner: LockOwner;
  release(): Promise<void>;
}

/** Lock files this process holds: a lock naming our own pid that is not among them is a previous life's. */
const heldHere = new Set<string>();

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
      return { pid: value.pid, hostname: value.hostname, startedAt: value.startedAt };
    }
  } catch {
    // fall through
  }
  return undefined;
}

async function readOwner(path: string): Promise<LockOwner | undefined | 'missing'> {
  try {
    return parseOwner(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt;
}

/**
 * Takes `<stateDir>/lock`. The lock file is written whole to a temp file and hard-linked into
 * place, which fails when the lock exists (O_EXCL semantics) and never leaves a half-written lock.
 * A lock left by a dead process on this host is taken over with a warning.
 */
export async function acquireLock(
  stateDir: string,
  displayDir: string,
  warn: (message: string) => void,
): Promise<HeldLock> {
  const path = resolve(stateDir, 'lock');
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  const temp = join(stateDir, `.lock.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(temp, `${JSON.stringify(owner)}\n`, { mode: 0o644, flag: 'wx' });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(temp, path);
        await syncDirectory(stateDir);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = await readOwner(path);
      if (holder === 'missing') continue; // released between our link and our read
      // A container restarted with the same pid (often 1) on the same host name finds its own pid
      // in the lock: alive, but not holding it unless this very process took it.
      const ours = holder !== undefined && holder.pid === process.pid && !heldHere.has(path);
      const live = holder !== undefined && isAlive(holder.pid) && !ours;
      if (holder === undefined || holder.hostname !== owner.hostname || live || attempt >= 3) {
        throw new StateLockedError(displayDir, holder);
      }
      await takeOverStale(path, holder, warn, displayDir);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  heldHere.add(path);

  let released = false;
  return {
    owner,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(path);
      const current = await readOwner(path).catch(() => undefined);
      // Never remove a lock that another process took over from us.
      if (current !== 'missing' && current !== undefined && sameOwner(current, owner)) {
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
  stale: LockOwner,
  warn: (message: string) => void,
  displayDir: string,
): Promise<void> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readOwner(aside);
  if (moved !== 'missing' && moved !== undefined && !sameOwner(moved, stale)) {
    await link(aside, path).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    return;
  }
  await unlink(aside).catch(() => undefined);
  warn(
    `state directory ${displayDir}: took over the lock of pid ${stale.pid} (started ${stale.startedAt}), ` +
      'which is no longer running; its last writes are in the inventory',
  );
}
