import { randomBytes, timingSafeEqual } from 'node:crypto';
import { open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDirectory, writeFileAtomic } from './atomic.js';
import { makePrivateDir } from './directory.js';

/** Where API token secrets go: the directory given, else `<stateDir>/tokens`. */
export function tokenOutputDirOf(stateDir: string, given: string | undefined): string {
  return given ?? join(stateDir, 'tokens');
}

/** A token name as a file name: no separators, no leading dot, nothing a shell would trip on. */
export function tokenFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return safe === '' ? '_' : safe;
}

/**
 * Writes an API token's secret to `<dir>/<name>` (mode 0600, atomically) and returns the path.
 * The secret is the file's only content, with a trailing newline, so `$(cat file)` gives it back.
 */
export async function writeTokenSecret(dir: string, name: string, secret: string, afterWrite?: () => void): Promise<string> {
  await makeDir(dir);
  await removeLeftovers(dir, name);
  const path = join(dir, tokenFileName(name));
  await writeFileAtomic(path, `${secret}\n`, 0o600, afterWrite);
  return path;
}

/** Creates `dir` (0700, with a .gitignore) when missing, with its entry in the parent made durable. */
async function makeDir(dir: string): Promise<void> {
  // 0700 with a .gitignore of *, wherever --token-output-dir points.
  const { createdFrom } = await makePrivateDir(dir);
  if (createdFrom !== undefined) await syncDirectory(dirname(dir));
}

/**
 * Throws, with what is wrong, unless a secret can be written into `dir` (made when missing): run
 * before any request that makes the server issue one, so a secret never arrives with nowhere to go.
 */
export async function checkTokenDirWritable(dir: string): Promise<void> {
  try {
    await makeDir(dir);
    const probe = join(dir, `.wsync-probe.${process.pid}.${randomBytes(4).toString('hex')}`);
    const handle = await open(probe, 'wx', 0o600);
    await handle.close();
    await unlink(probe);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'it is not a directory' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'it is not writable' : (err as Error).message;
    throw new Error(`the token output directory ${dir} cannot take it: ${why}`, { cause: err });
  }
}

/** The marker of an issue in flight for `name`: its secret file's inode when the request was sent. */
function pendingFile(dir: string, name: string): string {
  return join(dir, `.${tokenFileName(name)}.pending`);
}

/**
 * Notes, durably, that a request issuing `name`'s secret is about to be sent, with which secret
 * file was there before (its inode: saving the new secret makes a new file). A run that dies before
 * the object is recorded leaves it, so the next plan knows the unowned object is its own.
 */
export async function markIssuePending(dir: string, name: string): Promise<void> {
  const before = await stat(join(dir, tokenFileName(name))).catch(() => undefined);
  await writeFileAtomic(pendingFile(dir, name), `${JSON.stringify({ secretFileInode: before?.ino ?? null })}\n`, 0o600);
}

export async function clearIssuePending(dir: string, name: string): Promise<void> {
  await unlink(pendingFile(dir, name)).catch(() => undefined);
}

/** The token file names (tokenFileName) of every issue marker in `dir` (none when it is missing). */
export async function issueMarkerNames(dir: string): Promise<string[]> {
  const files = await readdir(dir).catch(() => [] as string[]);
  return files.flatMap((file) => {
    const match = /^\.(.+)\.pending$/.exec(file);
    return match?.[1] === undefined ? [] : [match[1]];
  }).sort();
}

/** What the token output directory holds for declared tokens; the secrets themselves are not read. */
export interface HeldTokenSecrets {
  /** Names whose secret file holds the secret of the token wsync last had issued. */
  held: Set<string>;
  /** Names with an issue in flight that no run finished (markIssuePending). */
  pending: Set<string>;
}

async function pendingInode(dir: string, name: string): Promise<number | null | undefined> {
  const text = await readFile(pendingFile(dir, name), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { secretFileInode?: unknown };
    return typeof parsed.secretFileInode === 'number' ? parsed.secretFileInode : null;
  } catch {
    return null;
  }
}

/**
 * Which of `names` have their secret on disk (a missing directory holds none). With an issue in
 * flight, the file counts only if it was written after the request (a new inode): the one before
 * holds the secret of the token that request replaced.
 */
export async function heldTokenSecrets(dir: string, names: readonly string[]): Promise<HeldTokenSecrets> {
  const result: HeldTokenSecrets = { held: new Set(), pending: new Set() };
  await Promise.all(
    names.map(async (name) => {
      const [file, inodeBefore] = await Promise.all([stat(join(dir, tokenFileName(name))).catch(() => undefined), pendingInode(dir, name)]);
      if (inodeBefore !== undefined) result.pending.add(name);
      if (file?.isFile() && file.size > 1 && file.ino !== inodeBefore) result.held.add(name);
    }),
  );
  return result;
}

/** Removes temporary files a run killed while writing `name`'s secret left behind (they may hold one). */
async function removeLeftovers(dir: string, name: string): Promise<void> {
  const prefix = `.${tokenFileName(name)}.`;
  const files = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(files.filter((f) => f.startsWith(prefix) && f.endsWith('.tmp')).map((f) => unlink(join(dir, f)).catch(() => undefined)));
}

/**
 * The name of the secret file in `dir` that holds `secret` (the API token wsync runs with, when
 * wsync issued it), or undefined. Every file is read, declared or not: a token no file declares
 * any more is the one prune would delete. Compared in constant time; nothing read is kept.
 */
export async function tokenFileHolding(dir: string, secret: string): Promise<string | undefined> {
  const wanted = Buffer.from(secret, 'utf8');
  if (wanted.length === 0) return undefined;
  const files = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const file of files) {
    if (!file.isFile() || file.name.startsWith('.')) continue;
    const held = Buffer.from((await readFile(join(dir, file.name), 'utf8').catch(() => '')).trim(), 'utf8');
    if (held.length === wanted.length && timingSafeEqual(held, wanted)) return file.name;
  }
  return undefined;
}
