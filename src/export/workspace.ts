import { stringify } from 'yaml';
import { compareText, isEmptyValue, isJsonObject, jsonEqual, setOwn, sortedIfStrings } from '../core/json.js';
import { findPaths, getAt, toPointer, withoutValueAt, withValueAt, withValuesAt } from '../core/json-paths.js';
import type { JsonObject, JsonValue, KindName, LiveObject, LiveState } from '../core/types.js';
import { KIND_NAMES, kindModule } from '../kinds/index.js';
import type { KindModule, ResolveId } from '../kinds/types.js';
import { HELD_ELSEWHERE } from '../plan/annotations.js';
import { checkName, dedupe, fileBaseNames, type Named } from './naming.js';
import {
  childSchema,
  documentSchema,
  orderBySchema,
  requiredKeys,
  schemaAt,
  type SchemaContext,
  type SchemaSet,
} from './schema-order.js';
import { withoutInvalid } from './checked.js';
import { checkExportReferences } from './references.js';
import { secretSlots, variableNames, type SecretSlot } from './secrets.js';

// The pure core of `wsync export`: live objects in, resource files out. No I/O, no clock.

export interface ExportOptions {
  /** Kinds to write files for. Objects of other kinds in `live` are read only to turn ids into names. */
  kinds: readonly KindName[];
  /** The JSON Schemas, by file name: they give the key order and which fields are required. */
  schemas: SchemaSet;
  /**
   * Where `# yaml-language-server: $schema=` points: a URL (`https://host/schemas`) or a path to the
   * schemas folder relative to the export root, with `/` separators (`../node_modules/wsync/schemas`).
   */
  schemaBase: string;
}

export interface ExportedFile {
  /** Relative to the export root, `/` separated: `<plural>/<file>.yaml`. */
  path: string;
  content: string;
}

export interface ExportedObject {
  kind: KindName;
  /** The natural key the file declares. */
  key: string;
  id: string;
  path: string;
  /** One of several live objects with one key, written under a changed name: not adoptable as is. */
  renamed: boolean;
  /** JSON Pointers (into the spec) of secret fields the API did not return (blanked on read). */
  unreadSecrets: string[];
  /** The environment variables its files read (`${env:NAME}`). */
  variables: string[];
}

export interface ExportResult {
  files: ExportedFile[];
  /** Environment variables the files read (`${env:NAME}`), sorted. Names only. */
  variables: string[];
  /** Messages for the user; they never hold a secret value. */
  warnings: string[];
  objects: ExportedObject[];
  /** Secret values the live state held (non-blank), so the caller can scrub anything it prints. */
  secretValues: string[];
}

const API_VERSION = 'wsync/v1';

interface Draft {
  module: KindModule;
  id: string;
  name: string;
  key: string;
  spec: JsonObject;
  /** The spec before `${` was escaped: a document file (read without interpolation) takes its part from here. */
  written?: JsonObject;
  renamed: boolean;
  slots: SecretSlot[];
  variables: string[];
}

function byId(a: LiveObject, b: LiveObject): number {
  return compareText(a.id, b.id);
}

function liveOf(live: LiveState, kind: KindName): LiveObject[] {
  return [...(live.objects[kind] ?? [])].sort(byId);
}

/** Kinds other objects point at by id (Notifier, Role, User). Their keys depend on their names only. */
function referenceTargets(): Set<KindName> {
  const out = new Set<KindName>();
  for (const kind of KIND_NAMES) for (const ref of kindModule(kind).references) out.add(ref.target);
  return out;
}

/** The kind's own rules for what a file should say that fromWire alone does not settle. */
function adjust(module: KindModule, draft: { id: string; name: string; spec: JsonObject }, warnings: string[]): JsonObject | undefined {
  if (!module.exportSpec) return draft.spec;
  const decision = module.exportSpec(draft);
  if (decision.warning !== undefined) warnings.push(decision.warning);
  return decision.spec;
}

/**
 * Leaves out empty values (null, '', [], {}), bottom up, as the planner reads them ("absent" and
 * "empty" mean the same), except where the schema requires the field.
 */
