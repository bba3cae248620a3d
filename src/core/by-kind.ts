// Values by kind, then by a key or an id. The planner, the reference check and apply look up every
// one of 10,000 resources at each reconcile: a map per kind needs no key string built per lookup
// (building `Kind\0key` strings was a measurable share of a plan).
import type { KindName } from './types.js';

export class ByKind<V> {
  private readonly byKind = new Map<KindName, Map<string, V>>();
  /** Entries over all kinds. */
  size = 0;

  get(kind: KindName, key: string): V | undefined {
    return this.byKind.get(kind)?.get(key);
  }

  has(kind: KindName, key: string): boolean {
    return this.byKind.get(kind)?.has(key) === true;
  }

  set(kind: KindName, key: string, value: V): void {
    let map = this.byKind.get(kind);
    if (!map) this.byKind.set(kind, (map = new Map()));
    const before = map.size;
    map.set(key, value);
    this.size += map.size - before;
  }

  delete(kind: KindName, key: string): void {
    if (this.byKind.get(kind)?.delete(key)) this.size--;
  }

  keys(kind: KindName): Iterable<string> {
    return this.byKind.get(kind)?.keys() ?? [];
  }

  /** Every value, kind by kind. */
  *values(): IterableIterator<V> {
    for (const map of this.byKind.values()) yield* map.values();
  }

  /** A copy that changes apart from this one. */
  copy(): ByKind<V> {
    const out = new ByKind<V>();
    for (const [kind, map] of this.byKind) out.byKind.set(kind, new Map(map));
    out.size = this.size;
    return out;
  }

  /** The same entries with the same values (compared with ===). */
  equals(other: ByKind<V>): boolean {
    if (this.size !== other.size) return false;
    for (const [kind, map] of this.byKind) for (const [key, value] of map) if (other.get(kind, key) !== value) return false;
    return true;
  }
}
