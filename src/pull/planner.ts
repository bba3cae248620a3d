// The pure core of `wsync pull`: the tree (its files' texts and what they declare), the live
// state and the inventory in; the file changes that make the tree say what the workspace holds,
// and what could not be written, out. No I/O.
import { posix } from 'node:path';
import { compareText } from '../core/json.js';
import type { Desired, DesiredResource, Inventory, JsonObject, JsonValue, KindName, LiveState } from '../core/types.js';
import { KINDS } from '../kinds/index.js';
import { indexLive, liveWithKey } from '../plan/live-index.js';
import { isSelected, type Selection } from '../plan/selection.js';
import { declaredObjects } from '../source/index.js';
import type { SchemaSet } from '../export/schema-order.js';
import { objectDifferences, type FieldReportKind } from './differences.js';
import { finishEnvironmentEdits, OVERLAY_FOLDER, pullIntoEnvironment, withoutVariables } from './environment-edits.js';
import { newObjectFiles } from './new-objects.js';
import { documentAtLine, editDocumentFile, editYamlDocument, inDocumentFile, parseYaml } from './object-edit.js';
import { applySplices, EditRefused, type Splice } from './yaml-edit.js';
import type { ExportedObject } from '../export/workspace.js';

export interface PullInput {
  desired: Desired;
  /** The texts of the tree's files (YAML and the JSON documents they name), by path relative to it. */
  files: ReadonlyMap<string, string>;
  live: LiveState;
  inventory: Inventory;
  /** The tree as last merged (a git revision): a field changed since is a local edit, never overwritten. */
  base?: Desired;
  selection?: Selection;
  /** Remove from the files the owned objects deleted in the workspace. */
  prune: boolean;
  /** The environment of wsync.yaml the workspace is (a tree with environments): changes go to its files. */
  environment?: string;
  schemas: SchemaSet;
}

export interface FileChange {
  path: string;
  /** Absent: a new file. */
  before?: string;
  /** Absent: the file is removed. */
  after?: string;
}

export type ReportKind = FieldReportKind | 'deleted' | 'pruned' | 'override' | 'refused' | 'new' | 'ambiguous' | 'variable' | 'environment';

export interface PullReport {
  kind: KindName;
  key: string;
  what: ReportKind;
  file?: string;
  field?: string;
  message: string;
}

export interface PullPlan {
  changes: FileChange[];
  /** Objects whose fields were written: `Kind/key` -> fields. */
  pulled: { kind: KindName; key: string; fields: string[] }[];
  reports: PullReport[];
  /** New files' objects, to be recorded as owned as export records them. */
  adopt: ExportedObject[];
  /** Environment variables the new files read (`${env:NAME}` for their secrets). */
  variables: string[];
  /** Secret values the live state held, to scrub anything printed. */
  secretValues: string[];
}

const FIELD_MESSAGES: Record<FieldReportKind, string> = {
  secret: 'a secret differs from the workspace: secrets are never written into the tree; set the value where the file reads it',
  interpolated: 'the value comes from ${env:}/${file:} and differs in the workspace: not written; change the variable or file it reads',
  'local-edit': 'changed in the tree since the base and not applied yet: kept',
  conflict: 'changed both in the workspace and in the tree since the base: a conflict, not written; settle it by hand',
};

export class Edits {
  readonly splices = new Map<string, Splice[]>();
  readonly rewritten = new Map<string, string | undefined>();
  /** Documents appended to a file (made when it does not exist). */
  readonly appended = new Map<string, string[]>();
  /** Variables of the environment to set in wsync.yaml, with the object whose change sets each. */
  readonly variables = new Map<string, { value: JsonValue; kind: KindName; key: string }>();

  add(path: string, splices: readonly Splice[]): void {
    this.splices.set(path, [...(this.splices.get(path) ?? []), ...splices]);
  }
}

export type Report = (what: ReportKind, message: string, field?: string) => void;

function located(resource: DesiredResource): { file: string } {
  return { file: resource.source.file };
}

