import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InventoryEntry } from '../../src/core/types.js';
import {
  InventoryFileError,
  loadInventory,
  openState,
  StateLockedError,
  tokenFileName,
  writeTokenSecret,
} from '../../src/state/index.js';
import { inventoryChunks } from '../../src/state/inventory-file.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wsync-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

async function readInventoryFile(stateDir: string): Promise<{ version: number; entries: InventoryEntry[] }> {
  return JSON.parse(await readFile(join(stateDir, 'inventory.json'), 'utf8')) as { version: number; entries: InventoryEntry[] };
}

describe('loadInventory', () => {
  it('reads a missing state directory as an empty inventory without creating it', async () => {
    const stateDir = join(dir, 'nothing-here');
    expect(await loadInventory(stateDir)).toEqual({ version: 1, entries: [], hashKey: '' });
    await expect(stat(stateDir)).rejects.toThrow(/ENOENT/);
  });

  it('names the file when the inventory is corrupt, and openState refuses it too', async () => {
    await writeFile(join(dir, 'inventory.json'), '{"version": 1, "entries": [');
    const err = await loadInventory(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InventoryFileError);
    expect((err as Error).message).toContain(join(dir, 'inventory.json'));
    await expect(openState(dir, { lock: true })).rejects.toBeInstanceOf(InventoryFileError);
    // The failed open released its lock and left the corrupt file as it was.
    await expect(stat(join(dir, 'lock'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dir, 'inventory.json'), 'utf8')).toBe('{"version": 1, "entries": [');
  });

  it("names a broken hash.key with its own hint, not the inventory's", async () => {
    await writeFile(join(dir, 'hash.key'), 'not-a-key\n');
    const err = await loadInventory(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InventoryFileError);
    expect((err as Error).message).toMatch(/hash\.key: expected 64 hex digits\. It is the key of the secret hashes/);
    expect((err as Error).message).not.toContain('The inventory records which objects wsync owns');
  });

  it('reads a file written by hand as the canonical inventory: entries in order, hashes sorted, empty and false members left out', async () => {
    const entries = [
      { kind: 'Notifier', key: 'b', id: 'n2', secretHashes: { '/z': 'h1', '/a': 'h2' }, pruneDisabled: false },
      { kind: 'Monitor', key: 'm', id: 'm1', secretHashes: {}, retiredUntil: '2026-01-01T00:00:00Z' },
      { kind: 'Notifier', key: 'a', id: 'n1', pruneDisabled: true },
    ];
    await writeFile(join(dir, 'inventory.json'), JSON.stringify({ version: 1, entries }));
    const loaded = await loadInventory(dir);
    expect(loaded.entries).toEqual([
      { kind: 'Monitor', key: 'm', id: 'm1', retiredUntil: '2026-01-01T00:00:00Z' },
      { kind: 'Notifier', key: 'a', id: 'n1', pruneDisabled: true },
      { kind: 'Notifier', key: 'b', id: 'n2', secretHashes: { '/a': 'h2', '/z': 'h1' } },
    ]);
    expect(Object.keys(loaded.entries[2]?.secretHashes ?? {})).toEqual(['/a', '/z']);
  });

  it('rejects entries of an unknown kind, naming the entry', async () => {
    await writeFile(join(dir, 'inventory.json'), JSON.stringify({ version: 1, entries: [{ kind: 'Notebook', key: 'a', id: 'x' }] }));
    await expect(loadInventory(dir)).rejects.toThrow(/entries\[0\]\.kind: unknown kind "Notebook"/);
  });
});

