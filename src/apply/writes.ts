// Every write apply sends goes through here: request bodies from the kind's toWire, the count of
// writes, a POST whose answer was lost (found by listing again, or sent again), and an update
// made against a stale version (re-planned against the object as it is now, never written over).
import { ApiError } from '../api/errors.js';
import type { ApiClient, ApiResponse } from '../api/types.js';
import { isJsonObject } from '../core/json.js';
import { getAt, withValueAt } from '../core/json-paths.js';
import type { Change, DesiredResource, JsonObject, JsonValue, KindName, LiveObject } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { HttpEndpoint, KindModule } from '../kinds/types.js';
import { listKind } from '../live/index.js';
import { ignoredFields } from '../plan/annotations.js';
import { diffsAgainst } from '../plan/replan.js';
import { SkipChange, type WriteVersions } from './types.js';
import type { KeyIdIndex } from './key-id-index.js';

/** POSTs that got no answer are retried this many times in all, each after a fresh list. */
export const MAX_POST_ATTEMPTS = 3;

/** A POST whose fate is unknown: no answer came (after it was sent), or a 5xx that may have followed the write. */
function isUnanswered(err: unknown): boolean {
  return err instanceof ApiError && ((err.noAnswer && !err.notSent) || err.maybeApplied);
}

/** Said of an object the workspace changed between the plan's read and apply's write. */
export const CHANGED_SINCE_PLAN = 'changed in the workspace since the plan';
const MAX_SHOWN_PATHS = 5;

/** An answer that means the write named a version (or absence) that is no longer the object's. */
export function isStaleWrite(module: KindModule, err: unknown): boolean {
  return err instanceof ApiError && err.status !== undefined && (module.staleWriteStatuses ?? []).includes(err.status);
}

