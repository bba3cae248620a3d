// What wsync can learn of the credential it runs with, for the self-lockout guard
// (src/plan/self-lockout.ts; what is and is not guarded: docs/wire-contract.md "Who is calling").
import type { ApiClient } from '../api/types.js';
import type { LiveState, Policy } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import { personalTokenUser } from '../live/caller.js';
import type { SelfIdentity } from '../plan/index.js';
import { tokenFileHolding, tokenFileName } from '../state/index.js';

/**
 * The API token wsync runs with: by `--self-token-id`, and by its secret when wsync issued it (the
 * token output directory holds that secret under the token's name); the user behind a personal
 * token, from GET /v2/user.
 */
export async function selfIdentityOf(
  client: ApiClient,
  apiToken: (() => string) | undefined,
  policy: Pick<Policy, 'selfTokenId'>,
  live: LiveState,
  tokenDir: string,
): Promise<SelfIdentity> {
  const ids: string[] = [];
  const how: string[] = [];
  if (policy.selfTokenId !== undefined) {
    ids.push(policy.selfTokenId);
    how.push('--self-token-id');
  }
  const secret = apiToken?.() ?? '';
  const file = secret === '' ? undefined : await tokenFileHolding(tokenDir, secret);
  if (file !== undefined) {
    for (const kind of KIND_NAMES) {
      const module = KINDS[kind];
      if (module.issuedSecret === undefined) continue;
      for (const object of live.objects[kind] ?? []) {
        if (tokenFileName(module.fromWire(object.raw, () => undefined).name) === file && !ids.includes(object.id)) ids.push(object.id);
      }
    }
    how.push(`its secret is the one wsync saved as ${file} in the token output directory`);
  }
  const userId = secret === '' ? undefined : await personalTokenUser(client, secret);
  return {
    ...(ids.length > 0 ? { tokenIds: { ids, how: how.join('; ') } } : {}),
    ...(userId === undefined ? {} : { user: { id: userId, how: 'GET /v2/user names it' } }),
  };
}
