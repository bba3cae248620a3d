// Locks that heal (#17.4): a lease the holder renews while it runs; past it, anyone takes the lock
// over whatever host wrote it; and every way the process ends releases it. Time is a fake clock.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openState, StateLockedError, StateLockLostError } from '../../src/state/index.js';
import { packageRoot } from '../../src/util/package-root.js';

let dir: string;
let now: number;
const clock = (): number => now;
const lease = { clock, leaseMs: 60_000 };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wsync-lock-'));
  now = Date.parse('2026-03-01T12:00:00.000Z');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A lock another pod wrote, last renewed at `renewedAt`. */
async function foreignLock(renewedAt: number, extra: Record<string, unknown> = {}): Promise<void> {
  const path = join(dir, 'lock');
  await writeFile(path, JSON.stringify({ pid: 1, hostname: 'wsync-7d9f-old-pod', startedAt: '2026-03-01T11:00:00.000Z', ...extra }));
  await utimes(path, new Date(renewedAt), new Date(renewedAt));
}

describe('a lock with a lease', () => {
  it('of another host is refused while its lease runs, and taken over with a warning once it expired', async () => {
    await foreignLock(now - 59_000);
    const refused = await openState(dir, { lock: true, lease }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StateLockedError);
    expect((refused as Error).message).toContain('on wsync-7d9f-old-pod');
    expect((refused as Error).message).toContain('taken over once its lease expires at 2026-03-01T12:00:01.000Z');

    now += 2_000;
    const warnings: string[] = [];
    const state = await openState(dir, { lock: true, lease, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([
      expect.stringMatching(/took over the lock of pid 1 on wsync-7d9f-old-pod \(started 2026-03-01T11:00:00\.000Z\), whose lease expired: not renewed for 61 s/),
    ]);
    expect(JSON.parse(await readFile(join(dir, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid, leaseMs: 60_000 });
    await state.close();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });

  it("uses the holder's own lease, and the default for a lock written without one", async () => {
    await foreignLock(now - 90_000, { leaseMs: 120_000 });
    await expect(openState(dir, { lock: true, lease })).rejects.toBeInstanceOf(StateLockedError);
    await foreignLock(now - 61_000);
    const state = await openState(dir, { lock: true, lease, warn: () => undefined });
    await state.close();
  });

  it('is renewed by its holder, so a live holder keeps it past the first lease; a holder that stops renewing loses it', async () => {
    const lost: string[] = [];
    const first = await openState(dir, { lock: true, lease, warn: (m) => lost.push(m) });
    for (let i = 0; i < 4; i++) {
      now += 45_000;
      await first.record({ kind: 'Org', key: `o${i}`, id: `org_${i}` });
      // What the holder's timer does every quarter of the lease.
      await first.renewLock();
    }
    now += 59_000;
    await expect(openState(dir, { lock: true, lease })).rejects.toBeInstanceOf(StateLockedError);

    now += 2_000;
    const warnings: string[] = [];
    const second = await openState(dir, { lock: true, lease, warn: (m) => warnings.push(m) });
    expect(warnings[0]).toContain(`took over the lock of pid ${process.pid}`);
    // The first finds out at its next renewal, and writes nothing more to the inventory.
    await first.renewLock();
    expect(lost).toEqual([expect.stringMatching(/its lock was taken over by pid \d+ on .*did not renew its lease of 60 s in time/)]);
    expect(() => first.record({ kind: 'Org', key: 'late', id: 'org_late' })).toThrow(StateLockLostError);
    await first.close();
    // Closing the first did not remove the second's lock.
    expect(JSON.parse(await readFile(join(dir, 'lock'), 'utf8'))).toMatchObject({ startedAt: second.lockOwner?.startedAt });
    await second.close();
  });
});

describe('every exit path releases the lock', () => {
  const dist = join(packageRoot(), 'dist', 'state', 'index.js');
  it.each([
    ['process.exit (the daemon past its shutdown deadline, a second signal)', 'process.exit(3);', 3],
    ['an uncaught exception', "setTimeout(() => { throw new Error('boom'); }, 1);", 1],
    ['the event loop running dry', '', 0],
  ])('%s', (_, ending, code) => {
    const script = `import { openState } from ${JSON.stringify(dist)};\nawait openState(${JSON.stringify(dir)}, { lock: true });\n${ending}`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(code);
    // openState ran (it gave the directory its .gitignore), and the lock went with the process.
    expect(existsSync(join(dir, '.gitignore'))).toBe(true);
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });
});
