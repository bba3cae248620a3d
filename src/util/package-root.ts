import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json and schemas/, whether running from src/ (tests) or dist/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('wsync: cannot find the package root (package.json)');
    dir = parent;
  }
  return dir;
}

export function schemaDir(): string {
  return join(packageRoot(), 'schemas');
}
