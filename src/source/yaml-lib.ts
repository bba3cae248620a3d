import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

const require = createRequire(import.meta.url);
let loaded: typeof YamlModule | undefined;

/**
 * The `yaml` library, loaded on first use: loading it costs a tenth of a second, and a clean tree
 * without wsync.yaml never needs it (the fast path reads it, see fast-document.ts).
 */
export function yamlLibrary(): typeof YamlModule {
  return (loaded ??= require('yaml') as typeof YamlModule);
}
