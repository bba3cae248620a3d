// Pieces every kind module uses: lookups that answer 404, server-owned fields, and the standard
// GET list / GET one / PUT / DELETE routes of a collection.
import { ADMIN_USER } from '../constants.js';
import { badRequest, notFound } from '../errors.js';
import type { IdPrefix } from '../ids.js';
import { stringField, type JsonObject } from '../json.js';
import type { Action, Capability } from '../capabilities.js';
import { json, noContent, type Reply, type RequestContext, type Route } from '../routes.js';
import type { Collection, Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import type { WireSchemaName } from '../wire-schemas.js';

/** Who creates an object and when; `seeded` carries server-owned fields a seed file may set. */
export interface CreateMeta {
  userId: string;
  email: string;
  name: string;
  now: string;
  seeded?: JsonObject;
}

export function metaOf(context: RequestContext): CreateMeta {
  const { userId, email, name } = context.caller;
  return { userId, email, name, now: context.now };
}

export function seedMeta(now: string, seeded: JsonObject): CreateMeta {
  return { userId: ADMIN_USER.id, email: ADMIN_USER.email, name: ADMIN_USER.name, now, seeded };
}

/** The seeded id when a seed gives one, else a fresh `<prefix>_<16 hex>`. */
export function assignId(meta: CreateMeta, collection: Collection, prefix: IdPrefix, workspace: Workspace): string {
  const seeded = meta.seeded ? stringField(meta.seeded, 'id') : undefined;
  return seeded ?? workspace.ids.next(prefix, (id) => collection.has(id));
}

/** createdAt / createdBy / updatedAt: kept from the existing object or a seed, else set now. */
export function serverStamps(
  meta: CreateMeta,
  existing: Stored | undefined,
  createdBy: string,
): { createdAt: string; createdBy: string; updatedAt: string } {
  const seeded = meta.seeded ?? {};
  const kept = (field: string): string | undefined =>
    stringField(seeded, field) ?? (existing ? stringField(existing, field) : undefined);
  return {
    createdAt: kept('createdAt') ?? meta.now,
    createdBy: kept('createdBy') ?? createdBy,
    updatedAt: stringField(seeded, 'updatedAt') ?? meta.now,
  };
}

/** Removes fields the server owns from a client body (the schema lists them, the server sets them). */
export function withoutFields(body: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = { ...body };
  for (const field of fields) delete out[field];
  return out;
}

/** Fills the server defaults a body left out, keeping the body's fields first (readable answers). */
export function withDefaults(object: Stored, defaults: JsonObject): Stored {
  for (const [key, value] of Object.entries(defaults)) {
    if (object[key] === undefined) object[key] = structuredClone(value);
  }
  return object;
}

/** RFC 3339 UTC with milliseconds, the form every timestamp is answered in. */
export function normalizeTimestamp(value: string): string {
  return new Date(value).toISOString();
}

/** A query parameter that must be an integer within [min, max], or its default when absent. */
export function integerParameter(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
  label: string,
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw badRequest(`${label}: query parameter "${name}" must be an integer ${range}, got "${raw}"`);
  }
  return value;
}

export function requireDataset(workspace: Workspace, name: string, label: string): void {
  if (!workspace.datasets.has(name)) {
    throw notFound(`${label}: unknown dataset "${name}" (create it with POST /v2/datasets or seed it)`);
  }
}

/** Known users are those in GET /v2/users plus the built-in admin user every token acts as. */
export function isKnownUser(workspace: Workspace, id: string): boolean {
  return id === ADMIN_USER.id || workspace.users.has(id);
}

export function requireKnownUser(workspace: Workspace, id: string, label: string, field: string): void {
  if (!isKnownUser(workspace, id)) throw badRequest(`${label}: field "${field}" names unknown user "${id}"`);
}

export interface CrudSpec {
  /** e.g. `/v2/monitors` */
  base: string;
  /** Singular, for "monitor "mon_x" not found". */
  noun: string;
  collection(workspace: Workspace): Collection;
  capability(action: Action): Capability | undefined;
  create(context: RequestContext): Reply;
  update?(context: RequestContext, existing: Stored): Reply;
  /** Clean-up after a delete, e.g. dropping references to the deleted object. */
  afterDelete?(workspace: Workspace, deleted: Stored): void;
  /** Per-object check after lookup (dataset-scoped capabilities). */
  authorize?(context: RequestContext, item: Stored, action: Action): void;
  /** Objects that exist but must look absent (expired tokens). */
  isVisible?(item: Stored, context: RequestContext): boolean;
  /** The caller sees every object (isVisible would say yes to each): the list is the whole one, cached. */
  seesAll?(context: RequestContext): boolean;
  /** Replaces the plain GET list. */
  list?(context: RequestContext): Reply;
  deletable?: boolean;
}