/** The pulls of one declared object that has a live object, made in its files (or reported). */
function pullObject(input: PullInput, resource: DesiredResource, live: ReturnType<typeof indexLive>, edits: Edits, out: PullPlan): void {
  const matches = liveWithKey(live, resource.kind, resource.key);
  const report: Report = (what, message, field) => {
    out.reports.push({ kind: resource.kind, key: resource.key, what, ...located(resource), ...(field !== undefined ? { field } : {}), message });
  };
  if (matches.length > 1) return report('ambiguous', `${matches.length} live objects have this key: neither is pulled`);
  const [match] = matches;
  if (!match) return;
  const entry = input.inventory.entries.find((e) => e.kind === resource.kind && e.id === match.object.id);
  const base = input.base?.resources.find((r) => r.kind === resource.kind && r.key === resource.key);
  const differences = objectDifferences({ resource, match, entry, hashKey: input.inventory.hashKey, ...(base ? { base } : {}) });
  for (const r of differences.reports) report(r.kind, FIELD_MESSAGES[r.kind], r.field);
  if (differences.pulls.length === 0) return;
  const text = input.files.get(resource.source.file);
  if (text === undefined) return report('refused', 'its file could not be read again', undefined);
  if (input.environment !== undefined && !resource.source.file.startsWith(`${OVERLAY_FOLDER}/`)) {
    pullIntoEnvironment({ ...input, environment: input.environment }, resource, text, differences.pulls, edits, report);
    out.pulled.push({ kind: resource.kind, key: resource.key, fields: differences.pulls.map((p) => p.segments.join('.').replace(/\.\[/g, '[')) });
    return;
  }
  const module = KINDS[resource.kind];
  const pulls = input.environment === undefined ? differences.pulls : withoutVariables({ ...input, environment: input.environment }, resource, text, differences.pulls, edits, report);
  if (pulls.length === 0) return;
  try {
    const docs = parseYaml(text);
    const index = documentAtLine(text, docs, resource.source.line);
    const yamlSpec = docs[index]?.toJS({ maxAliasCount: -1 }) as { spec?: JsonObject } | undefined;
    const inDocument = pulls.filter((p) => inDocumentFile(resource, yamlSpec?.spec, p));
    const inYaml = pulls.filter((p) => !inDocument.includes(p));
    const yamlEdit = inYaml.length > 0 ? editYamlDocument(text, index, module, inYaml) : undefined;
    let documentPath: string | undefined;
    let documentText: string | undefined;
    if (inDocument.length > 0) {
      const declared = module.documentFile;
      const written = declared ? yamlSpec?.spec?.[declared.pathField] : undefined;
      documentPath = posix.normalize(posix.join(posix.dirname(resource.source.file), String(written)));
      const current = input.files.get(documentPath);
      if (current === undefined) throw new EditRefused(`its document file ${documentPath} could not be read again`);
      documentText = editDocumentFile(current, resource, inDocument, input.schemas);
      if (documentText === current) documentText = undefined;
    }
    if (yamlEdit) {
      edits.add(resource.source.file, yamlEdit.splices);
      for (const note of yamlEdit.notes) report('override', note);
    }
    if (documentPath !== undefined && documentText !== undefined) edits.rewritten.set(documentPath, documentText);
    const fields = pulls.map((p) => p.segments.join('.').replace(/\.\[/g, '['));
    out.pulled.push({ kind: resource.kind, key: resource.key, fields });
  } catch (err) {
    if (!(err instanceof EditRefused) && !(err instanceof SyntaxError)) throw err;
    report('refused', `not written: ${err.message}; edit it by hand or run wsync export --kind ${resource.kind} into another folder to see the live object`);
  }
}

/** An owned object gone from the workspace: reported, and with `prune` its document taken out of the files. */
function pullDeleted(input: PullInput, resource: DesiredResource, edits: Edits, out: PullPlan): void {
  const text = input.files.get(resource.source.file);
  const base = { kind: resource.kind, key: resource.key, ...located(resource) };
  const shared = input.environment !== undefined && !resource.source.file.startsWith(`${OVERLAY_FOLDER}/`);
  if (input.prune && shared) {
    out.reports.push({ ...base, what: 'deleted', message: `owned by wsync and deleted in the workspace of environment "${input.environment}": declared in the base, which serves every environment, so not removed; remove it by hand where it should go` });
    return;
  }
  if (!input.prune || text === undefined) {
    out.reports.push({ ...base, what: 'deleted', message: 'owned by wsync and deleted in the workspace: still declared here (apply would make it again); pull --prune removes it from the files' });
    return;
  }
  const docs = parseYaml(text);
  const index = documentAtLine(text, docs, resource.source.line);
  const doc = docs[index];
  if (!doc) return;
  // The first document takes the next one's `---` with it; a later one goes from its own `---`.
  const next = docs[index + 1];
  const end = index === 0 && next && text.startsWith('---', next.range[0]) ? text.indexOf('\n', next.range[0]) + 1 || text.length : doc.range[2];
  edits.add(resource.source.file, [{ start: doc.range[0], end, text: '' }]);
  const declared = KINDS[resource.kind].documentFile;
  const written = declared ? (doc.toJS({ maxAliasCount: -1 }) as { spec?: JsonObject }).spec?.[declared.pathField] : undefined;
  if (typeof written === 'string') edits.rewritten.set(posix.normalize(posix.join(posix.dirname(resource.source.file), written)), undefined);
  out.reports.push({ ...base, what: 'pruned', message: 'owned by wsync and deleted in the workspace: removed from the files (--prune)' });
}

function owns(inventory: Inventory, kind: KindName, key: string): boolean {
  return inventory.entries.some((e) => e.kind === kind && e.key === key && e.retiredUntil === undefined);
}

export function planPull(input: PullInput): PullPlan {
  const out: PullPlan = { changes: [], pulled: [], reports: [], adopt: [], variables: [], secretValues: [] };
  const live = indexLive(input.live);
  const edits = new Edits();
  const selected = input.desired.resources.filter((r) => !input.selection || isSelected(input.selection, r));
  for (const resource of selected) {
    if (!input.live.listedKinds.includes(resource.kind)) continue;
    if (liveWithKey(live, resource.kind, resource.key).length === 0) {
      if (owns(input.inventory, resource.kind, resource.key)) pullDeleted(input, resource, edits, out);
      continue;
    }
    pullObject(input, resource, live, edits, out);
  }
  const created = newObjectFiles({
    desired: declaredObjects(input.desired),
    base: input.base ? declaredObjects(input.base) : [],
    declaredKinds: [...new Set(input.desired.resources.map((r) => r.kind))],
    live: input.live,
    inventory: input.inventory,
    selection: input.selection,
    existing: input.files,
    schemas: input.schemas,
    ...(input.environment !== undefined ? { environment: input.environment } : {}),
  });
  for (const file of created.files) edits.rewritten.set(file.path, file.content);
  for (const object of created.objects) {
    out.reports.push({ kind: object.kind, key: object.key, what: 'new', file: object.path, message: `made in the workspace: written to ${object.path} and recorded as owned` });
  }
  out.adopt = created.objects;
  out.variables = created.variables;
  out.secretValues = created.secretValues;
  out.reports.push(...created.warnings);

  finishEnvironmentEdits(input, edits, out);
  for (const [path, splices] of edits.splices) {
    const before = input.files.get(path) as string;
    const after = applySplices(before, splices);
    // A file whose every document was pruned goes.
    const empty = parseYaml(after).every((doc) => doc.contents === null) && after.split('\n').every((line) => line.trim() === '' || line.trim().startsWith('#') || line.trim() === '---');
    if (after !== before) out.changes.push({ path, before, ...(empty ? {} : { after }) });
  }
  for (const [path, documents] of edits.appended) {
    const before = input.files.get(path);
    const after = before === undefined ? documents.join('') : `${before}${before.endsWith('\n') ? '' : '\n'}${documents.join('')}`;
    edits.rewritten.set(path, after);
  }
  for (const [path, after] of edits.rewritten) {
    const before = input.files.get(path);
    if (before === after) continue;
    out.changes.push({ path, ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) });
  }
  out.changes.sort((a, b) => compareText(a.path, b.path));
  return out;
}
