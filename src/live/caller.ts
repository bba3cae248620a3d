// Who is calling, as far as the API says (docs/wire-contract.md "Who is calling"): only a personal
// token has a user behind it that GET /v2/user names; for an API token no endpoint says which
// token it is (axiom-go's ValidateCredentials: "there is no endpoint to check it").
import type { ApiClient } from '../api/types.js';
import { asString } from '../kinds/common.js';
import { isJsonObject } from '../core/json.js';

/** The prefix of a personal token (axiom-go `internal/config/token.go`, `IsPersonalToken`). */
const PERSONAL_TOKEN_PREFIX = 'xapt-';

export function isPersonalToken(token: string): boolean {
  return token.startsWith(PERSONAL_TOKEN_PREFIX);
}

/** The id of the user a personal token belongs to, or undefined (an API token, or no answer: then nothing is guarded by user). */
export async function personalTokenUser(client: ApiClient, token: string): Promise<string | undefined> {
  if (!isPersonalToken(token)) return undefined;
  try {
    const { body } = await client.request({ method: 'GET', path: '/v2/user' });
    return isJsonObject(body) ? asString(body.id) : undefined;
  } catch {
    return undefined;
  }
}
