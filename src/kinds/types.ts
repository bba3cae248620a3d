import type { JsonObject, KindName, LiveObject } from '../core/types.js';

/** Maps a referenced object's name (natural key) to its id; undefined when it cannot be resolved. */
export type ResolveName = (target: KindName, name: string) => string | undefined;
/** Maps a referenced object's id to its name (natural key); undefined when the id is unknown. */
export type ResolveId = (target: KindName, id: string) => string | undefined;

export interface Reference {
  /** Spec field holding names, e.g. `notifiers`; for nested fields a dotted path. */
  field: string;
  /** Wire field holding ids, e.g. `notifierIds`. */
  wireField: string;
  target: KindName;
  many: boolean;
  /** Names that are not references but built-in values (User role: `admin`, `member`, `read-only`). */
  builtins?: readonly string[];
  /**
   * The reference may point at an object created later in the same run (Role members -> Users, while
   * Users need Roles first): the first write leaves unresolved names out and apply writes the object
   * again once the targets exist. The planner adds no dependency edge for it.
   */
  deferrable?: boolean;
}

export interface HttpEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

/** How live state is read for a kind. */
export type ListStrategy =
  | { style: 'plain'; path: string }
  /** Paged with limit/offset; `query` holds fixed parameters (e.g. who=all). */
  | { style: 'paged'; path: string; pageSize: number; query: Record<string, string> }
  /** One call per dataset in play; `path` gets the dataset by `{dataset}` or as `?dataset=`. */
  | { style: 'per-dataset'; path: string; datasetIn: 'path' | 'query' };

export interface KindModule {
  kind: KindName;
  /** Lower-case plural for folders and flags: `monitors`, `notifiers`, ... */
  plural: string;
  /** File name under schemas/ of the document schema. */
  schemaFile: string;
  /** Dependency level: writes run level 0 first; deletes run in reverse. */
  level: number;
  description: string;

  /** The natural key of a resource of this kind from its metadata.name and spec. */
  keyOf(name: string, spec: JsonObject): string;
  /** Dataset a resource belongs to, for dataset-scoped kinds. */
  datasetOf?(spec: JsonObject): string;

  list: ListStrategy;
  /** Absent when objects of this kind cannot be created through the API (DatasetField). */
  create?: HttpEndpoint;
  /** Update endpoint for an object id (and the object, for path parts such as the dataset). */
  update?(id: string, spec: JsonObject): HttpEndpoint;
  /** Replace instead of update when a spec changes (ApiToken: regenerate). */
  replace?(id: string): HttpEndpoint;
  /** Absent when the object is never deleted by wsync (Org, DatasetField). */
  remove?(id: string, spec: JsonObject): HttpEndpoint;

  /** Wire fields the server owns; never compared, never sent. */
  serverOwned: readonly string[];
  /** Spec paths (dotted, `*` matches any key) of secret values. */
  secretFields: readonly string[];
  /** Spec paths (dotted, `*` matches any key) of arrays compared without order. */
  setFields: readonly string[];
  /** Spec paths the server fills with this value when the request leaves them out. */
  defaults: Readonly<Record<string, unknown>>;
  /** Spec paths the server fills with a value of its own (e.g. Annotation time) when left out. */
  computed: readonly string[];
  /** Spec paths holding RFC 3339 timestamps: compared as instants, not as text. */
  timestamps: readonly string[];
  /** Spec fields that can only be set at creation: a change is reported, not applied. */
  immutable: readonly string[];
  references: readonly Reference[];

  /** Canonical form of a desired spec before it is compared (e.g. emails lower-cased). */
  normalize?(spec: JsonObject): JsonObject;

  /** Desired spec -> request body for create/update. Names become ids through `resolve`. */
  toWire(name: string, spec: JsonObject, resolve: ResolveName, live?: LiveObject): JsonObject;
  /** Live wire object -> metadata.name and spec (ids become names; server-owned fields dropped). */
  fromWire(raw: JsonObject, resolveId: ResolveId): { name: string; spec: JsonObject };
}
