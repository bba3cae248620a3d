// Live objects seen through their kind modules: wire shape -> (name, spec, natural key).
import { ByKind } from '../core/by-kind.js';
import { compareText } from '../core/json.js';
import { type JsonObject, type KindName, type LiveObject, type LiveState } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import type { ResolveId } from '../kinds/types.js';
import type { MemoizedEntry, PlanMemo } from './plan-memo.js';

export interface LiveEntry {
  kind: KindName;
  object: LiveObject;
  /** metadata.name as the kind module reads it from the wire. */
  name: string;
  /** The spec as fromWire gives it: ids already turned into names. */
  spec: JsonObject;
  key: string;
}

export interface LiveIndex {
  /** kind -> natural key -> live objects with that key (more than one: ambiguous). */
  byKey: Map<KindName, Map<string, LiveEntry[]>>;
  /** kind -> id -> the live object's entry (apply looks up what it writes here). */
  byId: ByKind<LiveEntry>;
  /** Every live object, kinds in KIND_NAMES order, ids sorted within a kind. */
  entries: LiveEntry[];
  resolveId: ResolveId;
}

/** (kind, id) -> what `value` takes of each entry (the entry itself, its natural key). */
function byIdOf<V>(entries: readonly LiveEntry[], value: (entry: LiveEntry) => V): ByKind<V> {
  const byId = new ByKind<V>();
  for (const e of entries) byId.set(e.kind, e.object.id, value(e));
  return byId;
}

/** Each kind's live objects, kinds in KIND_NAMES order, ids sorted within a kind (a list mostly comes sorted: then it is used as it is). */
function liveObjectsInOrder(live: LiveState): [KindName, readonly LiveObject[]][] {
  const out: [KindName, readonly LiveObject[]][] = [];
  for (const kind of KIND_NAMES) {
    const objects = live.objects[kind] ?? [];
    out.push([kind, isSortedById(objects) ? objects : [...objects].sort((a, b) => compareText(a.id, b.id))]);
  }
  return out;
}

function isSortedById(objects: readonly LiveObject[]): boolean {
  for (let i = 1; i < objects.length; i++) if (compareText((objects[i - 1] as LiveObject).id, (objects[i] as LiveObject).id) > 0) return false;
  return true;
}

function sameLookups(lookups: MemoizedEntry['lookups'], resolveId: ResolveId): boolean {
  for (const [kind, id, key] of lookups) if (resolveId(kind, id) !== key) return false;
  return true;
}

export function entryOf(kind: KindName, object: LiveObject, resolveId: ResolveId, memo: PlanMemo | undefined): LiveEntry {
  const known = memo?.entries.get(object);
  // The same object read with the same answers to its id lookups reads the same.
  if (known && sameLookups(known.lookups, resolveId)) return known.entry;
  const module = KINDS[kind];
  // Without a memo nothing reads the lookups again: no list and no recording closure per object.
  if (!memo) {
    const { name, spec } = module.fromWire(object.raw, resolveId);
    return { kind, object, name, spec, key: module.keyOf(name, spec) };
  }
  const lookups: [KindName, string, string | undefined][] = [];
  const recording: ResolveId = (k, id) => {
    const key = resolveId(k, id);
    lookups.push([k, id, key]);
    return key;
  };
  const { name, spec } = module.fromWire(object.raw, recording);
  const entry = { kind, object, name, spec, key: module.keyOf(name, spec) };
  memo.entries.set(object, { entry, lookups });
  return entry;
}

function entriesWith(objects: [KindName, readonly LiveObject[]][], resolveId: ResolveId, memo: PlanMemo | undefined): LiveEntry[] {
  const entries: LiveEntry[] = [];
  for (const [kind, ofKind] of objects) for (const object of ofKind) entries.push(entryOf(kind, object, resolveId, memo));
  return entries;
}

/**
 * Every live object through its kind module. A key may itself depend on another object's key (a
 * starred query's key holds its owner's email, found from the owner's user id). The first read
 * goes kind by kind in dependency order, each id resolved from the keys of the kinds already read:
 * when no object asked for an id of a kind not read yet, those keys are final and one read is
 * enough (today's kinds always). Otherwise the objects are read again until their keys stop moving.
 */
function readEntries(live: LiveState, memo?: PlanMemo): { entries: LiveEntry[]; byId: ByKind<LiveEntry> } {
  const objects = liveObjectsInOrder(live);
  const read = new Set<KindName>();
  let early = false;
  const firstById = new ByKind<LiveEntry>();
  const firstEntries: LiveEntry[] = [];
  for (const [kind, ofKind] of objects) {
    if (ofKind.length > 0) read.add(kind);
    const resolveId: ResolveId = (target, id) => {
      if (!read.has(target) || (target === kind && !firstById.has(target, id))) early = true;
      return firstById.get(target, id)?.key;
    };
    // Indexed loops over the 10,000 objects: a cold `for...of` makes an iterator result per item.
    for (let i = 0; i < ofKind.length; i++) {
      const object = ofKind[i] as LiveObject;
      const entry = entryOf(kind, object, resolveId, memo);
      firstById.set(kind, object.id, entry);
      firstEntries.push(entry);
    }
  }
  if (!early) return { entries: firstEntries, byId: firstById };

  let keys = byIdOf(firstEntries, (e) => e.key);
  let entries: LiveEntry[] = firstEntries;
  for (let pass = 1; pass <= KIND_NAMES.length + 1; pass++) {
    const current = keys;
    entries = entriesWith(objects, (kind, id) => current.get(kind, id), memo);
    keys = byIdOf(entries, (e) => e.key);
    if (current.equals(keys)) break;
  }
  return { entries, byId: byIdOf(entries, (e) => e) };
}

