import type { DiffGroup, FieldDiff, JsonObject, JsonValue, LiveObject, Severity } from '../core/types.js';
import type { KindName } from '../generated/kinds.js';
import type { ArrayPath, ErasedSpec, ItemField, SpecFields, SpecPath } from './spec-paths.js';

export type { ArrayPath, ErasedSpec, SpecFields, SpecPath } from './spec-paths.js';

/** Maps a referenced object's name (natural key) to its id; undefined when it cannot be resolved. */
export type ResolveName = (target: KindName, name: string) => string | undefined;
/** Maps a referenced object's id to its name (natural key); undefined when the id is unknown. */
export type ResolveId = (target: KindName, id: string) => string | undefined;

/**
 * A spec field that names objects of another kind. `Path` is the kind's spec paths
 * (`ReferenceOf<Spec>`); any string in the erased form the planner reads.
 */
export interface Reference<Path extends string = string> {
  /** Spec field holding names, e.g. `notifiers`; for nested fields a dotted path. */
  field: Path;
  /** Wire field holding ids, e.g. `notifierIds`. */
  wireField: string;
  target: KindName;
  many: boolean;
  /**
   * Names that are not references but built-in values (User role: `owner`, `admin`, `user`,
   * `read-only`, `none`), matched without regard to letter case (`isBuiltinName`).
   */
  builtins?: readonly string[];
  /**
   * The names are the keys of the object at `field`, not its values (capabilities keyed by
   * dataset name: `datasetCapabilities: { checkout: {...} }`).
   */
  keyed?: true;
  /**
   * Targets usually exist live without a file (datasets made by ingest): `validate`, which cannot
   * see live state, says nothing about an undeclared one unless a declared target is a close match.
   */
  oftenUndeclared?: true;
  /**
   * The service may know values wsync does not (a built-in role added after this release): a
   * name that resolves to no object is sent as written, and the plan warns instead of failing.
   */
  openValues?: boolean;
  /**
   * What the plan's warning says of an `openValues` name that resolves to nothing, after naming it
   * (default: it is sent as written and the workspace may refuse it).
   */
  unknownNote?: string;
  /**
   * The reference may point at an object created later in the same run (Role members -> Users, while
   * Users need Roles first): the first write leaves unresolved names out and apply writes the object
   * again once the targets exist. The planner adds no dependency edge for it.
   */
  deferrable?: boolean;
  /**
   * A file may name a target by its id, `id:<id>` (one the target's list does not show): sent as
   * that id and never looked up by name. The live spec gives such ids in that form, and a change
   * that would drop one is refused unless the file says `wsync/detach-unlisted: "true"`.
   */
  byId?: true;
}

/** A reference of a kind whose spec type is `Spec`: its `field` is checked against the spec. */
export type ReferenceOf<Spec> = Reference<SpecPath<Spec>>;

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

/** How a kind whose objects cannot be changed in place is replaced (ApiToken: regenerate). */
export interface Replacement {
  /** Why the plan replaces instead of updating; the change's reason. */
  reason: string;
  /**
   * The old object keeps working for a grace period after the replace (an API token stays valid
   * so the clients using it can move to the new one): the plan says until when.
   */
  graceful?: boolean;
  /**
   * When the old object stops working if it is replaced now with `graceMs` of grace: never later
   * than it would have stopped anyway (`live` is its wire object).
   */
  oldValidUntil?(now: Date, graceMs: number, live: JsonObject | undefined): Date;
  /**
   * The request that replaces object `id`: `body` is toWire's body for the new spec (no live
   * object), `oldValidUntil` when the old object stops working. Its answer is the new object,
   * whose id may be new or the old one.
   */
  request(id: string, body: JsonObject, oldValidUntil: Date): { endpoint: HttpEndpoint; body: JsonObject };
}

/** A request apply sends after the main write of an object (a dataset's map fields). */
export interface FollowUpWrite {
  endpoint: HttpEndpoint;
  body: JsonValue;
}

/** A secret the API issues once, in the answer to a create or replace, and never shows again. */
export interface IssuedSecret {
  /** Wire field of that answer holding it (ApiToken: `token`). */
  wireField: string;
}

/**
 * Spec paths the server fills with a value of their own when a request leaves them out, keyed by
 * the kind's spec paths (any string for the erased spec).
 */
export type Defaults<Spec = ErasedSpec> = unknown extends Spec
  ? Readonly<Record<string, JsonValue>>
  : { readonly [P in SpecPath<Spec>]?: JsonValue };

/**
 * An array of objects that name themselves by one field (a chart by `id`): compared item by item.
 * `path` is the dotted spec path of the array, e.g. `dashboard.charts`; `key` the field of each
 * item that names it, e.g. `id`.
 */
