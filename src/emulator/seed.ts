// The seed-file format (docs/wire-contract.md "Test hooks"): one array per kind, each object in its
// wire shape, `id` optional. Used by --seed-file, --state, POST /_emulator/seed and
// GET /_emulator/state. Seeds go through the same validation and reference checks as the API.
import { badRequest } from './errors.js';
import { isJsonObject, type JsonObject } from './json.js';
import { KIND_MODULES } from './kinds/index.js';
import type { Workspace } from './store.js';

export const SEED_KEYS = KIND_MODULES.flatMap((module) => (module.seed ? [module.seed.key] : []));

/** Adds the seed's objects to the workspace; returns how many of each kind it imported. */
export function importSeed(workspace: Workspace, seed: unknown, source: string): Record<string, number> {
  if (!isJsonObject(seed)) throw badRequest(`${source}: a seed must be a JSON object of arrays`);
  for (const key of Object.keys(seed)) {
    if (!SEED_KEYS.includes(key)) {
      throw badRequest(`${source}: unknown key "${key}" (expected some of: ${SEED_KEYS.join(', ')})`);
    }
  }
  const now = new Date().toISOString();
  const counts: Record<string, number> = {};
  for (const module of KIND_MODULES) {
    if (!module.seed) continue;
    const { key, importItem } = module.seed;
    const items = seed[key];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw badRequest(`${source}: "${key}" must be an array`);
    items.forEach((item, index) => {
      const label = `${source}: ${key}[${index}]`;
      if (!isJsonObject(item)) throw badRequest(`${label}: must be an object`);
      importItem(workspace, item, label, now);
    });
    counts[key] = items.length;
  }
  for (const module of KIND_MODULES) module.seed?.verify?.(workspace, source);
  workspace.changed();
  return counts;
}

/** The whole workspace in the seed-file format, secrets included (it is what --state writes). */
export function exportSeed(workspace: Workspace): JsonObject {
  const out: JsonObject = {};
  for (const module of KIND_MODULES) {
    if (module.seed) out[module.seed.key] = module.seed.dump(workspace);
  }
  return out;
}
