// The daemon's live read, kept between reconciles (docs/incremental.md): a reconcile that follows a
// file edit reuses the lists of the last read while they are younger than maxAgeMs, and lists only
// what it has not read yet; after its own writes the daemon lists the written kinds again (and
// the kinds that refer to them), so the cache holds what a full read would find, objects that did
// not change keeping their identity (the planner's memo is keyed by them).
import type { ApiClient } from '../api/types.js';
import { jsonEqual } from '../core/json.js';
import type { JsonObject, KindName, LiveObject, LiveState } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { listOneDataset, listWhole, readLive, type LiveStore } from './read.js';
import type { LiveScope } from './scope.js';

/** How long the daemon reuses a live read for edits; its schedule (every 5 minutes by default) reads everything anyway. */
export const DEFAULT_LIVE_REUSE_MS = 5 * 60_000;

export interface LiveCacheOptions {
  /** How long lists may be reused; 0: every read lists everything. */
  maxAgeMs: number;
  clock?: () => number;
}

export class LiveCache {
  private store: LiveStore | undefined;
  private readAtMs = 0;
  private readonly clock: () => number;

  constructor(private readonly options: LiveCacheOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Forgets every list: the next read lists everything (a resync, a failed write, a restart). */
  invalidate(): void {
    this.store = undefined;
  }

  /** The live state of `scope`; `reused` when lists of an earlier read served it. */
  async read(client: ApiClient, scope: LiveScope): Promise<{ live: LiveState; reused: boolean }> {
    const now = this.clock();
    const reused = this.store !== undefined && now - this.readAtMs < this.options.maxAgeMs;
    if (!reused) {
      this.store = { whole: new Map(), perDataset: new Map() };
      this.readAtMs = now;
    }
    return { live: await readLive(client, scope, this.store), reused };
  }

  /**
   * Lists again, after writes to `written`, those kinds and the kinds whose objects refer to them
   * (a reference is an id the server may rewrite). A list that fails forgets everything.
   */
  async refresh(client: ApiClient, written: ReadonlySet<KindName>): Promise<void> {
    const store = this.store;
    if (!store || written.size === 0) return;
    const kinds = KIND_NAMES.filter((kind) => written.has(kind) || KINDS[kind].references.some((r) => written.has(r.target)));
    // A write may add a dataset: the names are listed again when needed.
    delete store.datasetNames;
    try {
      await Promise.all(
        kinds.map(async (kind) => {
          const whole = store.whole.get(kind);
          if (whole) store.whole.set(kind, keepIdentity(whole, await listWhole(client, kind)));
          const perDataset = store.perDataset.get(kind);
          for (const [dataset, kept] of perDataset ?? []) {
            const fresh = await listOneDataset(client, kind, dataset);
            perDataset?.set(dataset, keepIdentity(kept, fresh));
          }
        }),
      );
    } catch (err) {
      this.invalidate();
      throw err;
    }
  }
}

/** The fresh list, with the objects it holds unchanged kept as the very objects held before. */
function keepIdentity(before: readonly LiveObject[], fresh: readonly LiveObject[]): LiveObject[] {
  const byId = new Map(before.map((object) => [object.id, object]));
  return fresh.map((object) => {
    const old = byId.get(object.id);
    return old !== undefined && sameRaw(old.raw, object.raw) ? old : object;
  });
}

/** Equal wire objects: the same text is the common case (the service answers keys in one order), checked first as it is cheap. */
function sameRaw(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || jsonEqual(a, b);
}