function withoutEmpty(schemas: SchemaSet, context: SchemaContext, value: JsonObject): JsonObject {
  // With the value: a field an `if`/`then` requires of it is kept too (an untitled annotation's `title: ""`).
  const required = requiredKeys(context, value);
  const out: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    const kept = isJsonObject(member) ? withoutEmpty(schemas, childSchema(schemas, context, key), member) : member;
    if (!isEmptyValue(kept) || required.has(key)) setOwn(out, key, kept);
  }
  return out;
}

/** Leaves out what the server fills in anyway: its defaults, and empty values. */
function withoutDefaults(module: KindModule, spec: JsonObject, schemas: SchemaSet): JsonObject {
  const context = schemaAt(schemas, module.schemaFile, ['spec']);
  const required = requiredKeys(context, spec);
  let out = withoutEmpty(schemas, context, spec);
  for (const [path, value] of Object.entries(module.defaults)) {
    const segments = path.split('.');
    if (segments.length === 1 && required.has(path)) continue;
    if (jsonEqual(getAt(out, segments), value)) out = withoutValueAt(out, segments);
  }
  return out;
}

/** `${` read from the workspace is literal text; `$${` is how a file says so. */
export function escapeInterpolation(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.split('${').join('$${');
  if (Array.isArray(value)) return value.map(escapeInterpolation);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, member] of Object.entries(value)) setOwn(out, key, escapeInterpolation(member));
  return out;
}

function sortSets(module: KindModule, spec: JsonObject): JsonObject {
  let out = spec;
  for (const match of findPaths(spec, module.setFields)) out = withValueAt(out, match.segments, sortedIfStrings(match.value));
  return out;
}

function schemaRef(base: string, file: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(base) && !/^[A-Za-z]:[\\/]/.test(base)) {
    return `${base.replace(/\/+$/, '')}/${file}`;
  }
  // Files sit one folder below the export root.
  const relative = base.replace(/\\/g, '/').replace(/\/+$/, '');
  if (relative.startsWith('/')) return `${relative}/${file}`;
  return `../${relative === '' ? '.' : relative}/${file}`.replace(/\/\.\//g, '/');
}

function render(module: KindModule, name: string, spec: JsonObject, options: ExportOptions): string {
  // A token's secret was issued to whoever made it: the file says wsync does not hold it.
  const metadata: JsonObject = module.issuedSecret ? { name: escapeInterpolation(name), annotations: { ...HELD_ELSEWHERE } } : { name: escapeInterpolation(name) };
  const document: JsonObject = { apiVersion: API_VERSION, kind: module.kind, metadata };
  const specRequired = requiredKeys(documentSchema(options.schemas, module.schemaFile)).has('spec');
  if (Object.keys(spec).length > 0 || specRequired) document.spec = spec;
  const ordered = orderBySchema(options.schemas, documentSchema(options.schemas, module.schemaFile), document);
  // Quoted by YAML 1.1 rules (`"yes"`, `"2026-01-01T00:00:00Z"`): the same text under 1.2, which
  // wsync reads, and no surprise for a 1.1 reader elsewhere in a pipeline.
  const body = stringify(ordered, { version: '1.1', lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false, indent: 2 });
  return `# yaml-language-server: $schema=${schemaRef(options.schemaBase, module.schemaFile)}\n${body}`;
}

/**
 * The document a kind keeps in a file of its own (a dashboard), as that file: pretty JSON in the
 * order of its schema (other keys sorted, arrays as they are), so a re-export is byte-identical
 * and a change reads as a small diff. Written as the API holds it: no `$${` escaping, since the
 * file is read as written.
 */
function documentFileOf(
  module: KindModule,
  draft: Draft,
  base: string,
  schemas: SchemaSet,
): { file: ExportedFile; field: string; pointer: JsonObject } | undefined {
  const declared = module.documentFile;
  const value = declared ? sortSets(module, draft.written ?? draft.spec)[declared.documentField] : undefined;
  if (!declared || value === undefined) return undefined;
  const ordered = orderBySchema(schemas, documentSchema(schemas, declared.schemaFile), value);
  const name = `${base}.json`;
  return {
    file: { path: `${module.plural}/${name}`, content: `${JSON.stringify(ordered, null, 2)}\n` },
    field: declared.documentField,
    pointer: { [declared.pathField]: name },
  };
}

