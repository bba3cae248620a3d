import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { makePrivateDir } from './directory.js';

/** A token name as a file name: no separators, no leading dot, nothing a shell would trip on. */
export function tokenFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return safe === '' ? '_' : safe;
}

/**
 * Writes an API token's secret to `<dir>/<name>` (mode 0600, atomically) and returns the path.
 * The secret is the file's only content, with a trailing newline, so `$(cat file)` gives it back.
 */
export async function writeTokenSecret(dir: string, name: string, secret: string): Promise<string> {
  // 0700 with a .gitignore of *, wherever --token-output-dir points.
  await makePrivateDir(dir);
  const path = join(dir, tokenFileName(name));
  await writeFileAtomic(path, `${secret}\n`, 0o600);
  return path;
}