function idFrom(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What an update did: a note for the report, and the versions it replaced and made (versioned kinds). */
export interface UpdateOutcome {
  note?: string;
  versions?: WriteVersions;
}

/** The object a write answered with, as the kind lists it (a dashboard's answer wraps it). */
function answered(module: KindModule, raw: JsonValue | undefined): JsonObject | undefined {
  if (!isJsonObject(raw)) return undefined;
  const fromItem = module.liveObjectFromListItem;
  if (!fromItem) return raw;
  try {
    return fromItem(raw, undefined).raw;
  } catch {
    return undefined;
  }
}

/** The versions of a write of a versioned kind: the one written over (`before`) and the one the answer holds. */
export function writeVersions(module: KindModule, before: JsonObject | undefined, answer: JsonValue | undefined): WriteVersions | undefined {
  const versionOf = module.versionOf;
  if (!versionOf) return undefined;
  const versions: WriteVersions = {};
  const replaced = before === undefined ? undefined : versionOf(before);
  const after = answered(module, answer);
  const written = after === undefined ? undefined : versionOf(after);
  if (replaced !== undefined) versions.replaced = replaced;
  if (written !== undefined) versions.written = written;
  return versions;
}

export class WriteChannel {
  /** HTTP writes attempted, as logical requests. */
  writes = 0;

  constructor(
    private readonly client: ApiClient,
    readonly index: KeyIdIndex,
    /** Key of the secret hashes, for re-planning an object after a stale write. */
    private readonly hashKey = '',
  ) {}

  send(endpoint: HttpEndpoint, body?: JsonValue): Promise<ApiResponse> {
    this.writes++;
    return this.client.request(body === undefined ? { ...endpoint } : { ...endpoint, body });
  }

  /** The request body for the desired spec; `live` is the object an update writes over. */
  wireBody(module: KindModule, resource: DesiredResource, live: LiveObject | undefined): JsonObject {
    return module.toWire(resource.name, this.specForWrite(module, resource, live), this.index.resolveName, live);
  }

  /**
   * The desired spec, with the live value kept for fields whose drift `wsync/ignore-fields`
   * tolerates and for computed fields the file leaves out (a PUT that replaces must not reset them).
   */
  private specForWrite(module: KindModule, resource: DesiredResource, live: LiveObject | undefined): JsonObject {
    const leftOut = module.computed.filter((path) => getAt(resource.spec, path.split('.')) === undefined);
    const ignored = [...ignoredFields(resource), ...leftOut.map((path) => path.split('.'))];
    if (!live || ignored.length === 0) return resource.spec;
    const liveSpec = module.fromWire(live.raw, this.index.resolveId).spec;
    let spec = resource.spec;
    for (const segments of ignored) {
      const value = getAt(liveSpec, segments);
      if (value !== undefined) spec = withValueAt(spec, segments, value);
    }
    return spec;
  }

  /** The live object as the plan saw it, if it was listed. */
  listed(kind: KindName, id: string): LiveObject | undefined {
    return this.index.liveObjects.get(kind, id);
  }

  /** The live object an update writes over (an update body may depend on it: a User's is its role only). */
  private liveObject(kind: KindName, id: string): LiveObject {
    return this.listed(kind, id) ?? { kind, id, raw: { id } };
  }

  /**
   * Updates object `id` to the desired spec; returns a note for the report, if any. When the kind
   * says the answer means a stale version (`staleWriteStatuses`: someone saved the object after
   * the plan read it), nothing is written over it: the object is read again and re-planned. If it
   * now matches the files, the change is done; otherwise it is skipped, saying what differs, and
   * the next apply (or reconcile) writes it with the version it then reads.
   */
  async update(change: Change, module: KindModule, resource: DesiredResource, id: string): Promise<UpdateOutcome> {
    if (!module.update) throw new Error(`${change.kind} objects cannot be updated through the API`);
    const live = this.liveObject(change.kind, id);
    try {
      const response = await this.send(module.update(id, resource.spec), this.wireBody(module, resource, live));
      const versions = writeVersions(module, live.raw, response.body);
      return versions === undefined ? {} : { versions };
    } catch (err) {
      if (!isStaleWrite(module, err)) throw err;
      return { note: await this.replan(change, module, resource, id, err) };
    }
  }

  private async replan(change: Change, module: KindModule, resource: DesiredResource, id: string, err: unknown): Promise<string> {
    const fresh = (await listKind(this.client, change.kind, this.datasetsOf(module, resource))).find((object) => object.id === id);
    if (!fresh) throw new SkipChange(`${CHANGED_SINCE_PLAN} (${messageOf(err)}) and is gone now; the next apply creates it`, true);
    this.index.liveObjects.set(change.kind, id, fresh);
    const diffs = diffsAgainst(resource, module.fromWire(fresh.raw, this.index.resolveId).spec, this.hashKey);
    if (diffs.length === 0) return `${CHANGED_SINCE_PLAN}; it now matches the files, nothing written`;
    const shown = diffs.slice(0, MAX_SHOWN_PATHS).map((d) => d.path);
    const more = diffs.length > shown.length ? `, and ${diffs.length - shown.length} more` : '';
    throw new SkipChange(
      `${CHANGED_SINCE_PLAN}: not written over. Re-planned against it: ${diffs.length} field${diffs.length === 1 ? '' : 's'} ` +
        `differ (${shown.join(', ')}${more}); the next apply or reconcile writes ${diffs.length === 1 ? 'it' : 'them'}`,
      true,
    );
  }

  /** The id the server gave the object it answered with (as the kind addresses it: a view by name). */
  idOf(raw: JsonObject, change: Change): string {
    const fromItem = KINDS[change.kind].liveObjectFromListItem;
    const id = fromItem ? idFrom(() => fromItem(raw, undefined).id) : raw.id;
    if (typeof id !== 'string' || id === '') throw new Error(`the server's answer for ${change.kind}/${change.key} has no id`);
    return id;
  }

  /**
   * The kind's writes to endpoints of their own, after its main write (a dataset's map fields):
   * `live` is the object as it is now, the create's answer or as listed.
   */
  async followUp(module: KindModule, resource: DesiredResource, id: string, live: LiveObject | undefined): Promise<void> {
    if (!module.followUpWrites) return;
    const spec = this.specForWrite(module, resource, live);
    for (const write of module.followUpWrites(id, spec, live)) await this.send(write.endpoint, write.body);
  }

  /**
   * Sends a POST that creates an object. When no answer comes (timeout, reset) or a 5xx leaves it
   * unknown whether the server acted, the kind is listed again: an object of this key that was not
   * there before is the one this POST created (adopt it); otherwise the POST is sent again.
   */
  async postWithRecovery(
    kind: KindName,
    key: string,
    resource: DesiredResource,
    post: () => Promise<ApiResponse>,
  ): Promise<{ raw: JsonObject; recovered: boolean }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await post();
        if (!isJsonObject(response.body)) throw new Error(`the server answered ${response.status} without the object`);
        return { raw: response.body, recovered: false };
      } catch (err) {
        if (!isUnanswered(err)) throw err;
        const found = await this.findNew(kind, key, resource).catch((listErr: unknown) => {
          throw new Error(
            `${messageOf(err)}; listing ${kind} again to check failed too (${messageOf(listErr)}), ` + 'so it was not retried: run apply again',
          );
        });
        if (found) return { raw: found.raw, recovered: true };
        if (attempt >= MAX_POST_ATTEMPTS) throw err;
      }
    }
  }

  /** Lists a kind again and returns an object of `key` that this run did not know about. */
  private async findNew(kind: KindName, key: string, resource: DesiredResource): Promise<LiveObject | undefined> {
    const objects = await listKind(this.client, kind, this.datasetsOf(KINDS[kind], resource));
    return objects.find((object) => !this.index.knows(kind, object.id) && this.index.keyOfWire(kind, object.raw) === key);
  }

  private datasetsOf(module: KindModule, resource: DesiredResource): string[] | undefined {
    return module.datasetOf ? [module.datasetOf(resource.spec)] : undefined;
  }
}
