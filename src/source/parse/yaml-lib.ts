import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

const require = createRequire(import.meta.url);
let loaded: typeof YamlModule | undefined;

/**
 * The `yaml` library, loaded on first use: loading it is a visible share of a short run
 * (docs/incremental.md, "Figures behind the code"), and a clean tree without wsync.yaml never
 * needs it (the fast path reads it, see fast-document.ts).
 */
export function yamlLibrary(): typeof YamlModule {
  return (loaded ??= require('yaml') as typeof YamlModule);
}

/**
 * yaml looks up process.env.LOG_TOKENS for every lexeme it reads; process.env is a getenv call on
 * each access, a large share of the parse (docs/incremental.md, "Figures behind the code"). For the
 * (synchronous) parse a plain object with yaml's two debug switches stands in for it; the real one
 * is back before anything else runs.
 */
export function withPlainEnv<T>(run: () => T): T {
  const real = process.env;
  const plain: NodeJS.ProcessEnv = {};
  if (real.LOG_TOKENS !== undefined) plain.LOG_TOKENS = real.LOG_TOKENS;
  if (real.LOG_STREAM !== undefined) plain.LOG_STREAM = real.LOG_STREAM;
  process.env = plain;
  try {
    return run();
  } finally {
    process.env = real;
  }
}