export type KeyedArray<Spec = ErasedSpec> = { [P in ArrayPath<Spec>]: { path: P; key: ItemField<Spec, P> } }[ArrayPath<Spec>];

/**
 * A part of the spec a file may give instead of the resource file (a dashboard document as the UI
 * exports it): `spec[pathField]` names a JSON file relative to the resource file, inside the tree;
 * its content, checked against `schemaFile`, becomes `spec[documentField]`.
 */
export interface DocumentFile<Path extends string = string> {
  pathField: Path;
  documentField: Path;
  /** File name under schemas/ of the content's schema. */
  schemaFile: string;
}

/** A problem the kind finds in a valid spec, beyond what its schema can say. */
export interface SpecProblem {
  severity: Severity;
  /** JSON Pointer into the spec, e.g. `/dashboard/charts/2/type`. */
  pointer: string;
  message: string;
}

/** What `wsync export` makes of one live object, by the kind's own rules. */
export interface ExportDecision {
  /** The spec to write; absent: no file for this object. */
  spec?: JsonObject;
  /** Told to the user (never holds a secret value). */
  warning?: string;
}

/** One live object as `wsync export` sees it: ids already turned into names. */
export interface ExportCandidate {
  id: string;
  name: string;
  spec: JsonObject;
}

/**
 * Identity and endpoints: what a kind is called, where it stands in the order of writes, how its
 * objects are keyed, and the requests that list, read and write them.
 */
export interface KindIdentity<Spec = ErasedSpec> {
  kind: KindName;
  /** Lower-case plural for folders and flags: `monitors`, `notifiers`, ... */
  plural: string;
  /** File name under schemas/ of the document schema. */
  schemaFile: string;
  /** Dependency level: writes run level 0 first; deletes run in reverse. */
  level: number;
  description: string;
  /** The natural key of a resource of this kind from its metadata.name and spec. */
  keyOf(name: string, spec: SpecFields<Spec>): string;
  /** Dataset a resource belongs to, for dataset-scoped kinds (their keys are `dataset/name`). */
  datasetOf?(spec: SpecFields<Spec>): string;
  list: ListStrategy;
  /**
   * The id and wire object of one item a list (or a create) answered, when the item's own `id` is
   * not how the API addresses it (DatasetField: `dataset/name`; View: its name). `dataset` is the dataset listed, for
   * per-dataset kinds. Throws (the reader names the request) when the item cannot be addressed.
   */
  liveObjectFromListItem?(item: JsonObject, dataset: string | undefined): { id: string; raw: JsonObject };
  /**
   * Reads one object of a whole-listed kind, answered as its list item is (the OpenAPI document
   * gives both the same schema): the daemon reads back the few objects it wrote this way instead
   * of listing their whole kind again (docs/incremental.md). Absent: the kind is listed again.
   */
  read?(id: string): HttpEndpoint;
  /** Absent when objects of this kind cannot be created through the API (DatasetField). */
  create?: HttpEndpoint;
  /** Update endpoint for an object id (and the object, for path parts such as the dataset). */
  update?(id: string, spec: SpecFields<Spec>): HttpEndpoint;
  /**
   * metadata.name is a field of the update's body, and the object's id does not depend on it: a
   * declaration annotated `wsync/renamed-from: OLD` updates the owned object OLD in place, keeping
   * its id (docs/wire-contract.md "Renames in place"). Absent: the name is part of the id or key (a dataset,
   * a view, a dashboard's uid), or no update changes it.
   */
  renamable?: boolean;
  /** Replace instead of update when a spec changes (ApiToken: regenerate). */
  replace?: Replacement;
  /** Absent when the object is never deleted by wsync (Org, DatasetField). */
  remove?(id: string, spec: SpecFields<Spec>): HttpEndpoint;
  /**
   * Statuses with which a write answers that it was made against a stale version (409, 412:
   * someone saved the object after the plan read it). Apply never writes over it: it reads the
   * object again and re-plans it (done if it now matches the files, else skipped saying what
   * differs; the next apply writes it). toWire gets the live object, so a kind that writes with a
   * version takes it from there.
   */
  staleWriteStatuses?: readonly number[];
  /**
   * The version the service keeps of an object (`raw` as listed or as a write answers it), for
   * kinds that version their objects: the daemon tells when a write replaced a version saved
   * outside wsync.
   */
  versionOf?: (raw: JsonObject) => number | undefined;
  /**
   * Parts of an object its main write cannot set, written through their own endpoints (a dataset's
   * map fields): apply sends these after a create, update or adoption of object `id` succeeds, in
   * order. `live` is the object as it is now (the create's answer, or as listed); give none for a
   * part that is already as declared.
   */
  followUpWrites?(id: string, spec: SpecFields<Spec>, live: LiveObject | undefined): FollowUpWrite[];
  /**
   * The add-on a workspace needs for this kind (Role: `RBAC`). Without it the list answers 403 or
   * 404: the live reader marks the kind unavailable instead of failing, and the planner gives one
   * error for the resources of it a tree declares.
   */
  addOn?: string;
}

