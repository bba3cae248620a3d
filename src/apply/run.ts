import { isAbsolute, relative } from 'node:path';
import pLimit from 'p-limit';
import { ApiError } from '../api/errors.js';
import type { ApiResponse } from '../api/types.js';
import { createRedactor } from '../core/redact.js';
import { TRUST_ON_FIRST_USE } from '../core/secret-hash.js';
import { isJsonObject } from '../core/json.js';
import { getAt, withValueAt } from '../core/json-paths.js';
import {
  changeRef,
  isWriteAction,
  type Change,
  type DesiredResource,
  type InventoryEntry,
  type JsonObject,
  type JsonValue,
  type KindName,
  type LiveObject,
} from '../core/types.js';
import { asStringArray, datasetOfKey } from '../kinds/common.js';
import { KINDS } from '../kinds/index.js';
import type { HttpEndpoint, KindModule } from '../kinds/types.js';
import { listKind } from '../live/index.js';
import { ANNOTATION_MODE, ignoredFields, isPruneDisabled } from '../plan/annotations.js';
import { secretHashes } from '../plan/secrets.js';
import { writeTokenSecret } from '../state/index.js';
import { ApplyIndex } from './name-index.js';
import type { ApplyEvent, ApplyInput, ApplyOutcome, ApplyResult } from './types.js';

/** POSTs that got no answer are retried this many times in all, each after a fresh list. */
const MAX_POST_ATTEMPTS = 3;

/** Thrown inside a change to report it as skipped rather than failed. */
class SkipChange extends Error {}

interface Done {
  id?: string;
  message?: string;
}

/** A Role written before some of its members existed (deferrable reference). */
interface DeferredRole {
  change: Change;
  resource: DesiredResource;
  id: string;
}

/** A POST whose fate is unknown: no answer came (after it was sent), or a 5xx that may have followed the write. */
function isUnanswered(err: unknown): boolean {
  return err instanceof ApiError && ((err.noAnswer && !err.notSent) || err.maybeApplied);
}

