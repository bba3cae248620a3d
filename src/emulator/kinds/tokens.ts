// API tokens: /v2/tokens and /v2/tokens/{id}/regenerate. The secret is answered only by create and
// regenerate. A token whose expiresAt has passed is not listed, not found and does not authenticate.
import { isTokenExpired } from '../auth.js';
import { badRequest, notFound } from '../errors.js';
import { newTokenSecret } from '../ids.js';
import { isZeroTime, objectField, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { jsonOf, type RequestContext, type Route } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import { assignId, crudRoutes, metaOf, seedMeta, type CreateMeta, type KindModule } from './common.js';

const LABEL = 'tokens';
const TOKEN_FIELDS = ['name', 'description', 'expiresAt', 'orgCapabilities', 'datasetCapabilities', 'viewCapabilities'];

function expiryOf(value: unknown, field: string, label: string, nowMs: number, allowPast: boolean): string | undefined {
  // Go's zero time is how axiom-go and Terraform say "no expiry".
  if (typeof value !== 'string' || isZeroTime(value)) return undefined;
  const expiresAt = new Date(value);
  if (!allowPast && expiresAt.getTime() <= nowMs) {
    throw badRequest(`${label}: field "${field}" must be in the future, got "${value}"`);
  }
  return expiresAt.toISOString();
}

/** Builds and stores a token from CreateAPIToken fields; `secret` is kept from a seed when given. */
function saveToken(workspace: Workspace, body: JsonObject, meta: CreateMeta, label: string, secret: string): Stored {
  const expiresAt = expiryOf(body.expiresAt, 'expiresAt', label, Date.parse(meta.now), meta.seeded !== undefined);
  const token: Stored = {
    id: assignId(meta, workspace.tokens, 'tok', workspace),
    name: stringField(body, 'name') ?? '',
    description: stringField(body, 'description') ?? '',
    orgCapabilities: objectField(body, 'orgCapabilities') ?? {},
    datasetCapabilities: objectField(body, 'datasetCapabilities') ?? {},
    viewCapabilities: objectField(body, 'viewCapabilities') ?? {},
    samlAuthenticated: false,
    token: secret,
  };
  if (expiresAt !== undefined) token.expiresAt = expiresAt;
  const previous = workspace.tokens.get(token.id);
  if (previous) workspace.tokenIdsBySecret.delete(String(previous.token));
  workspace.tokens.put(token);
  workspace.tokenIdsBySecret.set(secret, token.id);
  return token;
}

/** The create/regenerate answer: the token's view plus, this once, its secret. */
const withSecret = (workspace: Workspace, token: Stored) => jsonOf({ ...workspace.tokens.viewOf(token), token: token.token });

const isVisible = (token: Stored, context: RequestContext) => !isTokenExpired(token, Date.parse(context.now));

const regenerateRoute: Route = {
  method: 'POST',
  path: '/v2/tokens/:id/regenerate',
  capability: orgCap('apiTokens', 'update'),
  handle(context) {
    const { workspace } = context;
    const id = context.params.id ?? '';
    const old = workspace.tokens.get(id);
    if (!old || !isVisible(old, context)) throw notFound(`token "${id}" not found`);
    const body = validateBody('RegenerateAPIToken', LABEL, context.body);
    const nowMs = Date.parse(context.now);
    // The old token's expiry may be now or past: that is how a caller retires it at once.
    const oldExpiresAt = expiryOf(body.existingTokenExpiresAt, 'existingTokenExpiresAt', LABEL, nowMs, true);
    const base: JsonObject = objectField(body, 'newToken') ?? Object.fromEntries(
      TOKEN_FIELDS.filter((field) => old[field] !== undefined).map((field) => [field, old[field] ?? null]),
    );
    const fields: JsonObject = { ...base };
    if ('newTokenExpiresAt' in body) {
      fields.expiresAt = expiryOf(body.newTokenExpiresAt, 'newTokenExpiresAt', LABEL, nowMs, false) ?? null;
    }
    const created = saveToken(workspace, fields, metaOf(context), LABEL, newTokenSecret());
    workspace.tokens.put({ ...old, expiresAt: oldExpiresAt ?? null });
    workspace.changed();
    return withSecret(workspace, created);
  },
};

export const tokens: KindModule = {
  routes: [
    ...crudRoutes({
      base: '/v2/tokens',
      noun: 'token',
      collection: (workspace) => workspace.tokens,
      capability: (action) => orgCap('apiTokens', action),
      isVisible,
      create(context) {
        const body = validateBody('CreateAPIToken', LABEL, context.body);
        const token = saveToken(context.workspace, body, metaOf(context), LABEL, newTokenSecret());
        context.workspace.changed();
        return withSecret(context.workspace, token);
      },
      afterDelete: (workspace, deleted) => workspace.tokenIdsBySecret.delete(String(deleted.token)),
    }),
    regenerateRoute,
  ],
  seed: {
    key: 'tokens',
    importItem(workspace, raw, label, now) {
      const secret = stringField(raw, 'token') ?? newTokenSecret();
      const meta = seedMeta(now, { ...raw });
      const body = validateBody('CreateAPIToken', label, raw);
      saveToken(workspace, body, meta, label, secret);
    },
    // A dump keeps the secret, so tokens survive a restart with --state.
    dump: (workspace) => [...workspace.tokens.values()],
  },
};