/**
 * Wire shape: which parts of a spec are secret, sets, defaulted, computed, timestamps, immutable or
 * references, i.e. how a spec is compared and written. Every path is one of `Spec`'s
 * (`SpecPath<Spec>`), so a field the kind's schema does not have is a compile error.
 */
export interface KindWireShape<Spec = ErasedSpec> {
  /** Wire fields the server owns; never compared, never sent. */
  serverOwned: readonly string[];
  /** Spec paths (dotted, `*` matches any key) of secret values. */
  secretFields: readonly SpecPath<Spec>[];
  /** A secret the create (or replace) answer carries once; apply saves it to the token output directory. */
  issuedSecret?: IssuedSecret;
  /** Spec paths (dotted, `*` matches any key) of arrays compared without order. */
  setFields: readonly ArrayPath<Spec>[];
  /** Arrays whose items name themselves: diffs say which item was added, removed or changed, and how. */
  keyedArrays?: readonly KeyedArray<Spec>[];
  /** Spec paths the server fills with this value when the request leaves them out. */
  defaults: Defaults<Spec>;
  /**
   * Spec paths the server fills with a value of its own when left out (Annotation time, Monitor
   * intervalMinutes): left out of a file they are not compared, and an update sends the live value.
   */
  computed: readonly SpecPath<Spec>[];
  /**
   * Spec paths holding RFC 3339 timestamps: compared as instants, not as text; `null`, `""` and
   * Go's zero time (`0001-01-01T00:00:00Z`) mean absent, on both sides.
   */
  timestamps: readonly SpecPath<Spec>[];
  /**
   * Spec paths an update cannot clear (the API merges updates and has no way to unset them):
   * removing one from a file is reported as not applied, never written over and over.
   */
  uncleared?: readonly SpecPath<Spec>[];
  /** Spec fields that can only be set at creation: a change is reported, not applied. */
  immutable: readonly SpecPath<Spec>[];
  /** What a change of an immutable field takes instead (a dataset's region: a new dataset); said in the plan. */
  immutableNote?: string;
  /**
   * Spec fields that say how to write the object, not what it holds (a dashboard's `overwrite`):
   * never read back, never a diff (`alignLive` takes them as written), so not in the table of
   * fields a removal clears.
   */
  writeOptions?: readonly SpecPath<Spec>[];
  references: readonly ReferenceOf<Spec>[];
  /** A part of the spec that may come from a JSON file of its own (a dashboard document). */
  documentFile?: DocumentFile<SpecPath<Spec>>;
}

/**
 * Safeguards: what the plan refuses, warns of or leaves alone for this kind (deletes that take
 * data, updates that destroy it, objects the service makes or manages itself).
 */
export interface KindSafeguards<Spec = ErasedSpec> {
  /**
   * Deleting an object of this kind takes more than prune (a dataset's data goes with it): the
   * plan deletes one only when the kind is in `Policy.allowDeletion`, and otherwise skips it with
   * this text as the reason. It says how to opt in.
   */
  deletionOptIn?: string;
  /**
   * What a delete of this kind destroys besides the object (a dataset's data): every plan format
   * shows it loudly on the delete (also when the delete budget refuses it).
   */
  deletionWarning?: string;
  /**
   * What an update from the live spec to the desired one destroys for good (a dataset's retention
   * cut deletes its older events), or undefined when it destroys nothing. Every plan format shows
   * it under "Data loss", and the update is refused unless `Policy.allowDataLoss` names the kind
   * (`dataLossOptIn` says how). Both specs are as compared: defaults filled, ids as names.
   */
  dataLoss?(desired: SpecFields<Spec>, live: SpecFields<Spec>): string | undefined;
  /** How to opt in to an update `dataLoss` warns of; the reason of a refused one. */
  dataLossOptIn?: string;
  /**
   * Why `--prune=all:KIND` is refused for this kind: the service makes objects of it by itself
   * (a triggered monitor makes annotations), and wsync deletes only what it created.
   */
  serviceMade?: string;
  /**
   * A live object the service manages itself (a group synced from a directory): wsync never
   * writes, adopts or deletes it, and a file declaring its key is told so.
   */
  managedByService?(raw: JsonObject): boolean;
  /** Why a declared object that does not exist live is not created (kinds without `create`). */
  missingReason?(name: string, spec: SpecFields<Spec>): string;
  /**
   * A declared object that does not exist live is a plan error naming the file and line (the file
   * most likely names it wrong), not a skip (DatasetField: fields come later, from ingest).
   */
  missingIsError?: true;
  /**
   * The kind manages part of the objects of another kind (UserRole: the role of a User): a key
   * declared as this kind counts as declared for that kind (never pruned there), and one key
   * declared as both kinds is a plan error.
   */
  sameObjectsAs?: KindName;
  /**
   * Objects of this kind are members of the organization with a base role at `spec[field]`: the
   * self-lockout guard (src/plan/self-lockout.ts) never lets a plan leave no member with the role
   * `owner`, nor move the user wsync runs as to a role outside `manages` (roles that may manage
   * every kind), unless --allow-self-lockout.
   */
  memberRole?: { field: string; owner: string; manages: readonly string[] };
  /**
   * The datasets a token must be allowed to query for the kind's list to show the object (the
   * service lists only monitors on datasets the token may query). A declared object missing from
   * the list is created only when the token may query each one (`LiveState.queryAccess`); otherwise
   * it may exist unseen, and the plan refuses to create it a second time, naming the capability.
   * `datasetKind` is the kind the names are keys of (a dataset this tree creates hides nothing yet).
   */
  listedOnlyIfQueryable?: { datasetKind: KindName; datasets(spec: SpecFields<Spec>): string[] };
}

