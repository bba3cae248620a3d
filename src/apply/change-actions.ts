// One change of the plan carried out: create, update, adopt, replace or delete, each recorded in
// the inventory as soon as the server confirms it.
import { ApiError } from '../api/errors.js';
import { changeRef, type Change, type DesiredResource } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import type { KindModule } from '../kinds/types.js';
import { ANNOTATION_MODE } from '../plan/annotations.js';
import type { DeferredReferences } from './deferred-references.js';
import type { InventoryRecords } from './inventory-records.js';
import type { IssuedSecrets } from './issued-secrets.js';
import { SkipChange, type Done } from './types.js';
import { CHANGED_SINCE_PLAN, isStaleWrite, writeVersions, type WriteChannel } from './writes.js';

export { SkipChange };

function requireId(change: Change): string {
  if (change.id === undefined) throw new Error(`the plan gives no id for ${change.action} of ${change.kind}/${change.key}`);
  return change.id;
}

/** Fields the API cannot change (a User's name) are reported by the plan, not written. */
function writableDiffs(change: Change, module: KindModule): Change['diffs'] {
  return change.diffs.filter((d) => !module.immutable.includes(d.path.split('.')[0] ?? ''));
}

export class ChangeActions {
  constructor(
    private readonly channel: WriteChannel,
    private readonly records: InventoryRecords,
    private readonly deferred: DeferredReferences,
    private readonly secrets: IssuedSecrets,
    private readonly declared: (change: Change) => DesiredResource | undefined,
  ) {}

  perform(change: Change): Promise<Done> {
    const module = KINDS[change.kind];
    if (change.action === 'delete') return this.remove(change, module);
    const resource = this.declared(change);
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
        return this.replace(change, module, resource, requireId(change));
      case 'abandon':
        return this.abandon(change);
      default:
        throw new Error(`unexpected action ${change.action}`);
    }
  }

  private async create(change: Change, module: KindModule, resource: DesiredResource): Promise<Done> {
    if (!module.create) throw new Error(`${change.kind} objects cannot be created through the API`);
    const { channel } = this;
    const endpoint = module.create;
    const body = channel.wireBody(module, resource, undefined);
    if (module.issuedSecret) return this.secrets.write(change, module, resource, () => channel.send(endpoint, body));
    this.deferred.note(change, resource);
    const { raw, recovered } = await channel
      .postWithRecovery(change.kind, change.key, resource, () => channel.send(endpoint, body))
      .catch((err: unknown) => {
        // Someone made an object of this key after the plan read the workspace: adopted next time, not written over.
        if (isStaleWrite(module, err)) throw new SkipChange(`${CHANGED_SINCE_PLAN}: made there meanwhile, not written over; the next apply adopts it`, true);
        throw err;
      });
    const id = channel.idOf(raw, change);
    channel.index.set(change.kind, change.key, id);
    await this.records.recordOwned(change.kind, change.key, id, resource);
    this.deferred.retarget(change, id);
    await channel.followUp(module, resource, id, { kind: change.kind, id, raw });
    const versions = writeVersions(module, undefined, raw);
    const done: Done = versions === undefined ? { id } : { id, versions };
    return recovered ? { ...done, message: 'the answer was lost; found it created by listing again' } : done;
  }

  private async update(change: Change, module: KindModule, resource: DesiredResource): Promise<Done> {
    const id = requireId(change);
    if (!module.update && module.replace) return this.replace(change, module, resource, id);
    this.deferred.note(change, resource, id);
    const { note, versions } = await this.channel.update(change, module, resource, id);
    await this.records.recordOwned(change.kind, change.key, id, resource);
    await this.channel.followUp(module, resource, id, this.channel.listed(change.kind, id));
    return { id, ...(note === undefined ? {} : { message: note }), ...(versions === undefined ? {} : { versions }) };
  }

  private async adopt(change: Change, module: KindModule, resource: DesiredResource): Promise<Done> {
    const id = requireId(change);
    const writable = writableDiffs(change, module);
    if (writable.length > 0) {
      if (!module.update && module.replace) return this.replace(change, module, resource, id);
      this.deferred.note(change, resource, id);
      const { note, versions } = await this.channel.update(change, module, resource, id);
      await this.records.recordOwned(change.kind, change.key, id, resource);
      await this.channel.followUp(module, resource, id, this.channel.listed(change.kind, id));
      return { id, message: note ?? 'updated to match the files', ...(versions === undefined ? {} : { versions }) };
    }
    await this.records.recordOwned(change.kind, change.key, id, resource);
    return { id };
  }

  /** Replaces an object that cannot be changed in place (a token is regenerated); the new one has a new id. */
  private async replace(change: Change, module: KindModule, resource: DesiredResource, oldId: string): Promise<Done> {
    if (!module.replace) throw new Error(`${change.kind} objects cannot be replaced through the API`);
    const { channel } = this;
    const validUntil = module.replace.oldValidUntil?.(new Date(), change.grace?.ms ?? 0, channel.listed(change.kind, oldId)?.raw) ?? new Date();
    const { endpoint, body } = module.replace.request(oldId, channel.wireBody(module, resource, undefined), validUntil);
    const post = () => channel.send(endpoint, body);
    if (module.issuedSecret) return this.secrets.write(change, module, resource, post, { id: oldId, validUntil });
    const { raw } = await channel.postWithRecovery(change.kind, change.key, resource, post);
    const id = channel.idOf(raw, change);
    channel.index.set(change.kind, change.key, id, oldId);
    await this.records.recordOwned(change.kind, change.key, id, resource);
    return { id };
  }

  /** `wsync/mode: abandon`: the object leaves the inventory and stays live; nothing is sent. */
  private async abandon(change: Change): Promise<Done> {
    const id = requireId(change);
    await this.records.forget(change.kind, id);
    return { id, message: 'no longer owned; it stays live' };
  }

  private async remove(change: Change, module: KindModule): Promise<Done> {
    const id = requireId(change);
    if (!module.remove) throw new Error(`${change.kind} objects are never deleted by wsync`);
    const live = this.channel.listed(change.kind, id);
    const spec = live ? module.fromWire(live.raw, this.channel.index.resolveId).spec : {};
    let message: string | undefined;
    try {
      await this.channel.send(module.remove(id, spec));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      message = 'already gone';
    }
    await this.records.forget(change.kind, id);
    return message === undefined ? { id } : { id, message };
  }
}
