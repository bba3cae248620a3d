// wsync's own writes, where people look (#26.3): an Annotation on the datasets a reconcile wrote
// to, naming the revision and the counts, and a commit status on the revision through the GitHub
// API. Both opt-in. The annotation is created, never recorded in the inventory: wsync does not own
// it, so no prune deletes it, and the planner never looks at an undeclared annotation (a monitor's
// or a CI's are the same: docs/wire-contract.md). Neither mark ever fails what it marks: a failure
// is a warning.
import type { ApiClient } from '../api/types.js';
import type { CommitState, GitHubClient, Repository } from '../api/github.js';
import { MAX_STATUS_DESCRIPTION } from '../api/github.js';
import type { ApplyResult } from '../apply/index.js';
import type { Change, JsonObject, KindName, LiveState } from '../core/types.js';
import { MARK_ANNOTATION_TYPE } from '../kinds/annotation.js';
import { KINDS } from '../kinds/index.js';
import { referenceNames } from '../kinds/reference-names.js';
import { referenceUses } from '../plan/references.js';
import { isCommitId, treeRevision } from '../source/read/git-revision.js';
import type { ReconcileOutcome } from './index.js';

/** The placeholder of the annotation's link template: the revision's commit. */
export const REVISION_PLACEHOLDER = '{revision}';
const MAX_TITLE = 256;
const MAX_DESCRIPTION = 512;

export interface CommitStatusTarget {
  github: GitHubClient;
  repository: Repository;
  /** The status's context, which tells it from other tools' statuses on the commit. */
  context: string;
  /** Where the status links (a CI run, the daemon's status page). */
  targetUrl?: string;
}

export interface RevisionMarks {
  /** Annotate the datasets written; the link is the template with the revision in it, when given. */
  annotate?: { urlTemplate?: string };
  commitStatus?: CommitStatusTarget;
}

/** The marks a command asked for, with what they hold that outputs must not show. */
export interface MarkSetup {
  marks: RevisionMarks;
  /** The GitHub token (none without a commit status), for the command's redactor. */
  secrets: () => string[];
  close(): Promise<void>;
}

/** What was applied: the commit when known, and whether the files read differed from it. */
export interface AppliedRevision {
  commit?: string;
  /** Files read differ from `commit` (uncommitted edits): no commit status names it. */
  dirty?: boolean;
  /** How the revision is named when it is not a commit (`--revision v1.4`). */
  label?: string;
}

export interface WriteCounts {
  created: number;
  updated: number;
  deleted: number;
}

export function writeCounts(result: ApplyResult): WriteCounts {
  return { created: result.created, updated: result.updated + result.replaced, deleted: result.deleted };
}

function isWrite(counts: WriteCounts): boolean {
  return counts.created + counts.updated + counts.deleted > 0;
}

function countsText(counts: WriteCounts): string {
  return `${counts.created} created, ${counts.updated} updated, ${counts.deleted} deleted`;
}

function revisionName(revision: AppliedRevision): string {
  const name = revision.commit ?? revision.label ?? 'an unknown revision';
  return revision.dirty ? `${name} with uncommitted changes` : name;
}

/** A change that wrote what its object holds (an adoption without differences only records it). */
function wroteContent(change: Change | undefined, action: string): boolean {
  if (action === 'create' || action === 'update' || action === 'replace' || action === 'delete') return true;
  return action === 'adopt' && change !== undefined && change.diffs.length > 0;
}

/**
 * The datasets a reconcile's writes touched: each written dataset, and the datasets each written
 * object names (a view's, a virtual field's, a monitor's query's; a deleted object's as it was
 * live). Only datasets that exist after the writes: a deleted dataset carries no annotation.
 */
