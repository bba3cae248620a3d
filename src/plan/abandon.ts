// `wsync/mode: abandon`: wsync stops managing an object without deleting it (docs/design.md).
import type { Change, Policy } from '../core/types.js';

const ABANDONED = 'abandoned (wsync/mode: abandon)';

/**
 * The change of a declaration that says `wsync/mode: abandon`: an owned live object leaves the
 * inventory and stays live (apply writes only the inventory); anything else is left as it is.
 * Nothing is compared or written to the object, so its spec may have drifted.
 */
export function planAbandoned(change: Change, liveId: string | undefined, owned: boolean, policy: Pick<Policy, 'mode'>, observeReason: string): Change {
  if (liveId === undefined) return { ...change, action: 'noop', reason: `${ABANDONED}: does not exist live, so nothing to do; never created` };
  const live = { ...change, id: liveId, owned };
  if (!owned) return { ...live, action: 'noop', reason: `${ABANDONED}: stays live, not owned by wsync: never written or deleted` };
  const what = 'stays live, no longer owned: apply drops it from the inventory, and removing the declaration then never deletes it';
  if (policy.mode === 'observe') return { ...live, action: 'skipped', reason: `${observeReason} (would abandon: ${what})` };
  return { ...live, action: 'abandon', reason: `${ABANDONED}: ${what}` };
}