export function crudRoutes(spec: CrudSpec): Route[] {
  const lookup = (context: RequestContext, action: Action): Stored => {
    const id = context.params.id ?? '';
    const item = spec.collection(context.workspace).get(id);
    if (!item || (spec.isVisible && !spec.isVisible(item, context))) {
      throw notFound(`${spec.noun} "${id}" not found`);
    }
    spec.authorize?.(context, item, action);
    return item;
  };
  const routes: Route[] = [
    {
      method: 'GET',
      path: spec.base,
      capability: spec.capability('read'),
      handle:
        spec.list ??
        ((context) => {
          const collection = spec.collection(context.workspace);
          const visible = spec.isVisible;
          if (!visible || spec.seesAll?.(context) === true) return json(collection.listJson());
          return json(collection.listJson([...collection.values()].filter((item) => visible(item, context))));
        }),
    },
    { method: 'POST', path: spec.base, capability: spec.capability('create'), handle: spec.create },
    {
      method: 'GET',
      path: `${spec.base}/:id`,
      capability: spec.capability('read'),
      handle: (context) => json(spec.collection(context.workspace).viewJson(lookup(context, 'read'))),
    },
  ];
  const update = spec.update;
  if (update) {
    routes.push({
      method: 'PUT',
      path: `${spec.base}/:id`,
      capability: spec.capability('update'),
      handle: (context) => update(context, lookup(context, 'update')),
    });
  }
  if (spec.deletable !== false) {
    routes.push({
      method: 'DELETE',
      path: `${spec.base}/:id`,
      capability: spec.capability('delete'),
      handle: (context) => {
        const item = lookup(context, 'delete');
        spec.collection(context.workspace).delete(item.id);
        spec.afterDelete?.(context.workspace, item);
        context.workspace.changed();
        return noContent();
      },
    });
  }
  return routes;
}

/** What each kind module offers to the server and to seed files. */
export interface KindModule {
  routes: Route[];
  /** The seed-file key, e.g. `monitors`, with import and dump in the wire shape. */
  seed?: {
    key: string;
    importItem(workspace: Workspace, raw: JsonObject, label: string, now: string): void;
    dump(workspace: Workspace): JsonObject[];
    /** Checks run after a whole seed is imported (references that may point forward). */
    verify?(workspace: Workspace, source: string): void;
  };
}

/** Checks a validated body against the workspace, builds the stored object and puts it. */
export type SaveFunction = (
  workspace: Workspace,
  body: JsonObject,
  meta: CreateMeta,
  label: string,
  existing?: Stored,
) => Stored;

/**
 * A POST (no `existing`) or PUT handler: validate, save, answer the saved object's view. `prepare`
 * turns what the service accepts beyond the OpenAPI document into the document's form first.
 */
export function writer(
  schema: WireSchemaName,
  label: string,
  collection: (workspace: Workspace) => Collection,
  save: SaveFunction,
  createStatus = 200,
  prepare: (body: unknown) => unknown = (body) => body,
): (context: RequestContext, existing?: Stored) => Reply {
  return (context, existing) => {
    const body = validateBody(schema, label, prepare(context.body));
    const item = save(context.workspace, body, metaOf(context), label, existing);
    context.workspace.changed();
    return json(collection(context.workspace).viewJson(item), existing ? 200 : createStatus);
  };
}

/** Seed import through the same validation and checks as the API; dump in the wire shape. */
export function seedWith(
  key: string,
  schema: WireSchemaName,
  collection: (workspace: Workspace) => Collection,
  save: SaveFunction,
  prepare: (body: unknown) => unknown = (body) => body,
): NonNullable<KindModule['seed']> {
  return {
    key,
    importItem(workspace, raw, label, now) {
      const meta = seedMeta(now, { ...raw });
      const body = validateBody(schema, label, prepare(raw));
      save(workspace, body, meta, label, collection(workspace).get(stringField(meta.seeded ?? {}, 'id') ?? ''));
    },
    dump: (workspace) => [...collection(workspace).values()],
  };
}

/** Removes `id` from the list `field` of every object that holds it (a deleted object's references). */
export function dropFromLists(collection: Collection, field: string, id: string): void {
  for (const item of [...collection.values()]) {
    const list = item[field];
    if (Array.isArray(list) && list.includes(id)) collection.put({ ...item, [field]: list.filter((entry) => entry !== id) });
  }
}
