// POST /_emulator/stored: objects put into the workspace exactly as given, with no validation,
// defaults or reference checks: what the service holds although its API refuses it today (made by
// an older API, the UI or another channel: a monitor without `type`, a dashboard document with
// only a name, a notifier id nothing lists). Tests seed real workspaces' odd objects with it
// (docs/wire-contract.md "Test hooks").
import { Collection, type Stored } from './collection.js';
import { badRequest } from './errors.js';
import { isJsonObject } from './json.js';
import type { Workspace } from './store.js';

/** `{"<collection>": [{id, ...}]}` -> how many objects each collection took. */
export function putStored(workspace: Workspace, body: unknown): Record<string, number> {
  if (!isJsonObject(body)) throw badRequest('stored: the body must be {"<collection>": [{"id": "...", ...}]}');
  const collections = new Map<string, Collection>();
  for (const [key, value] of Object.entries(workspace)) if (value instanceof Collection) collections.set(key, value);
  const counts: Record<string, number> = {};
  // Checked whole before anything is stored: a bad body changes nothing.
  for (const [key, items] of Object.entries(body)) {
    if (!collections.has(key)) throw badRequest(`stored: unknown collection "${key}" (collections: ${[...collections.keys()].join(', ')})`);
    if (!Array.isArray(items) || !items.every((item) => isJsonObject(item) && typeof item.id === 'string' && item.id !== '')) {
      throw badRequest(`stored: "${key}" must be an array of objects, each with a string "id"`);
    }
  }
  for (const [key, items] of Object.entries(body)) {
    const collection = collections.get(key) as Collection;
    for (const item of items as Stored[]) collection.put(item);
    counts[key] = (items as Stored[]).length;
  }
  workspace.changed();
  return counts;
}
