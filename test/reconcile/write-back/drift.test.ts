// The pure parts of the write-back (#26.2): which drift wsync did not make (found in sync before,
// declaration unchanged, different now), who changed it and when as the service says, the plan
// with held changes skipped, and the commit message.
import { describe, expect, it } from 'vitest';
import type { Change, Desired, DesiredResource, KindName, LiveState, Plan } from '../../../src/core/types.js';
import { holdChanges, lastChangeOf, WorkspaceEditWatch } from '../../../src/reconcile/write-back/drift.js';
import { commitMessage, pullRequestBody } from '../../../src/reconcile/write-back/message.js';

function declared(kind: KindName, key: string, spec: Record<string, unknown>): DesiredResource {
  return { kind, name: key, key, annotations: {}, spec: spec as DesiredResource['spec'], source: { file: 'a.yaml', line: 1, column: 1 }, locations: {}, interpolated: [] };
}

function desiredOf(...resources: DesiredResource[]): Desired {
  return { resources, diagnostics: [], skipped: [], secretValues: [] } as unknown as Desired;
}

function change(kind: KindName, key: string, action: Change['action'], diffs: Change['diffs'] = []): Change {
  return { kind, key, name: key, action, id: `id-${key}`, diffs, dependsOn: [], level: 0, owned: true };
}

function planOf(...changes: Change[]): Plan {
  const summary = { create: 0, update: 0, replace: 0, delete: 0, adopt: 0, abandon: 0, noop: 0, skipped: 0, refused: 0 };
  for (const c of changes) summary[c.action] += 1;
  return { version: 1, changes, diagnostics: [], refusals: [], summary, fingerprint: {} } as unknown as Plan;
}

const LIVE: LiveState = {
  objects: { Dashboard: [{ kind: 'Dashboard', id: 'id-overview', raw: { id: 'id-overview', updatedBy: 'usr_ada', updatedAt: '2026-11-28T03:10:00Z' } }] },
  listedKinds: ['Dashboard', 'Monitor'],
  listedDatasets: {},
  requests: 0,
} as LiveState;

const THRESHOLD = [{ path: 'threshold', before: 5, after: 3 }];

describe('WorkspaceEditWatch', () => {
  it('finds an object changed live after it was in sync, its declaration the same', () => {
    const watch = new WorkspaceEditWatch('all');
    const desired = desiredOf(declared('Monitor', 'errors', { threshold: 3 }));
    expect(watch.observe(planOf(change('Monitor', 'errors', 'update', THRESHOLD)), desired, LIVE)).toEqual([]);
    expect(watch.observe(planOf(change('Monitor', 'errors', 'noop')), desired, LIVE)).toEqual([]);
    const [drifted] = watch.observe(planOf(change('Monitor', 'errors', 'update', THRESHOLD)), desired, LIVE);
    expect(drifted).toMatchObject({ kind: 'Monitor', key: 'errors', id: 'id-errors', fields: ['threshold'] });
    // Observe mode skips it with its diffs: the same drift, the same fingerprint.
    const [observed] = watch.observe(planOf(change('Monitor', 'errors', 'skipped', THRESHOLD)), desired, LIVE);
    expect(observed?.fingerprint).toBe(drifted?.fingerprint);
    const [again] = watch.observe(planOf(change('Monitor', 'errors', 'update', [{ path: 'threshold', before: 7, after: 3 }])), desired, LIVE);
    expect(again?.fingerprint).not.toBe(drifted?.fingerprint);
  });

  it('never takes a file edit not applied yet for a UI edit, and keeps to the chosen kinds', () => {
    const watch = new WorkspaceEditWatch(['Dashboard']);
    watch.observe(planOf(change('Monitor', 'errors', 'noop'), change('Dashboard', 'overview', 'adopt')), desiredOf(declared('Monitor', 'errors', { threshold: 3 }), declared('Dashboard', 'overview', { name: 'Overview' })), LIVE);
    const edited = desiredOf(declared('Monitor', 'errors', { threshold: 4 }), declared('Dashboard', 'overview', { name: 'Overview, edited' }));
    expect(watch.observe(planOf(change('Monitor', 'errors', 'update', THRESHOLD), change('Dashboard', 'overview', 'update', [{ path: 'name' }])), edited, LIVE)).toEqual([]);
    const same = desiredOf(declared('Monitor', 'errors', { threshold: 4 }), declared('Dashboard', 'overview', { name: 'Overview, edited' }));
    watch.observe(planOf(change('Monitor', 'errors', 'noop'), change('Dashboard', 'overview', 'noop')), same, LIVE);
    const found = watch.observe(planOf(change('Monitor', 'errors', 'update', THRESHOLD), change('Dashboard', 'overview', 'update', [{ path: 'name' }])), same, LIVE);
    expect(found.map((d) => `${d.kind}/${d.key} ${d.who} ${d.when}`)).toEqual(['Dashboard/overview usr_ada 2026-11-28T03:10:00Z']);
  });

  it('reads who and when only where the service says them', () => {
    expect(lastChangeOf(LIVE, 'Dashboard', 'id-overview')).toEqual({ who: 'usr_ada', when: '2026-11-28T03:10:00Z' });
    expect(lastChangeOf(LIVE, 'Monitor', 'id-errors')).toEqual({});
  });
});

describe('holdChanges', () => {
  it('skips the held objects\' updates with the reason, diffs kept and the summary recounted', () => {
    const plan = planOf(change('Monitor', 'errors', 'update', THRESHOLD), change('Monitor', 'latency', 'update', THRESHOLD), change('Monitor', 'ok', 'noop'));
    const held = holdChanges(plan, new Map([['Monitor/errors', 'held for review']]));
    expect(held.changes.map((c) => [c.key, c.action, c.reason])).toEqual([
      ['errors', 'skipped', 'held for review'],
      ['latency', 'update', undefined],
      ['ok', 'noop', undefined],
    ]);
    expect(held.changes[0]?.diffs).toEqual(THRESHOLD);
    expect(held.summary).toMatchObject({ update: 1, skipped: 1, noop: 1 });
    expect(plan.changes[0]?.action).toBe('update');
    expect(holdChanges(plan, new Map())).toBe(plan);
  });
});

describe('the words of a write-back', () => {
  it('names each object, its fields, and who changed it when the service says', () => {
    const message = commitMessage(
      [
        { kind: 'Dashboard', key: 'overview', fields: ['charts[errors].query.apl'] },
        { kind: 'Monitor', key: 'errors', fields: ['threshold', 'description'] },
      ],
      [{ kind: 'Dashboard', key: 'overview', id: 'd', fields: [], who: 'usr_ada', when: '2026-11-28T03:10:00Z', fingerprint: '', declaration: '' }],
    );
    expect(message).toBe(
      'wsync: 2 objects changed in the workspace\n\nWritten back by wsync run from the live workspace:\n\n' +
        '- Dashboard/overview: charts[errors].query.apl (changed by usr_ada at 2026-11-28T03:10:00Z)\n' +
        '- Monitor/errors: threshold, description\n',
    );
    expect(pullRequestBody([message], true)).toContain('Until this pull request is merged or closed, wsync does not put these objects back');
    expect(pullRequestBody([message], false)).toContain('Merge it to keep the changes in git');
  });
});
