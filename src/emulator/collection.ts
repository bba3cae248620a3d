// One kind's objects, keyed by id, in creation order (a Map keeps insertion order and an update in
// place keeps the position), with the cached JSON of their wire views. No HTTP here.
import type { JsonObject } from './json.js';

/** A stored object: its wire fields plus the server-assigned `id`. */
export type Stored = JsonObject & { id: string };

export class Collection<T extends Stored = Stored> {
  private readonly items = new Map<string, T>();
  // The JSON text of each object's wire view, so a list of 10,000 monitors is a join, not a
  // serialization. Dropped whenever the object changes.
  private readonly viewCache = new Map<string, string>();
  // The encoded JSON of the whole unfiltered list, until the next change: a repeated list of
  // 10,000 monitors is then one socket write, with no encoding.
  private listCache: Buffer | undefined;

  constructor(
    private readonly view: (item: T) => JsonObject,
    private readonly cacheViews = true,
  ) {}

  get size(): number {
    return this.items.size;
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  put(item: T): void {
    this.items.set(item.id, item);
    this.viewCache.delete(item.id);
    this.listCache = undefined;
  }

  delete(id: string): boolean {
    this.viewCache.delete(id);
    this.listCache = undefined;
    return this.items.delete(id);
  }

  /** Forget cached views, for when a view depends on another collection that changed. */
  invalidateViews(): void {
    this.viewCache.clear();
    this.listCache = undefined;
  }

  viewOf(item: T): JsonObject {
    return this.view(item);
  }

  viewJson(item: T): string {
    if (!this.cacheViews) return JSON.stringify(this.view(item));
    let json = this.viewCache.get(item.id);
    if (json === undefined) {
      json = JSON.stringify(this.view(item));
      this.viewCache.set(item.id, json);
    }
    return json;
  }

  /** The JSON array of the given items' views; of every item, in creation order, when none given. */
  listJson(items?: Iterable<T>): string | Buffer {
    if (items === undefined && this.cacheViews) {
      this.listCache ??= Buffer.from(this.joinViews(this.items.values()));
      return this.listCache;
    }
    return this.joinViews(items ?? this.items.values());
  }

  private joinViews(items: Iterable<T>): string {
    const parts: string[] = [];
    for (const item of items) parts.push(this.viewJson(item));
    return `[${parts.join(',')}]`;
  }
}
