// `wsync export --adopt`: the exported objects become owned by wsync.
import { TRUST_ON_FIRST_USE } from '../core/secret-hash.js';
import { openState } from '../state/index.js';
import type { ExportResult } from './workspace.js';

export interface AdoptCounts {
  adopted: number;
  /** Renamed duplicates: their files hold a name the workspace does not, so they stay unowned. */
  skipped: number;
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
