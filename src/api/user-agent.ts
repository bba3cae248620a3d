import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

let cached: string | undefined;

/** `wsync/<version>` from package.json, read once. */
export function userAgent(): string {
  if (cached === undefined) {
    let version = '0.0.0';
    try {
      const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string') version = pkg.version;
    } catch {
      // A missing package.json must not stop requests; the header is informational.
    }
    cached = `wsync/${version}`;
  }
  return cached;
}
