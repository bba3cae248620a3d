import type { SourceLocation } from '../core/types.js';

type Locations = Record<string, SourceLocation>;

/** What fills a record that nobody has read yet. */
const pending = new WeakMap<Locations, () => Locations>();

/** Fills the record on first use; from then on it is an ordinary object behind the proxy. */
function filled(target: Locations): Locations {
  const compute = pending.get(target);
  if (compute !== undefined) {
    pending.delete(target);
    Object.assign(target, compute());
  }
  return target;
}

const handler: ProxyHandler<Locations> = {
  get: (target, key) => Reflect.get(filled(target), key),
  has: (target, key) => Reflect.has(filled(target), key),
  ownKeys: (target) => Reflect.ownKeys(filled(target)),
  getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(filled(target), key),
  set: (target, key, value) => Reflect.set(filled(target), key, value),
  deleteProperty: (target, key) => Reflect.deleteProperty(filled(target), key),
  defineProperty: (target, key, descriptor) => Reflect.defineProperty(filled(target), key, descriptor),
};

/**
 * A location map computed on first use. To its readers it is an ordinary record (index it, list
 * its keys, compare it, spread it); a tree with nothing to report never pays for it.
 */
export function locationsOnDemand(compute: () => Locations): Locations {
  const target: Locations = {};
  pending.set(target, compute);
  return new Proxy(target, handler);
}
