import { describe, expect, it } from 'vitest';
import { problemFingerprint, ProblemTracker, type ReconcileReport } from '../../../src/daemon/notify/events.js';

function report(over: Partial<ReconcileReport> = {}): ReconcileReport {
  return { result: 'applied', revision: 'rev1', at: '2026-01-01T00:00:00.000Z', trigger: 'resync', refusals: [], drift: [], observing: false, ...over };
}

describe('ProblemTracker', () => {
  it('a failure lasting three reconciles is one failure event, then one recovery', () => {
    const t = new ProblemTracker();
    const fail = (at: string) => t.observe(report({ result: 'invalid', at, message: 'monitors.yaml:3: threshold: must be number' }));
    const events = [
      ...t.observe(report()),
      ...fail('2026-01-01T00:01:00.000Z'),
      ...fail('2026-01-01T00:02:00.000Z'),
      ...fail('2026-01-01T00:03:00.000Z'),
      ...t.observe(report({ at: '2026-01-01T00:04:00.000Z' })),
      ...t.observe(report({ at: '2026-01-01T00:05:00.000Z' })),
    ];
    expect(events.map((e) => e.type)).toEqual(['reconcile.failed', 'reconcile.recovered']);
    expect(events[0]).toMatchObject({ severity: 'error', result: 'invalid', failures: 1, since: '2026-01-01T00:01:00.000Z' });
    expect(events[0]?.summary).toContain('monitors.yaml:3');
    expect(events[1]).toMatchObject({ severity: 'info', failures: 3, since: '2026-01-01T00:01:00.000Z' });
  });

  it('a different problem while failing is news; numbers in the message are not', () => {
    const t = new ProblemTracker();
    expect(t.observe(report({ result: 'error', message: 'locked by pid 12; lease expires at 10:00:01' }))).toHaveLength(1);
    expect(t.observe(report({ result: 'error', message: 'locked by pid 12; lease expires at 10:00:31' }))).toHaveLength(0);
    const next = t.observe(report({ result: 'refused', message: 'would delete 12 Monitors (more than --max-deletes 10)', refusals: ['would delete 12 Monitors'] }));
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ type: 'plan.refused', failures: 3, refusals: ['would delete 12 Monitors'] });
    expect(problemFingerprint('failed', 'a 1')).toBe(problemFingerprint('failed', 'a 22'));
    expect(problemFingerprint('failed', 'a')).not.toBe(problemFingerprint('invalid', 'a'));
  });

  it('a partial apply is "degraded: N held" once, and its end a recovery', () => {
    const t = new ProblemTracker();
    const degraded = report({ result: 'partial', message: 'degraded: 1 held: Refusing to delete 1 object', refusals: ['Refusing to delete 1 object'] });
    const first = t.observe(degraded);
    expect(first).toMatchObject([{ type: 'plan.refused', severity: 'error', result: 'partial', refusals: ['Refusing to delete 1 object'] }]);
    expect(first[0]?.summary).toBe('wsync at rev1 applied the rest of the plan and holds what a safety rule refused: degraded: 1 held: Refusing to delete 1 object');
    expect(t.observe(degraded)).toEqual([]);
    expect(t.observe(report()).map((e) => e.type)).toEqual(['reconcile.recovered']);
  });

  it('a refusal that holds changes carries the command that approves exactly them; another held set is a new event', () => {
    const t = new ProblemTracker();
    const held = (fp: string) => report({ result: 'partial', message: 'degraded: 1 held: Refusing to delete 1 object', refusals: ['Refusing to delete 1 object'], heldFingerprint: fp });
    const first = t.observe(held('held-0123456789ab-ba9876543210'));
    expect(first[0]?.approve).toEqual({ fingerprint: 'held-0123456789ab-ba9876543210', command: 'wsync ctl approve held-0123456789ab-ba9876543210' });
    expect(t.observe(held('held-0123456789ab-ba9876543210'))).toEqual([]);
    expect(t.observe(held('held-aaaaaaaaaaaa-bbbbbbbbbbbb'))[0]?.approve?.fingerprint).toBe('held-aaaaaaaaaaaa-bbbbbbbbbbbb');
    expect(t.observe(report({ result: 'failed', message: 'x' }))[0]?.approve).toBeUndefined();
  });

  it('SIGTERM and a missing DIR neither start nor end a problem', () => {
    const t = new ProblemTracker();
    expect(t.observe(report({ result: 'missing' }))).toEqual([]);
    expect(t.observe(report({ result: 'failed', message: 'x' }))).toHaveLength(1);
    expect(t.observe(report({ result: 'stopped' }))).toEqual([]);
    expect(t.observe(report({ result: 'failed', message: 'x' }))).toEqual([]);
    expect(t.observe(report()).map((e) => e.type)).toEqual(['reconcile.recovered']);
  });

  it('drift in observe mode: once per distinct set, again after it cleared; never in enforce mode or while suspended', () => {
    const t = new ProblemTracker();
    const a = { kind: 'Monitor' as const, key: 'checkout\u202e', action: 'update' as const };
    const b = { kind: 'Notifier' as const, key: 'slack', action: 'create' as const };
    const first = t.observe(report({ result: 'planned', observing: true, drift: [a] }));
    expect(first.map((e) => e.type)).toEqual(['drift.detected']);
    expect(first[0]?.drift).toEqual([{ kind: 'Monitor', key: 'checkout\\u202e', action: 'update' }]);
    expect(t.observe(report({ result: 'planned', observing: true, drift: [a] }))).toEqual([]);
    expect(t.observe(report({ result: 'planned', observing: true, drift: [b, a] }))).toHaveLength(1);
    expect(t.observe(report({ result: 'planned', observing: true, drift: [a, b] }))).toEqual([]);
    expect(t.observe(report({ result: 'planned', observing: true, drift: [] }))).toEqual([]);
    expect(t.observe(report({ result: 'planned', observing: true, drift: [a] }))).toHaveLength(1);
    expect(new ProblemTracker().observe(report({ result: 'planned', observing: false, drift: [a] }))).toEqual([]);
  });

  it('a write over a version saved outside wsync is a drift.detected event of its own, every time, also in a failed reconcile', () => {
    const t = new ProblemTracker();
    const item = { kind: 'Dashboard', key: 'checkout', id: 'checkout', replacedVersion: 3, knownVersion: 2 };
    const first = t.observe(report({ overwritten: [item] }));
    expect(first).toEqual([expect.objectContaining({ type: 'drift.detected', severity: 'warning', overwritten: [item] })]);
    expect(first[0]?.summary).toBe('wsync wrote the files over Dashboard/checkout (id checkout): version 3, saved outside wsync after version 2');
    expect(t.observe(report({ overwritten: [{ ...item, replacedVersion: 5, knownVersion: 4 }] }))).toHaveLength(1);
    const failed = t.observe(report({ result: 'failed', message: 'Monitor/x: 500', overwritten: [item, { ...item, key: 'b', id: 'b' }] }));
    expect(failed.map((e) => e.type)).toEqual(['reconcile.failed', 'drift.detected']);
    expect(failed[1]?.summary).toBe('wsync wrote the files over 2 objects saved outside wsync (their versions are listed)');
    expect(t.observe(report({ result: 'stopped', overwritten: [item] }))).toEqual([]);
  });
});