export function touchedDatasets(outcome: Pick<ReconcileOutcome, 'plan' | 'result' | 'desired' | 'live'>): string[] {
  const { plan, result, desired, live } = outcome;
  if (!plan || !result) return [];
  const changes = new Map(plan.changes.map((c) => [`${c.kind}\u0000${c.key}`, c]));
  const declared = new Map(desired.resources.map((r) => [`${r.kind}\u0000${r.key}`, r]));
  const touched = new Set<string>();
  const gone = new Set<string>();
  for (const event of result.events) {
    const ref = `${event.kind}\u0000${event.key}`;
    if (event.outcome !== 'done' || !wroteContent(changes.get(ref), event.action)) continue;
    if (event.kind === 'Dataset') (event.action === 'delete' ? gone : touched).add(event.key);
    const resource = declared.get(ref);
    const names = resource && event.action !== 'delete' ? datasetsDeclared(resource.kind, resource.spec) : datasetsLive(event.kind, event.id, live);
    for (const name of names) touched.add(name);
  }
  const existing = new Set([...liveDatasetNames(live), ...result.events.filter((e) => e.kind === 'Dataset' && e.outcome === 'done' && e.action === 'create').map((e) => e.key)]);
  return [...touched].filter((name) => existing.has(name) && !gone.has(name)).sort();
}

function datasetsDeclared(kind: KindName, spec: JsonObject): string[] {
  const named = referenceUses(kind, spec)
    .filter((use) => use.reference.target === 'Dataset')
    .map((use) => use.name);
  return [...named, ...(KINDS[kind].listedOnlyIfQueryable?.datasets(spec) ?? [])];
}

/** The datasets a live object names on the wire (a dataset's id is its name). */
function datasetsLive(kind: KindName, id: string | undefined, live: LiveState | undefined): string[] {
  const object = live?.objects[kind]?.find((o) => o.id === id);
  if (object === undefined) return [];
  const module = KINDS[kind];
  const named = module.references
    .filter((reference) => reference.target === 'Dataset')
    .flatMap((reference) => referenceNames({ ...reference, field: reference.wireField }, object.raw).map((n) => n.name));
  return [...named, ...(module.listedOnlyIfQueryable?.datasets(object.raw) ?? [])];
}

function liveDatasetNames(live: LiveState | undefined): string[] {
  return (live?.objects.Dataset ?? []).map((o) => (typeof o.raw.name === 'string' ? o.raw.name : o.id));
}

/** The annotation that marks a revision applied on `datasets` (the service's create body). */
export function revisionAnnotation(revision: AppliedRevision, counts: WriteCounts, datasets: readonly string[], now: Date, urlTemplate?: string): JsonObject {
  const short = revision.commit?.slice(0, 12) ?? revision.label ?? 'unknown revision';
  const body: JsonObject = {
    type: MARK_ANNOTATION_TYPE,
    datasets: [...datasets],
    time: now.toISOString(),
    title: cut(`wsync applied ${short}${revision.dirty ? '+' : ''}: ${countsText(counts)}`, MAX_TITLE),
    description: cut(`wsync applied ${revisionName(revision)}: ${countsText(counts)}; datasets ${datasets.join(', ')}`, MAX_DESCRIPTION),
  };
  const id = revision.commit ?? revision.label;
  if (urlTemplate !== undefined && id !== undefined) body.url = cut(urlTemplate.split(REVISION_PLACEHOLDER).join(encodeURIComponent(id)), MAX_DESCRIPTION);
  return body;
}

/** The commit status a reconcile's outcome gives its revision; undefined when it applied nothing it could vouch for (a plan). */
export function revisionStatus(outcome: Pick<ReconcileOutcome, 'status' | 'result' | 'plan'>): { state: CommitState; description: string } | undefined {
  const { status, result } = outcome;
  const held = outcome.plan?.changes.filter((c) => c.action === 'refused').length ?? 0;
  const stale = result?.events.filter((e) => e.stale).length ?? 0;
  const counts = result ? countsText(writeCounts(result)) : '';
  switch (status) {
    case 'applied':
      if (stale > 0) return { state: 'failure', description: `partially applied: ${stale} skipped, changed in the workspace since the plan; ${counts}` };
      if (result === undefined || !isWrite(writeCounts(result))) return { state: 'success', description: 'in sync: nothing to apply' };
      return { state: 'success', description: `applied: ${counts}` };
    case 'partial':
      return { state: 'failure', description: `partially applied: ${held} held by a safety rule; ${counts}` };
    case 'failed':
      return { state: 'failure', description: `${result?.failed ?? 0} change(s) failed; ${counts}` };
    case 'stopped':
      return { state: 'error', description: `stopped before every change was made; ${counts}` };
    case 'invalid':
      return { state: 'failure', description: 'not applied: the files do not validate' };
    case 'unappliable':
      return { state: 'failure', description: 'not applied: the plan has errors' };
    case 'refused':
      return { state: 'failure', description: 'not applied: the plan was refused by a safety rule' };
    default:
      return undefined;
  }
}

