import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, realpathSync, statSync, type BigIntStats } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { safeText } from '../../core/safe-text.js';
import type { FileStamp } from './file-cache.js';
import { MAX_FILE_BYTES } from '../limits.js';
import { decodeUtf8, invalidUtf8Message } from './utf8.js';

export interface ListedFile {
  /** Relative to the directory read, with `/` separators. */
  path: string;
  absolute: string;
}

/** Something in the tree that is refused (a symbolic link leading out of it). */
export interface ListingProblem {
  path: string;
  message: string;
}

export interface Listing {
  files: ListedFile[];
  problems: ListingProblem[];
}

const YAML_FILE = /\.ya?ml$/i;

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'an error';
}

/**
 * A folder or link listed a moment ago and gone now (git-sync removing an old worktree while it is
 * read): the listing is not the tree, so it is an error and nothing is written from it.
 */
function vanished(path: string, what: string, err: unknown): ListingProblem {
  return {
    path,
    message: `${what} disappeared or could not be read while the tree was listed (${errorCode(err)}): the files read are not the whole tree, nothing is written from them`,
  };
}

function linkText(path: string): string {
  try {
    return ` (to ${safeText(readlinkSync(path))})`;
  } catch {
    return '';
  }
}

/**
 * Every *.yaml / *.yml under `root`, sorted by relative path. Skips dot-folders and node_modules.
 * `root` itself may be a symbolic link (git-sync's). Links inside the tree are followed, each real
 * directory once (a link cycle cannot loop), as long as their target is inside the tree: a link
 * leading out of it (to /etc, to a secret) is a problem, never read. A folder that cannot be
 * listed, or a link that disappears, is a problem too: a partial listing must never pass for the
 * tree (prune would delete what the missing files declare). A link whose target never existed
 * (dangling) is skipped.
 */
export function listYamlFiles(root: string): Listing {
  const files: ListedFile[] = [];
  const problems: ListingProblem[] = [];
  const visited = new Set<string>();
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch (err) {
    return { files, problems: [vanished('.', 'the directory', err)] };
  }
  function visit(absolute: string, relativePath: string): void {
    let real: string;
    let entries;
    try {
      real = realpathSync(absolute);
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch (err) {
      problems.push(vanished(relativePath === '' ? '.' : relativePath, relativePath === '' ? 'the directory' : 'the folder', err));
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    entries.sort((a, b) => byName(a.name, b.name));
    for (const entry of entries) {
      const childAbsolute = join(absolute, entry.name);
      const childRelative = relativePath === '' ? entry.name : `${relativePath}/${entry.name}`;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      const skippedFolder = entry.name.startsWith('.') || entry.name === 'node_modules';
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          const info = statSync(childAbsolute);
          isDirectory = info.isDirectory();
          isFile = info.isFile();
          target = realpathSync(childAbsolute);
        } catch (err) {
          if (linkGone(childAbsolute)) problems.push(vanished(childRelative, 'the symbolic link', err));
          continue; // a dangling link: its target was never there
        }
        const read = (isDirectory && !skippedFolder) || (isFile && YAML_FILE.test(entry.name));
        if (read && !isInside(rootReal, target)) {
          problems.push({
            path: childRelative,
            message:
              `a symbolic link${linkText(childAbsolute)} to a ${isDirectory ? 'folder' : 'file'} outside the directory read: ` +
              'refused, only files inside it are read',
          });
          continue;
        }
      }
      if (isDirectory) {
        if (skippedFolder) continue;
        visit(childAbsolute, childRelative);
      } else if (isFile && YAML_FILE.test(entry.name)) {
        files.push({ path: childRelative, absolute: childAbsolute });
      }
    }
  }
  visit(root, '');
  return { files: files.sort((a, b) => byName(a.path, b.path)), problems };
}

/** The link itself is gone (lstat fails), not only its target. */
function linkGone(path: string): boolean {
  try {
    lstatSync(path);
    return false;
  } catch {
    return true;
  }
}

function stampText(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * The text of a file as it was read, read again: undefined when the file is no longer what was
 * read (another stamp: its change time moves with any write) or cannot be read.
 */
export function readAgain(file: ListedFile, stamp: string): string | undefined {
  const again = readText(file, Number.POSITIVE_INFINITY, true);
  return 'text' in again && again.stamp === stamp ? again.text : undefined;
}

/**
 * The file's stamp (device, inode, size, modification and change times to the nanosecond) and its
 * size, from one stat; undefined when it cannot be had (the read then says why).
 */
export function stampOf(file: ListedFile): (FileStamp & { bytes: number }) | undefined {
  try {
    const info = statSync(file.absolute, { bigint: true });
    return {
      stamp: stampText(info),
      changedMs: Number(info.ctimeMs),
      bytes: Number(info.size),
    };
  } catch {
    return undefined;
  }
}

export type FileText =
  /** `stamp`: the file's stamp as stampOf gives it, from the stat made before the read. */
  | { text: string; bytes: number; stamp?: string }
  | { error: string; line?: number; column?: number }
  /** The file would take the tree past its byte limit: not read. */
  | { overLimit: number };

/** Most files are smaller than this: read into one reused buffer, with no stat before. */
const SMALL_FILE_BYTES = 64 * 1024;
let scratch: Buffer | undefined;

/** The bytes of a file under SMALL_FILE_BYTES (in the shared scratch buffer: use before the next read), or undefined for a larger one. */
function readSmall(fd: number): Buffer | undefined {
  scratch ??= Buffer.allocUnsafe(SMALL_FILE_BYTES);
  // At given positions: the handle's own position stays at the start for a larger file's read.
  const bytes = readSync(fd, scratch, 0, SMALL_FILE_BYTES, 0);
  if (bytes === SMALL_FILE_BYTES || readSync(fd, scratch, bytes, SMALL_FILE_BYTES - bytes, bytes) !== 0) return undefined;
  return scratch.subarray(0, bytes);
}

/**
 * A file's text, or why it cannot be had. `budget` is how many bytes the tree may still read.
 * Synchronous on purpose: for hundreds of small files the thread-pool round trips of fs/promises
 * cost more than the reads. A small file is read without a stat (its size is what was read); a
 * larger one is measured before it is read, so a huge file is refused unread. `stamped`: with the
 * stamp stampOf would give, taken from the open handle before the read (no second look-up of the
 * path).
 */
export function readText(file: ListedFile, budget: number = Number.POSITIVE_INFINITY, stamped = false): FileText {
  let bytes: Buffer;
  let stamp: string | undefined;
  try {
    const fd = openSync(file.absolute, 'r');
    try {
      // Taken before the read: a file changed meanwhile has a stamp that is not this one.
      const info = stamped ? fstatSync(fd, { bigint: true }) : undefined;
      if (info) stamp = stampText(info);
      const small = readSmall(fd);
      if (small !== undefined) {
        bytes = small;
      } else {
        const size = Number((info ?? fstatSync(fd)).size);
        if (size > MAX_FILE_BYTES) return { error: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; split it into smaller files` };
        if (size > budget) return { overLimit: size };
        bytes = readFileSync(fd);
      }
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { error: `cannot be read${code ? ` (${code})` : ''}` };
  }
  if (bytes.length > budget) return { overLimit: bytes.length };
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return { text: decoded.text, bytes: bytes.length, ...(stamp === undefined ? {} : { stamp }) };
  const { line, column } = decoded.invalidAt;
  return { error: invalidUtf8Message(decoded.invalidAt), line, column };
}
