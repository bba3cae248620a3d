import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `data` so that a reader (or a crash) sees the old file or the new one,
 * never half of either: temp file in the same directory, fsync, rename, fsync of the directory.
 * `afterWrite` runs between the write and the fsync (a crash point for tests). `data` may come in
 * pieces, written one at a time (an inventory of 420,000 secret hashes is 55 MB as one string).
 */
export async function writeFileAtomic(path: string, data: string | Iterable<string>, mode = 0o600, afterWrite?: () => void): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      if (typeof data === 'string') await handle.writeFile(data, 'utf8');
      else for (const piece of data) await handle.write(piece, null, 'utf8');
      afterWrite?.();
      // The mode given to open() is filtered by the umask; secrets must end up 0600 whatever it is.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDirectory(dir);
}

/** Makes a rename or a new file in `dir` durable. Some platforms cannot fsync a directory: ignored there. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // EISDIR/EPERM/EINVAL on platforms without directory fsync: nothing more can be done.
  } finally {
    await handle?.close();
  }
}
