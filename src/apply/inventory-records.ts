// What wsync owns, recorded as apply confirms each write: created and adopted objects with the
// keyed hashes of their secrets, objects that vanished forgotten, trusted secrets learnt.
import { TRUST_ON_FIRST_USE } from '../core/secret-hash.js';
import type { DesiredResource, InventoryEntry, KindName, LiveState } from '../core/types.js';
import { datasetOfKey } from '../kinds/common.js';
import { KINDS } from '../kinds/index.js';
import { isPruneDisabled } from '../plan/annotations.js';
import type { LiveById } from '../plan/live-index.js';
import { secretHashes } from '../plan/secrets.js';
import type { StateHandle } from '../state/index.js';

function slot(kind: KindName, id: string): string {
  return `${kind}\u0000${id}`;
}

export class InventoryRecords {
  /** Ids written (created, adopted, replaced) in this run: never dropped from the inventory. */
  private readonly touched = new Set<string>();
  /** Key of the secret hashes (read once: `state.inventory` copies every entry). */
  private readonly hashKey: string;

  constructor(
    private readonly state: StateHandle,
    private readonly declared: (kind: KindName, key: string) => DesiredResource | undefined,
  ) {
    this.hashKey = state.inventory.hashKey;
  }

  /** An object this run wrote: it stays in the inventory even if the live state had not listed it. */
  markTouched(kind: KindName, id: string): void {
    this.touched.add(slot(kind, id));
  }

  /** Records a confirmed write: the object is owned, with the same keyed hashes the planner compares. */
  recordOwned(kind: KindName, key: string, id: string, resource: DesiredResource): Promise<void> {
    const entry: InventoryEntry = { kind, key, id };
    const hashes = secretHashes(KINDS[kind], resource.spec, this.hashKey);
    if (Object.keys(hashes).length > 0) entry.secretHashes = hashes;
    if (isPruneDisabled(resource)) entry.pruneDisabled = true;
    this.markTouched(kind, id);
    return this.state.record(entry);
  }

  /** The inventory entry of an object, if wsync owns it. */
  entry(kind: KindName, id: string): InventoryEntry | undefined {
    return this.state.entryFor(kind, id);
  }

  /** Puts an entry back as it was (a replace the server refused). */
  restore(entry: InventoryEntry): Promise<void> {
    return this.state.record(entry);
  }

  /** Keeps an object replaced by a newer one of its key as owned, but retired: it works until `until`. */
  retire(kind: KindName, key: string, id: string, until: Date): Promise<void> {
    this.markTouched(kind, id);
    return this.state.record({ kind, key, id, retiredUntil: until.toISOString() });
  }

  forget(kind: KindName, id: string): Promise<void> {
    return this.state.forget(kind, id);
  }

  /**
   * Secrets that `export --adopt` marked as trusted (the API hides them) get their real hash once
   * the files declare them, with no write: from then on a rotation is an ordinary update.
   */
  async recordTrustedSecrets(): Promise<void> {
    const records: Promise<void>[] = [];
    for (const entry of [...this.state.inventory.entries]) {
      if (entry.secretHashes === undefined) continue;
      const trusted = Object.entries(entry.secretHashes).filter(([, hash]) => hash === TRUST_ON_FIRST_USE);
      if (trusted.length === 0 || this.touched.has(slot(entry.kind, entry.id))) continue;
      const resource = this.declared(entry.kind, entry.key);
      if (!resource) continue;
      const hashes = secretHashes(KINDS[entry.kind], resource.spec, this.hashKey);
      const learned = trusted.filter(([pointer]) => hashes[pointer] !== undefined);
      if (learned.length === 0) continue;
      const secretHashesNow = { ...entry.secretHashes };
      for (const [pointer] of learned) secretHashesNow[pointer] = hashes[pointer] as string;
      records.push(this.state.record({ ...entry, secretHashes: secretHashesNow }));
    }
    await Promise.all(records);
  }

  /**
   * Drops inventory entries whose objects were not in the live state of a kind that was read, and
   * were not written in this run: someone deleted them, and wsync owns nothing under those ids.
   */
  async dropVanished(live: LiveState, liveObjects: LiveById): Promise<void> {
    const listed = new Set(live.listedKinds);
    const forgets: Promise<void>[] = [];
    for (const entry of this.state.inventory.entries) {
      if (!listed.has(entry.kind)) continue;
      if (KINDS[entry.kind].list.style === 'per-dataset') {
        const dataset = datasetOfKey(entry.key);
        if (dataset === undefined || !(live.listedDatasets[entry.kind] ?? []).includes(dataset)) continue;
      }
      if (liveObjects.get(entry.kind, entry.id) !== undefined || this.touched.has(slot(entry.kind, entry.id))) continue;
      forgets.push(this.state.forget(entry.kind, entry.id));
    }
    await Promise.all(forgets);
  }
}
