import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

let cached: string | undefined;

/** The version in package.json, read once; `0.0.0` when it cannot be read (it only labels things). */
export function packageVersion(): string {
  if (cached === undefined) {
    cached = '0.0.0';
    try {
      const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string') cached = pkg.version;
    } catch {
      // Informational only: a missing package.json must not stop anything.
    }
  }
  return cached;
}