/**
 * Hooks: the kind's own conversions and checks (spec <-> wire, live values read back in another
 * form, checks a schema cannot make, reading a change, export).
 */
export interface KindHooks<Spec = ErasedSpec> {
  /** Canonical form of a desired spec before it is compared (e.g. emails lower-cased). */
  normalize?(spec: SpecFields<Spec>): JsonObject;
  /**
   * The live spec with values the service answers in another form than the one written put back
   * in the written form, so they are no diff (a role read back by its label, an MPL query read back
   * in `aplQuery`). `raw` is the live wire object. Absent: the live spec is compared as it is.
   */
  alignLive?(desired: SpecFields<Spec>, live: SpecFields<Spec>, raw: JsonObject): JsonObject;
  /**
   * Desired spec -> request body for create/update. Names become ids through `resolve`. An update
   * sends the whole object, a removed field as its default (or its empty value where the API
   * merges), so that what the file no longer says is cleared.
   */
  toWire(name: string, spec: SpecFields<Spec>, resolve: ResolveName, live?: LiveObject): JsonObject;
  /** Live wire object -> metadata.name and spec (ids become names; server-owned fields dropped). */
  fromWire(raw: JsonObject, resolveId: ResolveId): { name: string; spec: SpecFields<Spec> };
  /** Checks of a schema-valid spec that a schema cannot express (unique chart ids); `name` is metadata.name. */
  checkSpec?(name: string, spec: SpecFields<Spec>): SpecProblem[];
  /** A reviewer's reading of a change's diffs, when a flat list would not read well (a dashboard: per chart). */
  outline?(diffs: readonly FieldDiff[]): DiffGroup[];
  /** Said as the reason of a create or update of this object: how it will be written (a dashboard with `overwrite`). */
  writeReason?(spec: SpecFields<Spec>): string | undefined;
  /** export: the name a second (third, ...) live object with an already-taken key is written under. */
  duplicateName?(name: string, id: string): string;
  /** export: what a file should say that fromWire alone does not settle; absent: the spec as is. */
  exportSpec?(object: ExportCandidate): ExportDecision;
}

/** A kind module whose spec paths are `Spec`'s (see KindModule). */
export interface SpecKindModule<Spec> extends KindIdentity<Spec>, KindWireShape<Spec>, KindSafeguards<Spec>, KindHooks<Spec> {}

/** A kind module with its spec paths erased to strings (see KindModule). */
export interface ErasedKindModule extends KindIdentity, KindWireShape<ErasedSpec>, KindSafeguards, KindHooks {}

/**
 * Everything wsync knows about one resource kind, by concern. Planner, apply, the live reader and
 * export read these properties and call these hooks; they never compare a kind name.
 *
 * A kind module declares itself as `KindModule<ItsSpec>` (the generated spec type of its schema,
 * `KindSpecs[kind]`), so the compiler checks every spec path it names and every spec field its
 * hooks read (`SpecFields<Spec>`). The registry and everything that reads it use `KindModule` (no
 * argument): the module with its paths erased to strings and its specs plain JSON objects, which
 * every `KindModule<Spec>` is assignable to. (Two interfaces, not one generic one, so that the
 * compiler compares them member by member: more fields in a spec mean more paths, which its
 * variance shortcut for one generic interface gets wrong.)
 */
export type KindModule<Spec = ErasedSpec> = unknown extends Spec ? ErasedKindModule : SpecKindModule<Spec>;