export function exportWorkspace(live: LiveState, options: ExportOptions): ExportResult {
  const warnings: string[] = [];
  const selected = KIND_NAMES.filter((kind) => options.kinds.includes(kind));
  for (const kind of selected) {
    const why = live.unavailable?.[kind];
    if (why !== undefined) warnings.push(`${kind}: not exported, ${kindModule(kind).addOn ?? kind} is not available on this workspace (${why})`);
  }
  const finalNames = finalNamesOf(live, selected, warnings);
  const drafts = draftsOf(live, selected, finalNames, warnings);
  const { secretValues, names } = secretsAsVariables(drafts, options, warnings);
  const { files, objects } = filesOf(selected, drafts, options);
  // Only what plans clean is written: an object whose files would not validate is left out.
  return withoutInvalid({
    files,
    variables: [...new Set(names)].sort(compareText),
    warnings,
    objects,
    secretValues: [...secretValues].sort(compareText),
  });
}

/**
 * Pass 1: names of every object, and final names for the kinds others point at, so that a
 * reference to a renamed duplicate names the file that declares it.
 */
function finalNamesOf(live: LiveState, selected: readonly KindName[], warnings: string[]): Map<KindName, Map<string, string>> {
  const targets = referenceTargets();
  const none: ResolveId = () => undefined;
  const finalNames = new Map<KindName, Map<string, string>>();
  const firstSpecs = new Map<string, JsonObject>();
  for (const kind of KIND_NAMES) {
    const module = kindModule(kind);
    const items: Named[] = [];
    for (const object of liveOf(live, kind)) {
      const { name, spec } = module.fromWire(object.raw, none);
      firstSpecs.set(`${kind}\u0000${object.id}`, spec);
      items.push({ id: object.id, name, key: module.keyOf(name, module.normalize?.(spec) ?? spec) });
    }
    const renamed = targets.has(kind)
      ? dedupe(module, items, (id) => firstSpecs.get(`${kind}\u0000${id}`) ?? {}, selected.includes(kind) ? warnings : [])
      : new Map<string, string>();
    finalNames.set(kind, new Map(items.map((item) => [item.id, renamed.get(item.id) ?? item.name])));
  }
  return finalNames;
}

/** Pass 2: specs with names for ids, per-kind rules, then duplicates of the other kinds. */
function draftsOf(live: LiveState, selected: readonly KindName[], finalNames: Map<KindName, Map<string, string>>, warnings: string[]): Draft[] {
  const targets = referenceTargets();
  const resolveId: ResolveId = (target, id) => finalNames.get(target)?.get(id);
  const knownNames = new Map<KindName, Set<string>>();
  const known = (target: KindName): Set<string> | undefined => {
    if (!live.listedKinds.includes(target)) return undefined;
    let names = knownNames.get(target);
    if (!names) knownNames.set(target, (names = new Set(finalNames.get(target)?.values())));
    return names;
  };
  const drafts: Draft[] = [];
  for (const kind of selected) {
    const module = kindModule(kind);
    const kindDrafts: Draft[] = [];
    for (const object of liveOf(live, kind)) {
      const wire = module.fromWire(object.raw, resolveId);
      if (module.managedByService?.(object.raw)) {
        warnings.push(`${module.kind} "${wire.name}" (id ${object.id}): skipped, the service manages it (wsync never writes it)`);
        continue;
      }
      const name = finalNames.get(kind)?.get(object.id) ?? wire.name;
      if (!checkName(module, object.id, name, warnings)) continue;
      const base = { id: object.id, name, spec: wire.spec };
      const referenced = checkExportReferences(module, base, known, warnings);
      if (!referenced) continue;
      const adjusted = adjust(module, { ...base, spec: referenced }, warnings);
      if (!adjusted) continue;
      const spec = module.normalize?.(adjusted) ?? adjusted;
      kindDrafts.push({ module, id: object.id, name, key: module.keyOf(name, spec), spec, renamed: name !== wire.name, slots: [], variables: [] });
    }
    if (!targets.has(kind)) {
      const specs = new Map(kindDrafts.map((d) => [d.id, d.spec]));
      const renamed = dedupe(module, kindDrafts, (id) => specs.get(id) ?? {}, warnings);
      for (const draft of kindDrafts) {
        const name = renamed.get(draft.id);
        if (name === undefined) continue;
        draft.name = name;
        draft.key = module.keyOf(name, draft.spec);
        draft.renamed = true;
      }
    }
    drafts.push(...kindDrafts);
  }
  return drafts;
}

