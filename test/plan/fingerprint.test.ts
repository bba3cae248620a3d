import { describe, expect, it } from 'vitest';
import type { LiveObject } from '../../src/core/types.js';
import { diffFingerprints, fingerprintInputs } from '../../src/plan/index.js';
import { desiredOf, liveOf, obj, resource, wire } from './builders.js';

const notifier = (url: string) => resource('Notifier', 'slack', { properties: { slack: { slackUrl: url } } });
const monitor = (threshold: number) => resource('Monitor', 'm', { type: 'Threshold', aplQuery: 'q', threshold });
const liveMonitor = (updatedAt: string): LiveObject => ({
  ...wire.monitor('mon_1', 'm', { type: 'Threshold', aplQuery: 'q', threshold: 1 }),
  raw: { ...wire.monitor('mon_1', 'm', { type: 'Threshold', aplQuery: 'q', threshold: 1 }).raw, updatedAt },
});
const role = wire.role('role_1', 'r');

describe('fingerprints', () => {
  it('are stable across the order of resources and live objects', () => {
    const a = fingerprintInputs(desiredOf(notifier('https://hooks.example.com/A'), monitor(1)), liveOf([role, liveMonitor('t1')]));
    const b = fingerprintInputs(desiredOf(monitor(1), notifier('https://hooks.example.com/A')), liveOf([liveMonitor('t1'), role]));
    expect(b).toEqual(a);
    expect(a.desired).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(a.desiredObjects)).toEqual(['Monitor/m', 'Notifier/slack']);
    expect(Object.keys(a.liveObjects)).toEqual(['Dataset/checkout', 'Dataset/http', 'Role/r', 'Monitor/m'].sort());
    expect(diffFingerprints(a, b)).toEqual([]);
  });

  it('move when a file changes, and say which object', () => {
    const before = fingerprintInputs(desiredOf(monitor(1)), liveOf([]));
    const after = fingerprintInputs(desiredOf(monitor(2), notifier('https://hooks.example.com/A')), liveOf([]));
    expect(after.desired).not.toBe(before.desired);
    expect(after.live).toBe(before.live);
    expect(diffFingerprints(before, after)).toEqual(['Monitor/m changed in the files', 'Notifier/slack added to the files']);
    expect(diffFingerprints(after, before)).toEqual(['Monitor/m changed in the files', 'Notifier/slack removed from the files']);
  });

  it('move when the workspace changes by hand (a volatile field such as updatedAt counts)', () => {
    const before = fingerprintInputs(desiredOf(), liveOf([liveMonitor('2026-01-01T00:00:00.000Z')]));
    const after = fingerprintInputs(desiredOf(), liveOf([liveMonitor('2026-01-01T00:05:00.000Z'), role]));
    expect(diffFingerprints(before, after)).toEqual(['Monitor/m changed live', 'Role/r appeared live']);
    expect(diffFingerprints(after, before)).toEqual(['Monitor/m changed live', 'Role/r disappeared live']);
  });

  it('move when the set of listed kinds changes', () => {
    const before = fingerprintInputs(desiredOf(), liveOf([], { listedKinds: ['Monitor'] }));
    const after = fingerprintInputs(desiredOf(), liveOf([], { listedKinds: ['Monitor', 'Role'] }));
    expect(diffFingerprints(before, after)).toEqual(['the kinds or datasets read from the workspace changed']);
  });

  it('hold no secret, not even hashed: secret values stand as (sensitive), so rotating one does not show', () => {
    const a = fingerprintInputs(desiredOf(notifier('https://hooks.example.com/SECRET-A')), liveOf([]));
    const b = fingerprintInputs(desiredOf(notifier('https://hooks.example.com/SECRET-B')), liveOf([]));
    expect(b.desired).toBe(a.desired);
    const liveA = fingerprintInputs(desiredOf(), liveOf([obj('ApiToken', { id: 'tok_1', name: 't', token: 'xapt-SECRET-1' })]));
    const liveB = fingerprintInputs(desiredOf(), liveOf([obj('ApiToken', { id: 'tok_1', name: 't', token: 'xapt-SECRET-2' })]));
    expect(liveB.live).toBe(liveA.live);
  });

  it('values from ${env:} are redacted too, inside arrays as well', () => {
    const spec = { properties: { email: { emails: ['secret-a@example.com'] } } };
    const a = fingerprintInputs(desiredOf(resource('Notifier', 'e', spec, { interpolated: ['/spec/properties/email/emails/0'] })), liveOf([]));
    const b = fingerprintInputs(
      desiredOf(resource('Notifier', 'e', { properties: { email: { emails: ['secret-b@example.com'] } } }, { interpolated: ['/spec/properties/email/emails/0'] })),
      liveOf([]),
    );
    expect(b.desired).toBe(a.desired);
  });
});
