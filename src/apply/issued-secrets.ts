// Secrets the API issues once, in the answer to a create or replace (an API token's secret): saved
// to the token output directory as the answer arrives, never logged. A kind has one when its
// module declares `issuedSecret`.
import { isAbsolute, relative } from 'node:path';
import { ApiError } from '../api/errors.js';
import type { ApiResponse } from '../api/types.js';
import type { Change, DesiredResource } from '../core/types.js';
import type { KindModule } from '../kinds/types.js';
import { writeTokenSecret } from '../state/index.js';
import type { InventoryRecords } from './inventory-records.js';
import type { ApplyReport } from './report.js';
import type { Done } from './types.js';
import { MAX_POST_ATTEMPTS, messageOf, type WriteChannel } from './writes.js';

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

export class IssuedSecrets {
  constructor(
    private readonly channel: WriteChannel,
    private readonly records: InventoryRecords,
    private readonly report: ApplyReport,
    private readonly outputDir: string,
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
    oldId?: string,
  ): Promise<Done> {
    const { channel } = this;
    let post = firstPost;
    let previousId = oldId;
    let discarded = 0;
    for (let round = 1; ; round++) {
      const { raw, recovered } = await channel.postWithRecovery(change.kind, change.key, resource, post);
      const id = channel.idOf(raw, change);
      channel.index.set(change.kind, change.key, id, previousId);
      previousId = id;
      // Owned from here on: if what follows fails, the object can still be pruned or replaced.
      await this.records.recordOwned(change.kind, change.key, id, resource);
      const issued = module.issuedSecret ? raw[module.issuedSecret.wireField] : undefined;
      const secret = typeof issued === 'string' && issued !== '' && !recovered ? issued : undefined;
      if (secret !== undefined) return this.save(id, resource, secret, discarded);

      // A token whose secret nobody holds is useless and, once owned, would look in sync for ever.
      if (!module.remove || !module.create) throw new Error(`${id}: the answer carrying the token's secret was lost`);
      try {
        await channel.send(module.remove(id, resource.spec));
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      await this.records.forget(change.kind, id);
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

  private async save(id: string, resource: DesiredResource, secret: string, discarded: number): Promise<Done> {
    this.report.addSecret(secret);
    const path = await writeTokenSecret(this.outputDir, resource.name, secret).catch((err: unknown) => {
      throw new Error(`${id}: the token exists but its secret could not be saved (${messageOf(err)})`);
    });
    const wrote = `wrote token to ${displayPath(path)}`;
    if (discarded === 0) return { id, message: wrote };
    const lost = `${discarded} answer${discarded === 1 ? ' was' : 's were'} lost; the token${discarded === 1 ? '' : 's'} without a known secret deleted`;
    return { id, message: `${lost}; ${wrote}` };
  }
}
