import type { Desired, JsonObject, KindName, LiveState } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { ResolveId, ResolveName } from '../kinds/types.js';
import { indexLive, LiveById } from '../plan/live-index.js';
import type { PlanMemo } from '../plan/plan-memo.js';
import { nameIndexFrom, type NameIndex } from '../plan/references.js';

function slot(kind: KindName, id: string): string {
  return `${kind}\u0000${id}`;
}

/**
 * Natural key <-> id of every object apply knows about: the planner's index of the live state
 * (same ambiguity rules), extended with the objects created in this run, so a monitor created in
 * the same run as its notifier gets the notifier's new id.
 */
export class KeyIdIndex {
  private readonly names: NameIndex;
  private readonly liveKeyOf: ResolveId;
  /** Ids of live objects and of objects created in this run -> their natural key. */
  private readonly created = new Map<string, string>();
  /** The live objects as the plan saw them (WriteChannel puts one read again after a stale write here). */
  readonly liveObjects: LiveById;

  /** `memo`: the planner's, whose reading of the live objects this reuses (the daemon's). */
  constructor(desired: Desired, live: LiveState, memo?: PlanMemo) {
    const index = indexLive(live, memo);
    this.names = nameIndexFrom(desired, index);
    this.liveKeyOf = index.resolveId;
    this.liveObjects = new LiveById(index);
  }

  /** An object created (or regenerated) in this run: it is the one object of its key now. */
  set(kind: KindName, key: string, id: string, previousId?: string): void {
    if (previousId !== undefined) this.created.delete(slot(kind, previousId));
    this.names.set(kind, key, id);
    this.created.set(slot(kind, id), key);
  }

  /** Was this id live when the plan was made, or written in this run? */
  knows(kind: KindName, id: string): boolean {
    return this.liveObjects.get(kind, id) !== undefined || this.created.has(slot(kind, id));
  }

  readonly resolveName: ResolveName = (target, name) => this.names.resolve(target, name);

  readonly resolveId: ResolveId = (target, id) => this.created.get(slot(target, id)) ?? this.liveKeyOf(target, id);

  /** The natural key of a wire object (from a list made during apply). */
  keyOfWire(kind: KindName, raw: JsonObject): string {
    const module = KINDS[kind];
    const { name, spec } = module.fromWire(raw, this.resolveId);
    return module.keyOf(name, spec);
  }
}