function liveRef(kind: KindName, id: string): string {
  return `${kind}\u0000${id}`;
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

export class ApplyRun {
  private readonly index: ApplyIndex;
  private readonly desiredByRef = new Map<string, DesiredResource>();
  private readonly liveById = new Map<string, LiveObject>();
  private readonly outcomes = new Map<string, Promise<ApplyOutcome>>();
  private readonly settle = new Map<string, (outcome: ApplyOutcome) => void>();
  /** Changes a worker has picked up: a dependency not among them would be waited on forever. */
  private readonly scheduled = new Set<string>();
  /** Ids written (created, adopted, replaced) in this run, by kind: never dropped from the inventory. */
  private readonly touched = new Map<KindName, Set<string>>();
  private readonly deferredRoles: DeferredRole[] = [];
  private readonly secrets: string[];
  private redactText: (text: string) => string;
  private readonly events: ApplyEvent[] = [];
  private readonly counts = { created: 0, updated: 0, replaced: 0, deleted: 0, adopted: 0, failed: 0, skipped: 0 };
  private writes = 0;
  private aborted = false;
  /** Key of the secret hashes (read once: `state.inventory` copies every entry). */
  private readonly hashKey: string;

  constructor(private readonly input: ApplyInput & { tokenOutputDir: string }) {
    this.index = new ApplyIndex(input.desired, input.live);
    this.hashKey = input.state.inventory.hashKey;
    for (const resource of input.desired.resources) this.desiredByRef.set(changeRef(resource.kind, resource.key), resource);
    for (const list of Object.values(input.live.objects)) {
      for (const object of list ?? []) this.liveById.set(liveRef(object.kind, object.id), object);
    }
    this.secrets = [...input.desired.secretValues];
    this.redactText = createRedactor(this.secrets);
  }

  async execute(): Promise<ApplyResult> {
    const started = performance.now();
    const { plan, concurrency } = this.input;
    const actionable = plan.changes.filter((c) => isWriteAction(c.action));
    for (const change of actionable) {
      const ref = changeRef(change.kind, change.key);
      this.outcomes.set(ref, new Promise((resolve) => this.settle.set(ref, resolve)));
    }

    const writes = actionable.filter((c) => c.action !== 'delete');
    const deletes = actionable.filter((c) => c.action === 'delete');
    for (const level of groupByLevel(writes, 'ascending')) {
      await pLimit(Math.max(1, concurrency)).map(orderByDependencies(level), (change) => this.run(change));
    }
    await this.completeRoleMembers();
    for (const level of groupByLevel(deletes, 'descending')) {
      await pLimit(Math.max(1, concurrency)).map(orderByDependencies(level), (change) => this.run(change));
    }
    await this.dropVanished();
    await this.recordTrustedSecrets();
    await this.input.state.flush();

    return {
      ...this.counts,
      unchanged: plan.changes.filter((c) => c.action === 'noop').length,
      writes: this.writes,
      durationMs: performance.now() - started,
      aborted: this.aborted,
      events: this.events,
    };
  }

  private emit(event: ApplyEvent, counted: boolean): void {
    if (counted) {
      if (event.outcome === 'failed') this.counts.failed++;
      else if (event.outcome === 'skipped') this.counts.skipped++;
      else if (event.action === 'create') this.counts.created++;
      else if (event.action === 'update') this.counts.updated++;
      else if (event.action === 'replace') this.counts.replaced++;
      else if (event.action === 'delete') this.counts.deleted++;
      else if (event.action === 'adopt') this.counts.adopted++;
    } else if (event.outcome === 'failed') {
      this.counts.failed++;
    }
    this.events.push(event);
    this.input.onChange?.(event);
  }

  private async run(change: Change): Promise<void> {
    const ref = changeRef(change.kind, change.key);
    const finish = (outcome: ApplyOutcome, durationMs: number, done: Done = {}): void => {
      const event: ApplyEvent = { kind: change.kind, key: change.key, action: change.action, outcome, durationMs };
      const id = done.id ?? change.id;
      if (id !== undefined) event.id = id;
      if (done.message !== undefined) event.message = this.redactText(done.message);
      this.emit(event, true);
      this.settle.get(ref)?.(outcome);
    };

    this.scheduled.add(ref);
    for (const dependency of change.dependsOn) {
      if (this.outcomes.has(dependency) && !this.scheduled.has(dependency)) {
        finish('failed', 0, { message: `depends on ${dependency}, which the plan orders after it` });
        return;
      }
      const outcome = await this.outcomes.get(dependency);
      if (outcome !== undefined && outcome !== 'done') {
        finish('skipped', 0, { message: `depends on ${dependency}, which ${outcome === 'failed' ? 'failed' : 'was skipped'}` });
        return;
      }
    }
    if (this.input.signal?.aborted) {
      this.aborted = true;
      finish('skipped', 0, { message: 'not started: apply was stopped' });
      return;
    }
    // The client found the server gone: no new write starts (each would fail at once anyway).
    const unreachable = this.input.client.unreachable;
    if (unreachable !== undefined) {
      finish('skipped', 0, { message: `not attempted: ${unreachable}; nothing was sent` });
      return;
    }

    const started = performance.now();
    try {
      const done = await this.perform(change);
      finish('done', performance.now() - started, done);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      finish(err instanceof SkipChange ? 'skipped' : 'failed', performance.now() - started, { message });
    }
  }

  private perform(change: Change): Promise<Done> {
    const module = KINDS[change.kind];
    if (change.action === 'delete') return this.remove(change, module);
    const resource = this.desiredByRef.get(changeRef(change.kind, change.key));
    if (!resource) throw new Error(`no declared resource ${changeRef(change.kind, change.key)} in the files`);
    if (resource.annotations[ANNOTATION_MODE] === 'observe') throw new SkipChange('wsync/mode: observe (drift is reported, never written)');
    switch (change.action) {
      case 'create':
        return this.create(change, module, resource);
      case 'update':
        return this.update(change, module, resource);
      case 'adopt':
        return this.adopt(change, module, resource);
      case 'replace':
        return this.replace(change, module, resource, this.requireId(change));
      default:
        throw new Error(`unexpected action ${change.action}`);
    }
  }

  private requireId(change: Change): string {
    if (change.id === undefined) throw new Error(`the plan gives no id for ${change.action} of ${change.kind}/${change.key}`);
    return change.id;
  }

  // ---- writes -------------------------------------------------------------------------------

  private async send(endpoint: HttpEndpoint, body?: JsonValue): Promise<ApiResponse> {
    this.writes++;
    return this.input.client.request(body === undefined ? { ...endpoint } : { ...endpoint, body });
  }

  private wireBody(module: KindModule, resource: DesiredResource, live: LiveObject | undefined): JsonObject {
    return module.toWire(resource.name, this.specForWrite(module, resource, live), this.index.resolveName, live);
  }

  /** The desired spec, with the live value kept for fields whose drift `wsync/ignore-fields` tolerates. */
  private specForWrite(module: KindModule, resource: DesiredResource, live: LiveObject | undefined): JsonObject {
    const ignored = ignoredFields(resource);
    if (!live || ignored.length === 0) return resource.spec;
    const liveSpec = module.fromWire(live.raw, this.index.resolveId).spec;
    let spec = resource.spec;
    for (const segments of ignored) {
      const value = getAt(liveSpec, segments);
      if (value !== undefined) spec = withValueAt(spec, segments, value);
    }
    return spec;
  }

  private async create(change: Change, module: KindModule, resource: DesiredResource): Promise<Done> {
    if (!module.create) throw new Error(`${change.kind} objects cannot be created through the API`);
    const endpoint = module.create;
    const body = this.wireBody(module, resource, undefined);
    if (module.issuedSecret) return this.writeToken(change, module, resource, () => this.send(endpoint, body));
    this.noteDeferredMembers(change, resource);
    const { raw, recovered } = await this.idempotentPost(change.kind, change.key, resource, () => this.send(endpoint, body));
    const id = this.idOf(raw, change);
    this.index.set(change.kind, change.key, id);
    this.markTouched(change.kind, id);
    await this.recordOwned(change.kind, change.key, id, resource);
    this.retargetDeferred(change, id);
    return recovered ? { id, message: 'the answer was lost; found it created by listing again' } : { id };
  }

  private async update(change: Change, module: KindModule, resource: DesiredResource): Promise<Done> {
    const id = this.requireId(change);
    const live = this.liveObject(change.kind, id);
    if (!module.update) {
      if (module.replace) return this.replace(change, module, resource, id);
      throw new Error(`${change.kind} objects cannot be updated through the API`);
    }
    const body = this.wireBody(module, resource, live);
    this.noteDeferredMembers(change, resource, id);
    await this.send(module.update(id, resource.spec), body);
    await this.recordOwned(change.kind, change.key, id, resource);
    return { id };
  }

  private async adopt(change: Change, module: KindModule, resource: DesiredResource): Promise<Done> {
    const id = this.requireId(change);
    // Fields the API cannot change (a User's name) are reported by the plan, not written.
    const writable = change.diffs.filter((d) => !module.immutable.includes(d.path.split('.')[0] ?? ''));
    if (writable.length > 0) {
      if (!module.update && module.replace) return this.replace(change, module, resource, id);
      if (!module.update) throw new Error(`${change.kind} objects cannot be updated through the API`);
      const live = this.liveObject(change.kind, id);
      const body = this.wireBody(module, resource, live);
      this.noteDeferredMembers(change, resource, id);
      await this.send(module.update(id, resource.spec), body);
    }
    await this.recordOwned(change.kind, change.key, id, resource);
    this.markTouched(change.kind, id);
    return { id, message: writable.length > 0 ? 'updated to match the files' : undefined };
  }

  /** Replaces an object that cannot be changed in place (a token is regenerated); the new one has a new id. */
  private async replace(change: Change, module: KindModule, resource: DesiredResource, oldId: string): Promise<Done> {
    if (!module.replace) throw new Error(`${change.kind} objects cannot be replaced through the API`);
    const { endpoint, body } = module.replace.request(oldId, this.wireBody(module, resource, undefined), new Date());
    return this.writeToken(change, module, resource, () => this.send(endpoint, body), oldId);
  }

  /**
   * Creates (or regenerates) a token and saves its secret, which only the answer carries. When the
   * answer was lost, the token found by listing again has no secret we could save: it is deleted
   * (DELETE is safe to repeat, unlike POST) and a fresh one is created.
   */
  private async writeToken(
    change: Change,
    module: KindModule,
    resource: DesiredResource,
    firstPost: () => Promise<ApiResponse>,
    oldId?: string,
  ): Promise<Done> {
    let post = firstPost;
    let previousId = oldId;
    let discarded = 0;
    for (let round = 1; ; round++) {
      const { raw, recovered } = await this.idempotentPost(change.kind, change.key, resource, post);
      const id = this.idOf(raw, change);
      this.index.set(change.kind, change.key, id, previousId);
      previousId = id;
      // Owned from here on: if what follows fails, the token can still be pruned or replaced.
      await this.recordOwned(change.kind, change.key, id, resource);
      const issued = module.issuedSecret ? raw[module.issuedSecret.wireField] : undefined;
      const secret = typeof issued === 'string' && issued !== '' && !recovered ? issued : undefined;
      if (secret !== undefined) return this.saveTokenSecret(id, resource, secret, discarded);

      // A token whose secret nobody holds is useless and, once owned, would look in sync for ever.
      if (!module.remove || !module.create) throw new Error(`${id}: the answer carrying the token's secret was lost`);
      try {
        await this.send(module.remove(id, resource.spec));
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      await this.input.state.forget(change.kind, id);
      discarded++;
      if (round >= MAX_POST_ATTEMPTS) {
        throw new Error(
          `the answer carrying the token's secret was lost ${round} times; the tokens created without a known secret ` +
            'were deleted: apply again to create it',
        );
      }
      const endpoint = module.create;
      const body = this.wireBody(module, resource, undefined);
      post = () => this.send(endpoint, body);
    }
  }

  private async saveTokenSecret(id: string, resource: DesiredResource, secret: string, discarded: number): Promise<Done> {
    this.addSecret(secret);
    const path = await writeTokenSecret(this.input.tokenOutputDir, resource.name, secret).catch((err: unknown) => {
      throw new Error(`${id}: the token exists but its secret could not be saved (${err instanceof Error ? err.message : String(err)})`);
    });
    const wrote = `wrote token to ${displayPath(path)}`;
    if (discarded === 0) return { id, message: wrote };
    const lost = `${discarded} answer${discarded === 1 ? ' was' : 's were'} lost; the token${discarded === 1 ? '' : 's'} without a known secret deleted`;
    return { id, message: `${lost}; ${wrote}` };
  }

  /**
   * Sends a POST that creates an object. When no answer comes (timeout, reset) or a 5xx leaves it
   * unknown whether the server acted, the kind is listed again: an object of this key that was not
   * there before is the one this POST created (adopt it); otherwise the POST is sent again.
   */
  private async idempotentPost(
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
          const why = listErr instanceof Error ? listErr.message : String(listErr);
          throw new Error(
            `${err instanceof Error ? err.message : String(err)}; listing ${kind} again to check failed too (${why}), ` +
              'so it was not retried: run apply again',
          );
        });
        if (found) return { raw: found.raw, recovered: true };
        if (attempt >= MAX_POST_ATTEMPTS) throw err;
      }
    }
  }

  /** Lists a kind again and returns an object of `key` that this run did not know about. */
  private async findNew(kind: KindName, key: string, resource: DesiredResource): Promise<LiveObject | undefined> {
    const module = KINDS[kind];
    const datasets = this.datasetsOf(module, resource);
    const objects = await listKind(this.input.client, kind, datasets);
    return objects.find((object) => !this.index.knows(kind, object.id) && this.index.keyOfWire(kind, object.raw) === key);
  }

  private datasetsOf(module: KindModule, resource: DesiredResource): string[] | undefined {
    return module.datasetOf ? [module.datasetOf(resource.spec)] : undefined;
  }

  /** The live object an update writes over (an update body may depend on it, e.g. a User's is role only). */
  private liveObject(kind: KindName, id: string): LiveObject {
    return this.liveById.get(liveRef(kind, id)) ?? { kind, id, raw: { id } };
  }

  private idOf(raw: JsonObject, change: Change): string {
    const id = raw.id;
    if (typeof id !== 'string' || id === '') throw new Error(`the server's answer for ${change.kind}/${change.key} has no id`);
    return id;
  }

  private async remove(change: Change, module: KindModule): Promise<Done> {
    const id = this.requireId(change);
    if (!module.remove) throw new Error(`${change.kind} objects are never deleted by wsync`);
    const live = this.liveById.get(liveRef(change.kind, id));
    const spec = live ? module.fromWire(live.raw, this.index.resolveId).spec : {};
    let message: string | undefined;
    try {
      await this.send(module.remove(id, spec));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      message = 'already gone';
    }
    await this.input.state.forget(change.kind, id);
    return message === undefined ? { id } : { id, message };
  }

  // ---- inventory ------------------------------------------------------------------------------

  private markTouched(kind: KindName, id: string): void {
    let ids = this.touched.get(kind);
    if (!ids) this.touched.set(kind, (ids = new Set()));
    ids.add(id);
  }

  private recordOwned(kind: KindName, key: string, id: string, resource: DesiredResource): Promise<void> {
    const entry: InventoryEntry = { kind, key, id };
    // The same keyed hashes the planner compares against on the next run.
    const hashes = secretHashes(KINDS[kind], resource.spec, this.hashKey);
    if (Object.keys(hashes).length > 0) entry.secretHashes = hashes;
    if (isPruneDisabled(resource)) entry.pruneDisabled = true;
    this.markTouched(kind, id);
    return this.input.state.record(entry);
  }

  /**
   * Secrets that `export --adopt` marked as trusted (the API hides them) get their real hash once
   * the files declare them, with no write: from then on a rotation is an ordinary update.
   */
  private async recordTrustedSecrets(): Promise<void> {
    const { state } = this.input;
    const records: Promise<void>[] = [];
    for (const entry of [...state.inventory.entries]) {
      const trusted = Object.entries(entry.secretHashes ?? {}).filter(([, hash]) => hash === TRUST_ON_FIRST_USE);
      if (trusted.length === 0 || this.touched.get(entry.kind)?.has(entry.id)) continue;
      const resource = this.desiredByRef.get(changeRef(entry.kind, entry.key));
      if (!resource) continue;
      const hashes = secretHashes(KINDS[entry.kind], resource.spec, this.hashKey);
      const learned = trusted.filter(([pointer]) => hashes[pointer] !== undefined);
      if (learned.length === 0) continue;
      const secretHashesNow = { ...entry.secretHashes };
      for (const [pointer] of learned) secretHashesNow[pointer] = hashes[pointer] as string;
      records.push(state.record({ ...entry, secretHashes: secretHashesNow }));
    }
    await Promise.all(records);
  }

  /**
   * Drops inventory entries whose objects were not in the live state of a kind that was read, and
   * were not written in this run: someone deleted them, and wsync owns nothing under those ids.
   */
  private async dropVanished(): Promise<void> {
    const { live, state } = this.input;
    const liveIds = new Set<string>();
    for (const list of Object.values(live.objects)) for (const object of list ?? []) liveIds.add(liveRef(object.kind, object.id));
    const forgets: Promise<void>[] = [];
    for (const entry of state.inventory.entries) {
      if (!live.listedKinds.includes(entry.kind)) continue;
      const module = KINDS[entry.kind];
      if (module.list.style === 'per-dataset') {
        const dataset = datasetOfKey(entry.key);
        if (dataset === undefined || !(live.listedDatasets[entry.kind] ?? []).includes(dataset)) continue;
      }
      if (liveIds.has(liveRef(entry.kind, entry.id)) || this.touched.get(entry.kind)?.has(entry.id)) continue;
      forgets.push(state.forget(entry.kind, entry.id));
    }
    await Promise.all(forgets);
  }

  // ---- Role members created in the same run --------------------------------------------------

  private noteDeferredMembers(change: Change, resource: DesiredResource, id?: string): void {
    for (const reference of KINDS[change.kind].references) {
      if (!reference.deferrable) continue;
      const names = asStringArray(getAt(resource.spec, reference.field.split('.')));
      if (names.some((name) => this.index.resolveName(reference.target, name) === undefined)) {
        this.deferredRoles.push({ change, resource, id: id ?? '' });
        return;
      }
    }
  }

  /** A deferred entry noted before the create answered gets the new id. */
  private retargetDeferred(change: Change, id: string): void {
    for (const deferred of this.deferredRoles) if (deferred.change === change) deferred.id = id;
  }

  /** Writes once more the objects whose deferrable references named objects created later in this run. */
  private async completeRoleMembers(): Promise<void> {
    await pLimit(Math.max(1, this.input.concurrency)).map(this.deferredRoles, async (deferred) => {
      const { change, resource, id } = deferred;
      const outcome = await this.outcomes.get(changeRef(change.kind, change.key));
      if (outcome !== 'done' || id === '') return;
      const module = KINDS[change.kind];
      const started = performance.now();
      const event: ApplyEvent = { kind: change.kind, key: change.key, action: 'update', outcome: 'done', id, durationMs: 0 };
      const missing = module.references
        .filter((r) => r.deferrable)
        .flatMap((r) => asStringArray(getAt(resource.spec, r.field.split('.'))).filter((n) => this.index.resolveName(r.target, n) === undefined));
      if (this.input.signal?.aborted) {
        this.aborted = true;
        return;
      }
      try {
        if (missing.length > 0) throw new Error(`not set: ${missing.join(', ')} (not created in this run)`);
        if (!module.update) throw new Error(`${change.kind} objects cannot be updated through the API`);
        const live = this.liveObject(change.kind, id);
        await this.send(module.update(id, resource.spec), this.wireBody(module, resource, live));
        event.message = 'members set once their users existed';
      } catch (err) {
        event.outcome = 'failed';
        event.message = this.redactText(`members ${err instanceof Error ? err.message : String(err)}`);
      }
      event.durationMs = performance.now() - started;
      this.emit(event, false);
    });
  }

  private addSecret(secret: string): void {
    this.secrets.push(secret);
    this.redactText = createRedactor(this.secrets);
  }
}

function groupByLevel(changes: readonly Change[], order: 'ascending' | 'descending'): Change[][] {
  const levels = [...new Set(changes.map((c) => c.level))].sort((a, b) => (order === 'ascending' ? a - b : b - a));
  return levels.map((level) => changes.filter((c) => c.level === level));
}

/** Within one level, a change comes after the changes it depends on (so no worker waits on a queued one). */
function orderByDependencies(changes: readonly Change[]): Change[] {
  const byRef = new Map(changes.map((c) => [changeRef(c.kind, c.key), c]));
  const placed = new Set<string>();
  const out: Change[] = [];
  const visit = (change: Change, path: Set<string>): void => {
    const ref = changeRef(change.kind, change.key);
    if (placed.has(ref) || path.has(ref)) return;
    path.add(ref);
    for (const dependency of change.dependsOn) {
      const target = byRef.get(dependency);
      if (target) visit(target, path);
    }
    placed.add(ref);
    out.push(change);
  };
  for (const change of changes) visit(change, new Set());
  return out;
}