/** What a mark reads of a reconcile's outcome (not its desired and live state: a queued mark need not keep them). */
export type MarkedOutcome = Pick<ReconcileOutcome, 'status' | 'result' | 'plan'>;

export interface MarkInput {
  outcome: MarkedOutcome;
  /** The datasets the writes touched (`touchedDatasets`): the annotation's. */
  datasets: readonly string[];
  revision: AppliedRevision;
  marks: RevisionMarks;
  client: ApiClient;
  now: Date;
  /** Where a mark that could not be made is told; it never fails the reconcile. */
  warn: (message: string) => void;
}

export interface MarkResult {
  /** The annotation's id, when one was created. */
  annotation?: string;
  /** The state of the commit status set, when one was. */
  status?: CommitState;
}

/** Makes the marks `marks` asks for; a failure is a warning (the writes it marks are done). */
export async function markRevision(input: MarkInput): Promise<MarkResult> {
  const { outcome, revision, marks, warn, datasets } = input;
  const out: MarkResult = {};
  const counts = outcome.result ? writeCounts(outcome.result) : undefined;
  if (marks.annotate && counts && isWrite(counts) && datasets.length > 0) {
    const body = revisionAnnotation(revision, counts, datasets, input.now, marks.annotate.urlTemplate);
    const create = KINDS.Annotation.create;
    try {
      if (create === undefined) throw new Error('the Annotation kind has no create endpoint');
      const answer = await input.client.request<JsonObject | null>({ method: create.method, path: create.path, body });
      const id = answer.body?.id;
      if (typeof id === 'string') out.annotation = id;
    } catch (err) {
      warn(`could not annotate the datasets with the applied revision (the apply stands): ${errorText(err)}`);
    }
  }
  const status = marks.commitStatus ? revisionStatus(outcome) : undefined;
  if (marks.commitStatus && status) {
    const target = marks.commitStatus;
    if (revision.commit === undefined || revision.dirty) {
      warn(`no commit status set: ${revision.commit === undefined ? 'the revision is not a known git commit' : 'the files read have uncommitted changes'}`);
      return out;
    }
    try {
      await target.github.createCommitStatus(target.repository, revision.commit, {
        state: status.state,
        context: target.context,
        description: cut(status.description, MAX_STATUS_DESCRIPTION),
        ...(target.targetUrl === undefined ? {} : { targetUrl: target.targetUrl }),
      });
      out.status = status.state;
    } catch (err) {
      warn(`could not set the commit status of ${revision.commit.slice(0, 12)} (the apply stands): ${errorText(err)}`);
    }
  }
  return out;
}

/**
 * The revision the files in `dir` are: `--revision`/WSYNC_REVISION when given (a commit, or any
 * name), else HEAD of DIR's git work tree, else a name the caller knows (a git-sync worktree's).
 */
export async function appliedRevision(dir: string, named: string | undefined, fallbackName?: string | null): Promise<AppliedRevision> {
  const text = named?.trim();
  if (text) return isCommitId(text.toLowerCase()) ? { commit: text.toLowerCase() } : { label: text };
  const head = await treeRevision(dir);
  if (head !== undefined) return head.dirty ? { commit: head.commit, dirty: true } : { commit: head.commit };
  if (fallbackName) return isCommitId(fallbackName) ? { commit: fallbackName } : { label: fallbackName };
  return {};
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
