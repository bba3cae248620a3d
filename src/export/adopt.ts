// `wsync export` records what it exported as owned by wsync (unless --no-adopt), so that the next
// plan of the folder says "no changes". The rules of a writer apply: the state directory's lock,
// and the workspace's writer lease (another wsync writing the workspace refuses the adoption).
import { hostname } from 'node:os';
import type { ApiClient } from '../api/types.js';
import { TRUST_ON_FIRST_USE } from '../core/secret-hash.js';
import { WriterLease } from '../reconcile/writer-lease.js';
import { openState, readWriterId } from '../state/index.js';
import type { ExportResult } from './workspace.js';

export interface AdoptCounts {
  adopted: number;
  /** Renamed duplicates: their files hold a name the workspace does not, so they stay unowned. */
  skipped: number;
}

/**
 * Throws WriterLeaseError when another wsync (another state directory) writes the workspace:
 * checked before the files are written, so a refused export leaves nothing behind. Writes nothing.
 */
export async function checkWriterLease(stateDir: string, client: ApiClient, warn: (message: string) => void): Promise<void> {
  // A state directory not made yet has no id: any running lease is then another writer's.
  const id = (await readWriterId(stateDir)) ?? '';
  await new WriterLease(() => client, { id, host: hostname(), stateDir }, { warn }).check();
}

/** Records the exported objects in the inventory under `stateDir` (locked meanwhile). */
export async function adoptExported(stateDir: string, result: ExportResult, warn: (message: string) => void): Promise<AdoptCounts> {
  const state = await openState(stateDir, { lock: true, warn });
  const adopted = result.objects.filter((object) => !object.renamed);
  try {
    // Secret hashes stay empty: the values are not known until the next apply writes them.
    // Records made together share one write of the inventory.
    await Promise.all(
      adopted.map((object) =>
        state.record({
          kind: object.kind,
          key: object.key,
          id: object.id,
          ...(object.unreadSecrets.length > 0
            ? { secretHashes: Object.fromEntries(object.unreadSecrets.map((pointer) => [pointer, TRUST_ON_FIRST_USE])) }
            : {}),
        }),
      ),
    );
  } finally {
    await state.close();
  }
  return { adopted: adopted.length, skipped: result.objects.length - adopted.length };
}
