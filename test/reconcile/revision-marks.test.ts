// What the marks of an applied revision say (#26.3): the datasets a reconcile's writes touched, the
// annotation's text and link, the commit status of each outcome, and that neither mark ever fails
// what it marks. End to end: test/cli/commands/apply-marks.test.ts, test/daemon/revision-marks.test.ts.
import { describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/api/github.js';
import type { ApplyEvent, ApplyResult } from '../../src/apply/index.js';
import type { Change, Desired, DesiredResource, JsonObject, KindName, LiveState, Plan } from '../../src/core/types.js';
import type { ReconcileOutcome } from '../../src/reconcile/index.js';
import { markRevision, revisionAnnotation, revisionStatus, touchedDatasets } from '../../src/reconcile/revision-marks.js';
import { PhaseTimes } from '../../src/core/phase-times.js';
import { apiClientFor, useTestEmulator } from '../support/emulator.js';
import { useGitHubStandIn } from '../support/github.js';
import { MONITOR_DATASETS } from '../support/yaml.js';

const emulator = useTestEmulator({ seed: 2604 });
const github = useGitHubStandIn();

function change(kind: KindName, key: string, action: Change['action'], diffs: Change['diffs'] = []): Change {
  return { kind, key, name: key, action, diffs, dependsOn: [], level: 0, owned: true };
}

function declared(kind: KindName, key: string, spec: JsonObject): DesiredResource {
  return { kind, name: key, key, annotations: {}, spec, source: { file: 'x.yaml', line: 1, column: 1 }, locations: {}, interpolated: [] };
}

function event(kind: KindName, key: string, action: ApplyEvent['action'], extra: Partial<ApplyEvent> = {}): ApplyEvent {
  return { kind, key, action, outcome: 'done', durationMs: 1, ...extra };
}

function outcomeOf(parts: { changes: Change[]; events: ApplyEvent[]; resources?: DesiredResource[]; live?: LiveState; status?: ReconcileOutcome['status'] }): ReconcileOutcome {
  const count = (action: string): number => parts.events.filter((e) => e.action === action && e.outcome === 'done').length;
  const result: ApplyResult = {
    created: count('create'),
    updated: count('update'),
    replaced: count('replace'),
    deleted: count('delete'),
    adopted: count('adopt'),
    abandoned: 0,
    failed: parts.events.filter((e) => e.outcome === 'failed').length,
    skipped: 0,
    unchanged: 0,
    writes: parts.events.length,
    durationMs: 1,
    aborted: false,
    events: parts.events,
  };
  const desired: Desired = { resources: parts.resources ?? [], diagnostics: [], stats: { files: 1, documents: 1, skipped: 0 }, secretValues: [] };
  const plan = { version: 1, changes: parts.changes, diagnostics: [], refusals: [] } as unknown as Plan;
  return { status: parts.status ?? 'applied', desired, live: parts.live, plan, result, diagnostics: [], liveRequests: 0, liveReused: false, phases: new PhaseTimes() };
}

const LIVE: LiveState = {
  objects: {
    Dataset: ['app', 'checkout', 'old', 'logs'].map((name) => ({ kind: 'Dataset', id: name, raw: { name } })),
    View: [{ kind: 'View', id: 'v1', raw: { id: 'v1', name: 'errors', datasets: ['logs'] } }],
  },
  listedKinds: ['Dataset', 'View'],
  listedDatasets: {},
  requests: 2,
};

describe('touchedDatasets', () => {
  it("takes each written dataset and the datasets written objects name, a deleted object's as it was live", () => {
    const outcome = outcomeOf({
      changes: [
        change('Dataset', 'fresh', 'create'),
        change('Monitor', 'slow', 'update'),
        change('View', 'errors', 'delete'),
        change('Dataset', 'old', 'delete'),
        change('VirtualField', 'app/doubled', 'adopt'),
        change('Notifier', 'team', 'create'),
      ],
      events: [
        event('Dataset', 'fresh', 'create', { id: 'fresh' }),
        event('Monitor', 'slow', 'update'),
        event('View', 'errors', 'delete', { id: 'v1' }),
        event('Dataset', 'old', 'delete'),
        // An adoption without differences only records the object: nothing touched.
        event('VirtualField', 'app/doubled', 'adopt'),
        event('Notifier', 'team', 'create'),
      ],
      resources: [
        declared('Monitor', 'slow', { type: 'Threshold', aplQuery: "['checkout'] | join (['old'])" }),
        declared('VirtualField', 'app/doubled', { dataset: 'app', expression: 'x' }),
      ],
      live: LIVE,
    });
    // `old` was deleted: no annotation can name it.
    expect(touchedDatasets(outcome)).toEqual(['checkout', 'fresh', 'logs']);
  });

  it('leaves out failed and skipped changes', () => {
    const outcome = outcomeOf({
      changes: [change('Dataset', 'app', 'update')],
      events: [event('Dataset', 'app', 'update', { outcome: 'failed' })],
      live: LIVE,
    });
    expect(touchedDatasets(outcome)).toEqual([]);
  });
});

describe('the annotation and the status', () => {
  it('names the revision and the counts, links the commit, and keeps within the service limits', () => {
    const now = new Date('2026-11-28T03:00:00Z');
    const body = revisionAnnotation({ commit: 'f'.repeat(40) }, { created: 1, updated: 2, deleted: 3 }, ['app'], now, 'https://git.example/c/{revision}');
    expect(body).toEqual({
      type: 'wsync-apply',
      datasets: ['app'],
      time: '2026-11-28T03:00:00.000Z',
      title: `wsync applied ${'f'.repeat(12)}: 1 created, 2 updated, 3 deleted`,
      description: `wsync applied ${'f'.repeat(40)}: 1 created, 2 updated, 3 deleted; datasets app`,
      url: `https://git.example/c/${'f'.repeat(40)}`,
    });
    const many = Array.from({ length: 100 }, (_, i) => `dataset-number-${i}`);
    expect(String(revisionAnnotation({ label: 'v1' }, { created: 0, updated: 1, deleted: 0 }, many, now).description)).toHaveLength(512);
  });

  it('gives each outcome its commit status, and none to a plan', () => {
    const base = { changes: [change('Dataset', 'app', 'update'), change('Monitor', 'm', 'refused')], events: [event('Dataset', 'app', 'update')] };
    expect(revisionStatus(outcomeOf({ ...base }))).toEqual({ state: 'success', description: 'applied: 0 created, 1 updated, 0 deleted' });
    expect(revisionStatus(outcomeOf({ changes: [], events: [] }))).toEqual({ state: 'success', description: 'in sync: nothing to apply' });
    expect(revisionStatus(outcomeOf({ ...base, status: 'partial' }))?.description).toBe('partially applied: 1 held by a safety rule; 0 created, 1 updated, 0 deleted');
    expect(revisionStatus(outcomeOf({ ...base, status: 'failed' }))?.state).toBe('failure');
    expect(revisionStatus(outcomeOf({ ...base, status: 'stopped' }))?.state).toBe('error');
    expect(revisionStatus(outcomeOf({ ...base, status: 'invalid' }))).toEqual({ state: 'failure', description: 'not applied: the files do not validate' });
    const stale = outcomeOf({ ...base, events: [event('Dashboard', 'd', 'update', { outcome: 'skipped', stale: true })] });
    expect(revisionStatus(stale)?.state).toBe('failure');
    expect(revisionStatus(outcomeOf({ ...base, status: 'planned' }))).toBeUndefined();
  });
});

describe('markRevision', () => {
  it('warns, never throws, when the workspace or GitHub refuses a mark', async () => {
    const client = apiClientFor(emulator);
    await emulator.seed(MONITOR_DATASETS);
    const gh = github.get();
    const githubClient = createGitHubClient({ url: gh.url, token: () => gh.token });
    gh.failNext({ status: 422, body: { message: 'No commit found for SHA' } });
    const warnings: string[] = [];
    // A dataset the workspace does not have (say, deleted meanwhile): the annotation is refused.
    const outcome = outcomeOf({ changes: [change('Dataset', 'gone', 'create')], events: [event('Dataset', 'gone', 'create')], live: LIVE });
    const made = await markRevision({
      outcome,
      datasets: touchedDatasets(outcome),
      revision: { commit: 'a'.repeat(40) },
      marks: { annotate: {}, commitStatus: { github: githubClient, repository: { owner: 'acme', name: 'workspace' }, context: 'wsync/prod' } },
      client,
      now: new Date(),
      warn: (message) => warnings.push(message),
    });
    await githubClient.close();
    await client.close();
    expect(made).toEqual({});
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^could not annotate the datasets with the applied revision \(the apply stands\): POST \/v2\/annotations: 404 Not Found: annotations: unknown dataset "gone"/);
    expect(warnings[1]).toBe(`could not set the commit status of ${'a'.repeat(12)} (the apply stands): GitHub POST /repos/acme/workspace/statuses/${'a'.repeat(40)}: 422: No commit found for SHA`);
    expect(gh.requests[0]?.body).toMatchObject({ state: 'success', context: 'wsync/prod' });
  });
});
