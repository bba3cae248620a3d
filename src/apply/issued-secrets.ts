// Secrets the API issues once, in the answer to a create or replace (an API token's secret): saved
// to the token output directory as the answer arrives, never logged. A kind has one when its
// module declares `issuedSecret`.
//
// The order is what keeps a secret from being lost (#17): the directory is checked writable before
// the POST; the answer's secret is written and fsynced (file, then directory) before the inventory
// records the object as owned. A run that dies in between leaves a live object wsync does not own
// and holds no secret for: the next plan refuses to adopt it and says so, instead of calling it in
// sync. A secret that cannot be saved gets its object deleted at once.
import { isAbsolute, relative } from 'node:path';
import { ApiError } from '../api/errors.js';
import type { ApiResponse } from '../api/types.js';
import type { Change, DesiredResource } from '../core/types.js';
import type { KindModule } from '../kinds/types.js';
import { checkTokenDirWritable, clearIssuePending, markIssuePending, writeTokenSecret } from '../state/index.js';
import type { InventoryRecords } from './inventory-records.js';
import type { ApplyReport } from './report.js';
import type { Done, IssueStep } from './types.js';
import { MAX_POST_ATTEMPTS, messageOf, type WriteChannel } from './writes.js';

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The object replaced by this write: it keeps working until `validUntil`. */
export interface Replaced {
  id: string;
  validUntil: Date;
}

export class IssuedSecrets {
  /** The check of the output directory, made once per run before the first POST. */
  private writable: Promise<void> | undefined;

  constructor(
    private readonly channel: WriteChannel,
    private readonly records: InventoryRecords,
    private readonly report: ApplyReport,
    private readonly outputDir: string,
    /** Called at each step of the path (tests stop the process there: a crash point). */
    private readonly onStep: (step: IssueStep) => void = () => undefined,
  ) {}

  /**
   * Creates (or replaces) an object and saves the secret its answer carries. When the answer was
   * lost, the object found by listing again has no secret we could save: it is deleted (DELETE is
   * safe to repeat, unlike POST) and a fresh one is created.
   */
  async write(
    change: Change,
    module: KindModule,
    resource: DesiredResource,
    firstPost: () => Promise<ApiResponse>,
    replaced?: Replaced,
  ): Promise<Done> {
    this.writable ??= checkTokenDirWritable(this.outputDir);
    await this.writable.catch((err: unknown) => {
      throw new Error(`nothing was sent: the token's secret could not be saved (${messageOf(err)})`);
    });
    // Before the request: should this run die, the next one knows the object it finds is its own,
    // and that the replaced one is on its way out.
    await markIssuePending(this.outputDir, resource.name);
    if (replaced) {
      const before = this.records.entry(change.kind, replaced.id);
      await this.records.retire(change.kind, change.key, replaced.id, replaced.validUntil);
      try {
        return await this.issue(change, module, resource, firstPost, replaced);
      } catch (err) {
        // Refused outright (4xx): nothing changed on the server, so the old object is current again.
        if (before && err instanceof ApiError && (err.status ?? 500) < 500) await this.records.restore(before);
        throw err;
      }
    }
    return this.issue(change, module, resource, firstPost, undefined);
  }

  private async issue(
    change: Change,
    module: KindModule,
    resource: DesiredResource,
    firstPost: () => Promise<ApiResponse>,
    replaced: Replaced | undefined,
  ): Promise<Done> {
    const { channel } = this;
    let post = firstPost;
    let previousId = replaced?.id;
    let discarded = 0;
    for (let round = 1; ; round++) {
      const { raw, recovered } = await channel.postWithRecovery(change.kind, change.key, resource, post);
      const id = channel.idOf(raw, change);
      channel.index.set(change.kind, change.key, id, previousId);
      previousId = id;
      this.onStep('answered');
      const issued = module.issuedSecret ? raw[module.issuedSecret.wireField] : undefined;
      const secret = typeof issued === 'string' && issued !== '' && !recovered ? issued : undefined;
      if (secret !== undefined) {
        const path = await this.save(change, module, resource, id, secret);
        // Owned only now that the secret is on disk: a crash before leaves an object the next plan reports.
        await this.records.recordOwned(change.kind, change.key, id, resource);
        this.onStep('recorded');
        await clearIssuePending(this.outputDir, resource.name);
        return { id, message: this.message(path, discarded, id, replaced) };
      }

      // A token whose secret nobody holds is useless: delete it and make another.
      if (!module.remove || !module.create) throw new Error(`${id}: the answer carrying the token's secret was lost`);
      await this.discard(module, resource, id);
      discarded++;
      if (round >= MAX_POST_ATTEMPTS) {
        throw new Error(
          `the answer carrying the token's secret was lost ${round} times; the tokens created without a known secret ` +
            'were deleted: apply again to create it',
        );
      }
      const endpoint = module.create;
      const body = channel.wireBody(module, resource, undefined);
      post = () => channel.send(endpoint, body);
    }
  }

  private async discard(module: KindModule, resource: DesiredResource, id: string): Promise<void> {
    if (!module.remove) return;
    try {
      await this.channel.send(module.remove(id, resource.spec));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    await this.records.forget(module.kind, id);
  }

  /** Writes the secret durably; when that fails, the new object is deleted (nobody could use it). */
  private async save(change: Change, module: KindModule, resource: DesiredResource, id: string, secret: string): Promise<string> {
    this.report.addSecret(secret);
    try {
      const path = await writeTokenSecret(this.outputDir, resource.name, secret, () => this.onStep('secret-written'));
      this.onStep('secret-synced');
      return path;
    } catch (err) {
      const why = messageOf(err);
      const deleted = await this.discard(module, resource, id).then(
        () => `so ${change.kind} ${id} was deleted again`,
        (deleteErr: unknown) => `and deleting ${change.kind} ${id} failed too (${messageOf(deleteErr)}): delete it by hand`,
      );
      throw new Error(`the secret of ${id} could not be saved (${why}), ${deleted}`);
    }
  }

  private message(path: string, discarded: number, id: string, replaced: Replaced | undefined): string {
    const notes: string[] = [];
    if (discarded > 0) {
      notes.push(`${discarded} answer${discarded === 1 ? ' was' : 's were'} lost; the token${discarded === 1 ? '' : 's'} without a known secret deleted`);
    }
    notes.push(`wrote token to ${displayPath(path)}`);
    if (replaced && replaced.id === id) notes.push(`regenerated in place (same id); the old secret stays valid until ${replaced.validUntil.toISOString()}`);
    else if (replaced) notes.push(`the old token ${replaced.id} stays valid until ${replaced.validUntil.toISOString()}`);
    return notes.join('; ');
  }
}
