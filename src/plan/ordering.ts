// Writes run level by level (roles and notifiers before the users and monitors that need them);
// deletes run after every write, in the reverse order.
import { compareText } from '../core/json.js';
import type { Change } from '../core/types.js';
import { KIND_NAMES } from '../kinds/index.js';

export interface Ordered {
  change: Change;
  /** The change is about an undeclared live object (a delete, or one that prune would delete). */
  removal: boolean;
}

/** A kind's place in KIND_NAMES: the sort compares some 130,000 pairs at 10,000 changes. */
const KIND_RANK = new Map(KIND_NAMES.map((kind, i) => [kind, i]));
const kindIndex = (c: Change): number => KIND_RANK.get(c.kind) ?? -1;

export function orderChanges(items: readonly Ordered[]): Change[] {
  return [...items]
    .sort((a, b) => {
      if (a.removal !== b.removal) return a.removal ? 1 : -1;
      const x = a.change;
      const y = b.change;
      if (a.removal) {
        return y.level - x.level || kindIndex(y) - kindIndex(x) || compareText(x.key, y.key) || compareText(x.id ?? '', y.id ?? '');
      }
      return x.level - y.level || kindIndex(x) - kindIndex(y) || compareText(x.key, y.key);
    })
    .map((item) => item.change);
}