/** Secrets: every secret field becomes ${env:VARIABLE}; the value never goes further than here. */
function secretsAsVariables(drafts: readonly Draft[], options: ExportOptions, warnings: string[]): { secretValues: Set<string>; names: string[] } {
  const secretValues = new Set<string>();
  const requests: Array<{ draft: Draft; slot: SecretSlot }> = [];
  for (const draft of drafts) {
    draft.slots = secretSlots(draft.module, draft.spec, options.schemas);
    draft.written = draft.spec;
    draft.spec = escapeInterpolation(draft.spec) as JsonObject;
    const unread = draft.slots.filter((slot) => slot.value === undefined).map((slot) => `spec.${slot.segments.join('.')}`);
    if (unread.length > 0) {
      warnings.push(
        `${draft.module.kind} "${draft.name}": the API does not return ${unread.join(', ')}; set the variables to the ` +
          'values in use. With --adopt, wsync trusts them and the first apply records them without writing; ' +
          'without it, plan shows this object as an update ("sensitive value not known") until an apply writes them.',
      );
    }
    for (const slot of draft.slots) {
      if (slot.value !== undefined) secretValues.add(slot.value);
      requests.push({ draft, slot });
    }
  }
  const names = variableNames(
    requests.map(({ draft, slot }) => ({
      kind: draft.module.kind,
      key: draft.key,
      fieldPart: slot.fieldPart,
      identity: `${draft.module.kind}\u0000${draft.key}\u0000${slot.segments.join('\u0000')}`,
    })),
  );
  // Put per object at once: one copy per value made an object of 60,000 headers quadratic.
  const puts = new Map<Draft, [string[], JsonValue][]>();
  requests.forEach(({ draft, slot }, i) => {
    const list = puts.get(draft) ?? [];
    list.push([slot.segments, `\${env:${names[i] as string}}`]);
    puts.set(draft, list);
    draft.variables.push(names[i] as string);
  });
  for (const [draft, list] of puts) draft.spec = withValuesAt(draft.spec, list);
  return { secretValues, names };
}

/** Files: one per object, under the kind's folder, sorted by path. */
function filesOf(selected: readonly KindName[], drafts: readonly Draft[], options: ExportOptions): { files: ExportedFile[]; objects: ExportedObject[] } {
  const files: ExportedFile[] = [];
  const objects: ExportedObject[] = [];
  for (const kind of selected) {
    const module = kindModule(kind);
    const kindDrafts = drafts.filter((d) => d.module.kind === kind);
    const bases = fileBaseNames(kindDrafts.map((d) => ({ identity: `${kind}\u0000${d.key}`, key: d.key })));
    kindDrafts.forEach((draft, i) => {
      let spec = withoutDefaults(module, sortSets(module, draft.spec), options.schemas);
      const base = bases[i] as string;
      const path = `${module.plural}/${base}.yaml`;
      const document = documentFileOf(module, draft, base, options.schemas);
      if (document) {
        files.push(document.file);
        spec = { ...withoutValueAt(spec, [document.field]), ...document.pointer };
      }
      files.push({ path, content: render(module, draft.name, spec, options) });
      const unreadSecrets = draft.slots.filter((slot) => slot.value === undefined).map((slot) => toPointer(slot.segments));
      objects.push({ kind, key: draft.key, id: draft.id, path, renamed: draft.renamed, unreadSecrets, variables: draft.variables });
    });
  }
  files.sort((a, b) => compareText(a.path, b.path));
  objects.sort((a, b) => compareText(a.path, b.path));
  return { files, objects };
}
