// Where things are in the repository, for tests that run files rather than import them.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The real CLI; it loads dist/bundle/ (and dist/), so `npm run build` must have run. */
export const BIN = join(ROOT, 'bin', 'wsync.js');
export const EXAMPLES_DIR = join(ROOT, 'config-examples');
/** The emulator seed `npm run demo` uses: datasets checkout, http-logs and payments with fields. */
export const DEMO_SEED_FILE = join(ROOT, 'scripts', 'demo-seed.json');

let built = false;

/** Fails with what to do when dist/ is missing, instead of a confusing import error in a child. */
export function assertBuilt(): void {
  if (built) return;
  if (!existsSync(join(ROOT, 'dist', 'bundle', 'wsync.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  built = true;
}