describe('openState', () => {
  it('creates a 0600 hash key with the first record and persists every record before it resolves, sorted by kind and key', async () => {
    const state = await openState(dir, { lock: true });
    expect(existsSync(join(dir, 'hash.key'))).toBe(false);
    await state.record({ kind: 'Notifier', key: 'b', id: 'notify_2', secretHashes: { '/properties/slack/slackUrl': 'hmac-sha256:x' } });
    const key = (await readFile(join(dir, 'hash.key'), 'utf8')).trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(join(dir, 'hash.key'))).mode & 0o777).toBe(0o600);
    expect(state.inventory.hashKey).toBe(key);

    expect((await readInventoryFile(dir)).entries).toEqual([
      { kind: 'Notifier', key: 'b', id: 'notify_2', secretHashes: { '/properties/slack/slackUrl': 'hmac-sha256:x' } },
    ]);
    await state.record({ kind: 'Monitor', key: 'z', id: 'mon_1', pruneDisabled: true });
    await state.record({ kind: 'Notifier', key: 'a', id: 'notify_1' });
    const file = await readInventoryFile(dir);
    expect(file.version).toBe(1);
    expect(file.entries.map((e) => `${e.kind}/${e.key}`)).toEqual(['Monitor/z', 'Notifier/a', 'Notifier/b']);
    // Human-readable: indented, one field a line.
    expect(await readFile(join(dir, 'inventory.json'), 'utf8')).toContain('\n      "kind": "Monitor",\n');

    await state.forget('Notifier', 'notify_2');
    expect((await readInventoryFile(dir)).entries.map((e) => e.id)).toEqual(['mon_1', 'notify_1']);
    await state.close();

    const reloaded = await loadInventory(dir);
    expect(reloaded.hashKey).toBe(key);
    expect(reloaded.entries).toEqual([
      { kind: 'Monitor', key: 'z', id: 'mon_1', pruneDisabled: true },
      { kind: 'Notifier', key: 'a', id: 'notify_1' },
    ]);
  });

  it('replaces the entry of the same key (a regenerated token gets a new id)', async () => {
    const state = await openState(dir, { lock: true });
    await state.record({ kind: 'ApiToken', key: 'ci', id: 'tok_old' });
    await state.record({ kind: 'ApiToken', key: 'ci', id: 'tok_new' });
    expect(state.inventory.entries).toEqual([{ kind: 'ApiToken', key: 'ci', id: 'tok_new' }]);
    await state.close();
    expect((await readInventoryFile(dir)).entries).toEqual([{ kind: 'ApiToken', key: 'ci', id: 'tok_new' }]);
  });

  it('does not write the file again for a record it holds already (an update of an owned object); any change writes it', async () => {
    const state = await openState(dir, { lock: true });
    const file = join(dir, 'inventory.json');
    const entry: InventoryEntry = { kind: 'Notifier', key: 'pager', id: 'notify_1', secretHashes: { '/properties/a': 'h1', '/properties/b': 'h2' } };
    await state.record(entry);
    // Every write of the file is a new file renamed over it: a new inode.
    const written = (await stat(file)).ino;
    const sorted = state.inventory.entries;
    await state.record({ ...entry, secretHashes: { '/properties/b': 'h2', '/properties/a': 'h1' } });
    expect((await stat(file)).ino).toBe(written);
    expect(state.inventory.entries).toBe(sorted);
    for (const changed of [{ ...entry, secretHashes: { '/properties/a': 'h1' } }, { ...entry, pruneDisabled: true as const }, { ...entry, id: 'notify_2' }]) {
      const before = (await stat(file)).ino;
      await state.record(changed);
      expect((await stat(file)).ino).not.toBe(before);
      expect((await readInventoryFile(dir)).entries).toEqual([changed]);
    }
    await state.close();
  });

  it('keeps a retired entry beside the current one of its key, reads it back, and lets it become current again', async () => {
    const state = await openState(dir, { lock: true });
    await state.record({ kind: 'ApiToken', key: 'ci', id: 'tok_old' });
    await state.record({ kind: 'ApiToken', key: 'ci', id: 'tok_old', retiredUntil: '2026-03-02T00:00:00.000Z' });
    await state.record({ kind: 'ApiToken', key: 'ci', id: 'tok_new' });
    const both = [
      { kind: 'ApiToken', key: 'ci', id: 'tok_new' },
      { kind: 'ApiToken', key: 'ci', id: 'tok_old', retiredUntil: '2026-03-02T00:00:00.000Z' },
    ];
    expect(state.inventory.entries).toEqual(both);
    await state.close();
    expect((await readInventoryFile(dir)).entries).toEqual(both);
    expect((await loadInventory(dir)).entries).toEqual(both);

    // A regenerate that kept the id: the retired entry is current again, alone.
    const again = await openState(dir, { lock: true });
    await again.forget('ApiToken', 'tok_new');
    await again.record({ kind: 'ApiToken', key: 'ci', id: 'tok_old' });
    expect(again.inventory.entries).toEqual([{ kind: 'ApiToken', key: 'ci', id: 'tok_old' }]);
    await again.close();
  });

  it('keeps every one of many concurrent records, and leaves no temp files behind', async () => {
    const state = await openState(dir, { lock: true });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => state.record({ kind: 'Notifier', key: `n${String(i).padStart(2, '0')}`, id: `notify_${i}` })),
    );
    await state.close();
    const entries = (await readInventoryFile(dir)).entries;
    expect(entries).toHaveLength(60);
    expect(entries[0]?.key).toBe('n00');
    expect((await readdir(dir)).sort()).toEqual(['.gitignore', 'hash.key', 'inventory.json', 'writer-id']);
  });

  it('refuses a second holder while the lock is held, naming the holder pid, and frees it on close', async () => {
    const first = await openState(dir, { lock: true });
    const err = await openState(dir, { lock: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateLockedError);
    expect((err as Error).message).toMatch(new RegExp(`is locked by pid ${process.pid} \\(started .+\\); another apply is running`));
    const lock = JSON.parse(await readFile(join(dir, 'lock'), 'utf8')) as { pid: number; hostname: string; startedAt: string };
    expect(lock).toEqual({ pid: process.pid, hostname: hostname(), startedAt: expect.any(String), leaseMs: 60_000 });
    await first.close();
    await expect(stat(join(dir, 'lock'))).rejects.toThrow(/ENOENT/);
    const second = await openState(dir, { lock: true });
    await second.close();
  });

  it('takes over the lock of a dead process on this host, with a warning', async () => {
    const pid = deadPid();
    await writeFile(join(dir, 'lock'), JSON.stringify({ pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }));
    const warnings: string[] = [];
    const state = await openState(dir, { lock: true, warn: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`pid ${pid}`);
    expect(JSON.parse(await readFile(join(dir, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await state.close();
  });

  it('takes over a lock naming its own pid that this process does not hold (a restarted container, pid 1)', async () => {
    await writeFile(join(dir, 'lock'), JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }));
    const warnings: string[] = [];
    const state = await openState(dir, { lock: true, warn: (m) => warnings.push(m) });
    expect(warnings[0]).toContain(`took over the lock of pid ${process.pid}`);
    await state.close();
  });

  it('does not take over a lock held on another host while its lease runs', async () => {
    await writeFile(join(dir, 'lock'), JSON.stringify({ pid: 1, hostname: 'elsewhere.example', startedAt: '2026-01-01T00:00:00.000Z' }));
    const err = await openState(dir, { lock: true }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/locked by pid 1 on elsewhere\.example .*if it no longer runs, the lock is taken over once its lease expires at 20\d\d-/);
  });

  it('opens without a lock when asked (read-mostly users)', async () => {
    const held = await openState(dir, { lock: true });
    const unlocked = await openState(dir, { lock: false });
    expect(unlocked.lockOwner).toBeUndefined();
    await unlocked.close();
    await held.close();
  });
});

describe('token files', () => {
  it('writes the secret 0600 under a safe file name', async () => {
    const tokens = join(dir, 'tokens');
    const path = await writeTokenSecret(tokens, 'ci-annotations', 'xapt-secret-value');
    expect(path).toBe(join(tokens, 'ci-annotations'));
    expect(await readFile(path, 'utf8')).toBe('xapt-secret-value\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await writeTokenSecret(tokens, 'ci-annotations', 'xapt-rotated');
    expect(await readFile(path, 'utf8')).toBe('xapt-rotated\n');
    expect((await readdir(tokens)).sort()).toEqual(['.gitignore', 'ci-annotations']);
  });

  it('never lets a name escape the directory', async () => {
    expect(tokenFileName('../../etc/passwd')).toBe('__.._etc_passwd');
    expect(tokenFileName('..')).toBe('_');
    expect(tokenFileName('a b/c')).toBe('a_b_c');
    await mkdir(join(dir, 'tokens'));
    const path = await writeTokenSecret(join(dir, 'tokens'), '../escape', 's3cret-value');
    expect(path.startsWith(join(dir, 'tokens'))).toBe(true);
  });
});

describe('the inventory file, written an entry at a time', () => {
  it('is the bytes of the sorted inventory stringified whole, secret hashes sorted, empty fields left out', () => {
    const entries: InventoryEntry[] = [
      { kind: 'Notifier', key: 'b', id: 'n2', secretHashes: { '/z': 'h1', '/a': 'h2' } },
      { kind: 'Monitor', key: 'm', id: 'm1', secretHashes: {} },
      { kind: 'Notifier', key: 'a', id: 'n1', pruneDisabled: true, retiredUntil: '2026-01-01T00:00:00Z' },
    ];
    const chunks = [...inventoryChunks(entries)];
    const whole = {
      version: 1,
      entries: [
        { kind: 'Monitor', key: 'm', id: 'm1' },
        { kind: 'Notifier', key: 'a', id: 'n1', pruneDisabled: true, retiredUntil: '2026-01-01T00:00:00Z' },
        { kind: 'Notifier', key: 'b', id: 'n2', secretHashes: { '/a': 'h2', '/z': 'h1' } },
      ],
    };
    expect(chunks.join('')).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    expect(chunks.length).toBe(entries.length + 2);
    expect([...inventoryChunks([])].join('')).toBe(`${JSON.stringify({ version: 1, entries: [] }, null, 2)}\n`);
  });
});
