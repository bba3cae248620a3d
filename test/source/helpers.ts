// Reading YAML text as the source layer does, for the source tests (trees on disk: test/support/tree.ts).
import type { Desired, Diagnostic } from '../../src/core/types.js';
import { desiredFromTexts, type ReadOptions } from '../../src/source/index.js';

/** One file's worth of YAML read as if from a directory. */
export function readOne(text: string, options: ReadOptions = {}, path = 'r.yaml'): Desired {
  return desiredFromTexts([{ path, text }], { env: {}, ...options });
}

export function errorsOf(desired: Desired): Diagnostic[] {
  return desired.diagnostics.filter((d) => d.severity === 'error');
}

// LEGACY re-exports for tests written before test/support/; new tests import these from there.
export { makeTree } from '../support/tree.js';
export { doc } from '../support/yaml.js';