export function resolveIdIn(byId: ByKind<LiveEntry>): ResolveId {
  return (kind, id) => byId.get(kind, id)?.key;
}

/** id -> natural key for every live object (for fromWire: ids in specs become names). */
export function resolveIdFromLive(live: LiveState): ResolveId {
  return resolveIdIn(readEntries(live).byId);
}

/**
 * The index of each live state indexed without a memo (a plan's query-access check, then its
 * planner, then apply): a live state is never changed once read, and its index reads only its objects.
 */
const INDEXED = new WeakMap<LiveState, LiveIndex>();

/** `made` holds the objects of `from` (a copy with more members): the index of `from` serves it as well. */
export function shareIndex(made: LiveState, from: LiveState, memo: PlanMemo | undefined): LiveState {
  if (memo?.lastIndex?.live === from) memo.lastIndex = { live: made, index: memo.lastIndex.index };
  const index = INDEXED.get(from);
  if (index) INDEXED.set(made, index);
  return made;
}

export function indexLive(live: LiveState, memo?: PlanMemo): LiveIndex {
  // Apply indexes the very live state the planner just indexed: the index is never changed once made.
  if (memo?.lastIndex?.live === live) return memo.lastIndex.index;
  if (!memo) {
    let index = INDEXED.get(live);
    if (!index) INDEXED.set(live, (index = indexWhole(live)));
    return index;
  }
  const last = memo?.lastIndex;
  const index = (last && memo && indexAfterReadBack(last.live, live, last.index, memo)) ?? indexWhole(live, memo);
  if (memo) memo.lastIndex = { live, index };
  return index;
}

/** Kinds some reference names: their ids are read as names in other objects' specs. */
const TARGET_KINDS: ReadonlySet<KindName> = new Set(KIND_NAMES.flatMap((kind) => KINDS[kind].references.map((r) => r.target)));
/** More objects read again than this (a read-back reads at most 25 of a kind), and indexing everything costs about the same. */
const MAX_READ_AGAIN = 200;

/**
 * The last index with the objects the daemon read back after its writes read again, when that is
 * all that changed: each in its place with its id and key, of a kind no other object names by id
 * (their readings would move). Undefined otherwise: the whole is indexed.
 */
function indexAfterReadBack(before: LiveState, after: LiveState, last: LiveIndex, memo: PlanMemo): LiveIndex | undefined {
  const readAgain: [LiveEntry, LiveObject][] = [];
  for (const kind of KIND_NAMES) {
    const a = before.objects[kind];
    const b = after.objects[kind];
    if (a === b) continue;
    if (a === undefined || b === undefined || a.length !== b.length || TARGET_KINDS.has(kind)) return undefined;
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as LiveObject;
      const y = b[i] as LiveObject;
      if (x === y) continue;
      const entry = last.byId.get(kind, x.id);
      if (x.id !== y.id || entry === undefined || readAgain.length >= MAX_READ_AGAIN) return undefined;
      readAgain.push([entry, y]);
    }
  }
  // The index reads nothing of a live state but its objects.
  if (readAgain.length === 0) return last;
  const byKey = new Map(last.byKey);
  const byId = last.byId.copy();
  const entries = [...last.entries];
  for (const [was, object] of readAgain) {
    const entry = entryOf(was.kind, object, last.resolveId, memo);
    if (entry.key !== was.key) return undefined;
    byId.set(entry.kind, object.id, entry);
    entries[entries.indexOf(was)] = entry;
    const perKind = new Map(byKey.get(entry.kind));
    perKind.set(entry.key, (perKind.get(entry.key) ?? []).map((e) => (e === was ? entry : e)));
    byKey.set(entry.kind, perKind);
  }
  return { byKey, byId, entries, resolveId: resolveIdIn(byId) };
}

function indexWhole(live: LiveState, memo?: PlanMemo): LiveIndex {
  const { entries, byId } = readEntries(live, memo);
  const resolveId = resolveIdIn(byId);
  const byKey = new Map<KindName, Map<string, LiveEntry[]>>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as LiveEntry;
    let perKind = byKey.get(entry.kind);
    if (!perKind) byKey.set(entry.kind, (perKind = new Map()));
    const same = perKind.get(entry.key);
    if (same) same.push(entry);
    else perKind.set(entry.key, [entry]);
  }
  return { byKey, byId, entries, resolveId };
}

const NO_ENTRIES: readonly LiveEntry[] = Object.freeze([]);

export function liveWithKey(index: LiveIndex, kind: KindName, key: string): readonly LiveEntry[] {
  return index.byKey.get(kind)?.get(key) ?? NO_ENTRIES;
}

/**
 * The live objects by kind and id, as the plan's index holds them, and the objects apply read
 * again in this run over them (a stale write re-read).
 */
export class LiveById {
  private readonly readAgain = new ByKind<LiveObject>();

  constructor(private readonly index: LiveIndex) {}

  get(kind: KindName, id: string): LiveObject | undefined {
    return this.readAgain.get(kind, id) ?? this.index.byId.get(kind, id)?.object;
  }

  set(kind: KindName, id: string, object: LiveObject): void {
    this.readAgain.set(kind, id, object);
  }
}
