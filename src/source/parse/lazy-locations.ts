import type { SourceLocation } from '../../core/types.js';

type Locations = Record<string, SourceLocation>;

/** What computes the location maps of one file's documents (all of them at once, when first asked). */
export interface LocationSource {
  locationsAt(startOffset: number, start: SourceLocation): Locations;
}

/** Behind each proxy: where to get the record from, and the record once it has been got. */
class Pending {
  filled: Locations | undefined;

  constructor(
    readonly source: LocationSource,
    readonly startOffset: number,
    readonly start: SourceLocation,
  ) {}
}

function filled(target: Pending): Locations {
  return (target.filled ??= target.source.locationsAt(target.startOffset, target.start));
}

const handler: ProxyHandler<Pending> = {
  get: (target, key) => Reflect.get(filled(target), key),
  has: (target, key) => Reflect.has(filled(target), key),
  ownKeys: (target) => Reflect.ownKeys(filled(target)),
  getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(filled(target), key),
  set: (target, key, value) => Reflect.set(filled(target), key, value),
  deleteProperty: (target, key) => Reflect.deleteProperty(filled(target), key),
  defineProperty: (target, key, descriptor) => Reflect.defineProperty(filled(target), key, descriptor),
  getPrototypeOf: (target) => Reflect.getPrototypeOf(filled(target)),
};

/**
 * A document's location map, computed on first use. To its readers it is an ordinary record (index
 * it, list its keys, compare it, spread it); a tree with nothing to report never pays for it.
 */
export function locationsOnDemand(source: LocationSource, startOffset: number, start: SourceLocation): Locations {
  return new Proxy(new Pending(source, startOffset, start), handler) as unknown as Locations;
}
