// Issue markers (`TOKEN_DIR/.NAME.pending`, src/state/tokens.ts) of API tokens no file declares any
// more: a run stopped while issuing one, and then its declaration went. Nothing plans with such a
// marker, so it would lie there unseen while the token it stands for may exist in the workspace.
import { changeRef, type Desired, type Inventory } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import { clearIssuePending, issueMarkerNames, tokenFileName } from '../state/index.js';

export interface StrayMarkerOptions {
  /** The inventory as a writing run holds it (under the state lock): only then is a marker removed. */
  inventory: Inventory | undefined;
  /** What the whole inventory owns, for the report of a plan that does not write. */
  owned: Inventory;
  warn: (message: string) => void;
}

/**
 * Markers of undeclared tokens: one whose token the inventory owns vouches for nothing more (the
 * inventory says it is wsync's) and a writing run removes it; any other is reported, at every plan
 * and apply, with what to do: the token it stands for may exist in the workspace, issued by the
 * stopped run and owned by nobody.
 */
export async function strayIssueMarkers(desired: Desired, dir: string, options: StrayMarkerOptions): Promise<void> {
  const markers = await issueMarkerNames(dir);
  if (markers.length === 0) return;
  const issuing = Object.values(KINDS).filter((module) => module.issuedSecret !== undefined);
  const declared = new Set(desired.resources.filter((r) => KINDS[r.kind].issuedSecret !== undefined).map((r) => tokenFileName(r.name)));
  const ownedBy = new Map<string, string>();
  for (const entry of options.owned.entries) {
    if (entry.retiredUntil === undefined && issuing.some((m) => m.kind === entry.kind)) ownedBy.set(tokenFileName(entry.key), changeRef(entry.kind, entry.key));
  }
  for (const marker of markers) {
    if (declared.has(marker)) continue;
    const owner = ownedBy.get(marker);
    if (owner !== undefined && options.inventory) {
      await clearIssuePending(dir, marker);
      continue;
    }
    options.warn(
      owner !== undefined
        ? `${dir}/.${marker}.pending: an issue of ${owner}, which no file declares any more, was stopped; the inventory owns the token, and the next apply removes the marker`
        : `${dir}/.${marker}.pending: an issue of the API token "${marker}", which no file declares any more, was stopped before the token was recorded: ` +
            'a token of that name may exist in the workspace, owned by nobody. Declare it again to take it back (plan regenerates its secret), ' +
            'or delete it in the workspace; then remove this marker.',
    );
  }
}
