// Live objects no file declares: deleted when prune says so, else left alone; and wsync's own
// replaced objects whose grace period ended.
import { changeRef, type Change, type Diagnostic, type Inventory, type InventoryEntry, type KindName, type LiveObject, type LiveState, type Policy } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import { ambiguityReason, isServiceManaged, OBSERVE_REASON, reasons } from './declared.js';
import type { LiveEntry } from './live-index.js';
import { missingDeletionOptIn, pruneReason, type Ownership } from './ownership.js';

/** What the plan of an undeclared object reads. */
export interface UndeclaredContext {
  ownership: Ownership;
  policy: Policy;
  /** `Kind/key` of the resources the change removes (`plan --base`), and how the base is named. */
  removed: ReadonlySet<string>;
  baseLabel: string;
  diagnostics: Diagnostic[];
  now?: Date;
}

/** Why an object the change removes stays in the workspace. */
function keptReason(kind: KindName, entry: InventoryEntry | undefined): string {
  if (entry?.pruneDisabled) return 'removed by this change; not deleted: it carries wsync/prune: disabled';
  if (!KINDS[kind].remove) return `removed by this change; not deleted: ${kind} objects cannot be deleted through the API`;
  return 'removed by this change; not deleted: prune is off (--prune deletes it)';
}

/** Why an owned object no file declares stays in the workspace. */
function noLongerDeclaredReason(kind: KindName, entry: InventoryEntry | undefined): string {
  if (entry?.pruneDisabled) return 'no longer declared: kept, it carries wsync/prune: disabled';
  if (!KINDS[kind].remove) return `no longer declared: kept, ${kind} objects cannot be deleted through the API`;
  return 'no longer declared: kept, --prune deletes it';
}

/** Live objects whose key no file declares: deleted when prune says so, else left alone (an owned one is shown). */
export function planUndeclared(kind: KindName, all: readonly LiveEntry[], ctx: UndeclaredContext): Change | undefined {
  const module = KINDS[kind];
  // What the service manages itself is never pruned, whatever the policy.
  const entries = all.filter((e) => !isServiceManaged(module, e));
  const why = entries.map((e) => pruneReason(kind, ctx.ownership.entryFor(kind, e.object.id), ctx.policy));
  const [first] = entries;
  if (!first) return undefined;
  const byChange = ctx.removed.has(changeRef(kind, first.key));
  const base: Change = {
    kind,
    key: first.key,
    name: first.name,
    action: 'delete',
    diffs: [],
    dependsOn: [],
    level: module.level,
    owned: false,
    ...(byChange ? { removedByChange: true } : {}),
  };
  if (why.every((r) => r === undefined)) {
    if (entries.length > 1) return undefined;
    const entry = ctx.ownership.entryFor(kind, first.object.id);
    // An owned object the files no longer declare is always shown, deleted or not.
    if (!byChange && entry === undefined) return undefined;
    const reason = byChange ? keptReason(kind, entry) : noLongerDeclaredReason(kind, entry);
    return { ...base, id: first.object.id, owned: entry !== undefined, action: 'skipped', reason };
  }
  const reason = byChange ? `declared in ${ctx.baseLabel} and removed by this change` : why[0];
  if (entries.length > 1) {
    const ambiguous = ambiguityReason(entries);
    ctx.diagnostics.push({ severity: 'warning', code: 'ambiguous', kind, name: first.name, message: ambiguous });
    return { ...base, action: 'skipped', reason: ambiguous };
  }
  const owned = ctx.ownership.entryFor(kind, first.object.id) !== undefined;
  if (ctx.policy.mode === 'observe') {
    return { ...base, id: first.object.id, owned, action: 'skipped', reason: `${OBSERVE_REASON} (would delete: ${reason})` };
  }
  const optIn = missingDeletionOptIn(module, ctx.policy);
  if (optIn !== undefined) return { ...base, id: first.object.id, owned, action: 'skipped', reason: `${reason}; not deleted: ${optIn}` };
  return { ...base, id: first.object.id, owned, ...reasons(reason), ...warned(module) };
}

/** The loud warning a delete of this kind carries (a dataset's data goes with it), if any. */
function warned(module: KindModule): { warning?: string } {
  return module.deletionWarning === undefined ? {} : { warning: module.deletionWarning };
}

/**
 * The live state without the objects the inventory marks retired (an API token replaced by a newer
 * one of the same name, still working for its grace period): they are no second object of the key.
 */
export function withoutRetired(live: LiveState, inventory: Inventory): { live: LiveState; retired: { object: LiveObject; until: string }[] } {
  const until = new Map(inventory.entries.filter((e) => e.retiredUntil !== undefined).map((e) => [`${e.kind}\u0000${e.id}`, e.retiredUntil ?? '']));
  if (until.size === 0) return { live, retired: [] };
  const objects: LiveState['objects'] = {};
  const retired: { object: LiveObject; until: string }[] = [];
  for (const kind of KIND_NAMES) {
    const list = live.objects[kind];
    if (!list) continue;
    objects[kind] = list.filter((object) => {
      const end = until.get(`${kind}\u0000${object.id}`);
      if (end !== undefined) retired.push({ object, until: end });
      return end === undefined;
    });
  }
  return { live: { ...live, objects }, retired };
}

/**
 * A retired object still listed after its grace period: deleted, as nothing should use it any more
 * (and a regenerate that never reached the server left the old object working).
 */
export function planRetired(object: LiveObject, until: string, ctx: Pick<UndeclaredContext, 'now' | 'policy'>): Change | undefined {
  if (!ctx.now || Date.parse(until) > ctx.now.getTime() || ctx.policy.mode === 'observe') return undefined;
  const module = KINDS[object.kind];
  if (!module.remove) return undefined;
  const { name } = module.fromWire(object.raw, () => undefined);
  return {
    kind: object.kind,
    key: `${module.keyOf(name, {})} (retired ${object.id})`,
    name,
    id: object.id,
    action: 'delete',
    reason: `replaced by a newer ${object.kind}; its grace period ended at ${until}`,
    diffs: [],
    dependsOn: [],
    level: module.level,
    owned: true,
  };
}

