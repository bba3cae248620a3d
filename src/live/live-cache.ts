// The daemon's live read, kept between reconciles (docs/incremental.md): a reconcile that follows a
// file edit reuses the lists of the last read while they are younger than maxAgeMs, and lists only
// what it has not read yet; after its own writes the daemon reads back the objects it wrote (or
// lists their kinds again) and lists the kinds that refer to them, so the cache holds what a full
// read would find, objects that did not change keeping their identity (the planner's memo is
// keyed by them).
import type { ApiClient } from '../api/types.js';
import { jsonEqual } from '../core/json.js';
import type { KindName, LiveObject, LiveState } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { listOneDataset, listWhole, readLive, readOne, type LiveStore } from './read.js';
import type { LiveScope } from './scope.js';

/** How long the daemon reuses a live read for edits; its schedule (every 5 minutes by default) reads everything anyway. */
export const DEFAULT_LIVE_REUSE_MS = 5 * 60_000;

/**
 * Up to this many objects of a kind written in one reconcile are read back one by one; more, and
 * one list of the kind costs less than their requests.
 */
export const READ_BACK_LIMIT = 25;

/** An object a reconcile wrote: its kind and its id after the write (absent when unknown). */
export interface WrittenObject {
  kind: KindName;
  id?: string;
}

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
   * Brings the cache up to date after `written` were written: a few objects of a kind that can be
   * read one at a time are read back, other written kinds are listed again, and so are the kinds
   * whose objects refer to a written kind (a reference is an id the server may rewrite). A request
   * that fails forgets everything.
   */
  async refresh(client: ApiClient, written: readonly WrittenObject[]): Promise<void> {
    const store = this.store;
    if (!store || written.length === 0) return;
    const writtenKinds = new Set(written.map((w) => w.kind));
    const refersToWritten = (kind: KindName): boolean => KINDS[kind].references.some((r) => writtenKinds.has(r.target));
    const kinds = KIND_NAMES.filter((kind) => writtenKinds.has(kind) || refersToWritten(kind));
    // A write may add a dataset: the names are listed again when needed.
    delete store.datasetNames;
    try {
      await Promise.all(
        kinds.map(async (kind) => {
          const whole = store.whole.get(kind);
          if (whole) {
            const ids = refersToWritten(kind) ? undefined : readBackIds(kind, written);
            store.whole.set(kind, ids ? await readBack(client, kind, whole, ids) : keepIdentity(whole, await listWhole(client, kind)));
          }
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

/** The ids of `kind` to read back one by one; undefined when the kind is better listed again. */
function readBackIds(kind: KindName, written: readonly WrittenObject[]): Set<string> | undefined {
  if (KINDS[kind].read === undefined) return undefined;
  const ids = new Set<string>();
  for (const object of written) {
    if (object.kind !== kind) continue;
    if (object.id === undefined) return undefined;
    ids.add(object.id);
  }
  return ids.size <= READ_BACK_LIMIT ? ids : undefined;
}

/**
 * The list held before with the objects `ids` read again: in their place when they were there
 * (kept as they were when unchanged), after the others when they are new (created).
 */
async function readBack(client: ApiClient, kind: KindName, before: readonly LiveObject[], ids: ReadonlySet<string>): Promise<LiveObject[]> {
  const fresh = new Map((await Promise.all([...ids].map((id) => readOne(client, kind, id)))).map((object) => [object.id, object]));
  const next = before.map((object) => {
    const read = fresh.get(object.id);
    if (read === undefined) return object;
    fresh.delete(object.id);
    return unlessUnchanged(read, object);
  });
  return [...next, ...fresh.values()];
}

/** The fresh list, with the objects it holds unchanged kept as the very objects held before. */
function keepIdentity(before: readonly LiveObject[], fresh: readonly LiveObject[]): LiveObject[] {
  const byId = new Map(before.map((object) => [object.id, object]));
  return fresh.map((object) => unlessUnchanged(object, byId.get(object.id)));
}

/** The object held before when the fresh one says the same (the planner's memo is keyed by it), else the fresh one. */
function unlessUnchanged(fresh: LiveObject, held: LiveObject | undefined): LiveObject {
  return held !== undefined && jsonEqual(held.raw, fresh.raw) ? held : fresh;
}

