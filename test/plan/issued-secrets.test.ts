// How the plan treats objects whose secret the API issues once (API tokens, #13.4 and #17.1): a
// regenerate keeps the old token working for a grace period and says until when; the old token,
// retired, is never a second object of its key; a secret missing on disk is a planned regenerate,
// and a live token nobody here holds the secret of is not adopted unless the file says so.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROTATION_GRACE_MS, type Plan } from '../../src/core/types.js';
import { planChanges, type PlanContext } from '../../src/plan/planner.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, policyOf, resource, wire } from './builders.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const HELD: PlanContext = { now: NOW, heldSecrets: new Set(['ApiToken/ci']) };
const NONE_HELD: PlanContext = { now: NOW, heldSecrets: new Set() };

function tokenPlan(
  spec: Record<string, string>,
  context: PlanContext,
  options: { owned?: boolean; annotations?: Record<string, string>; live?: Record<string, string>; policy?: Parameters<typeof policyOf>[0] } = {},
): Plan {
  const live = wire.token('tok_1', 'ci', { description: 'old', ...options.live });
  const inventory = inventoryOf(options.owned === false ? [] : [owns(live, 'ci')]);
  const desired = desiredOf(resource('ApiToken', 'ci', spec, { annotations: options.annotations }));
  return planChanges(desired, liveOf([live]), inventory, policyOf(options.policy), context);
}

describe('token rotation: a grace period for the old token', () => {
  it('regenerates a changed token, the old one valid for the default grace (24h), and says until when', () => {
    const change = changeOf(tokenPlan({ description: 'new' }, HELD), 'ApiToken', 'ci');
    expect(DEFAULT_ROTATION_GRACE_MS).toBe(24 * 3_600_000);
    expect(change.action).toBe('replace');
    expect(change.grace).toEqual({ ms: DEFAULT_ROTATION_GRACE_MS, oldValidUntil: '2026-03-02T12:00:00.000Z' });
    expect(change.reason).toBe(
      'API tokens are immutable: regenerate with the new spec; the old one stays valid until 2026-03-02T12:00:00.000Z (grace 24h)',
    );
  });

  it('takes the grace from the policy (--token-rotation-grace), and from wsync/rotation-grace over it', () => {
    const fromPolicy = changeOf(tokenPlan({ description: 'new' }, HELD, { policy: { rotationGraceMs: 3_600_000 } }), 'ApiToken', 'ci');
    expect(fromPolicy.grace).toEqual({ ms: 3_600_000, oldValidUntil: '2026-03-01T13:00:00.000Z' });
    const annotated = tokenPlan({ description: 'new' }, HELD, { policy: { rotationGraceMs: 3_600_000 }, annotations: { 'wsync/rotation-grace': '2d' } });
    expect(changeOf(annotated, 'ApiToken', 'ci').grace).toEqual({ ms: 2 * 86_400_000, oldValidUntil: '2026-03-03T12:00:00.000Z' });
    const none = tokenPlan({ description: 'new' }, HELD, { annotations: { 'wsync/rotation-grace': '0s' } });
    expect(changeOf(none, 'ApiToken', 'ci').reason).toContain('the old one stays valid until 2026-03-01T12:00:00.000Z (grace 0s)');
  });

  it('never keeps the old token past the expiry it already had', () => {
    const change = changeOf(tokenPlan({ description: 'new', expiresAt: '2026-03-01T15:00:00Z' }, HELD, { live: { expiresAt: '2026-03-01T15:00:00Z' } }), 'ApiToken', 'ci');
    expect(change.grace?.oldValidUntil).toBe('2026-03-01T15:00:00.000Z');
  });

  it('says "after apply" when the plan was not told the time', () => {
    const change = changeOf(tokenPlan({ description: 'new' }, { heldSecrets: HELD.heldSecrets }), 'ApiToken', 'ci');
    expect(change.reason).toContain('the old one stays valid for 24h after apply');
  });

  it('does not take a retired token (kept for its grace) for a second token of the same name', () => {
    const old = wire.token('tok_old', 'ci', { expiresAt: '2026-03-02T00:00:00Z' });
    const current = wire.token('tok_new', 'ci');
    const inventory = inventoryOf([owns(current, 'ci'), owns(old, 'ci', { retiredUntil: '2026-03-02T00:00:00.000Z' })]);
    const p = planChanges(desiredOf(resource('ApiToken', 'ci', {})), liveOf([old, current]), inventory, policyOf(), HELD);
    expect(p.changes.map((c) => [c.action, c.id])).toEqual([['noop', 'tok_new']]);
    expect(p.diagnostics).toEqual([]);
    // Without the inventory's word, the same two tokens are ambiguous.
    const unknown = planChanges(desiredOf(resource('ApiToken', 'ci', {})), liveOf([old, current]), inventoryOf([owns(current, 'ci')]), policyOf(), HELD);
    expect(changeOf(unknown, 'ApiToken', 'ci').action).toBe('skipped');
  });

  it('deletes a retired token still listed after its grace ended, and not before', () => {
    const old = wire.token('tok_old', 'ci');
    const current = wire.token('tok_new', 'ci');
    const inventory = inventoryOf([owns(current, 'ci'), owns(old, 'ci', { retiredUntil: '2026-03-01T11:00:00.000Z' })]);
    const desired = desiredOf(resource('ApiToken', 'ci', {}));
    const later = planChanges(desired, liveOf([old, current]), inventory, policyOf(), HELD);
    const deletion = later.changes.find((c) => c.action === 'delete');
    expect(deletion).toMatchObject({ id: 'tok_old', owned: true, reason: 'replaced by a newer ApiToken; its grace period ended at 2026-03-01T11:00:00.000Z' });
    const earlier = planChanges(desired, liveOf([old, current]), inventory, policyOf(), { ...HELD, now: new Date('2026-03-01T10:00:00Z') });
    expect(earlier.changes.map((c) => c.action)).toEqual(['noop']);
  });
});

describe('secrets before ownership: a token wsync holds no secret for', () => {
  it('plans an owned token whose secret file is missing as "regenerate: secret missing", not "no changes"', () => {
    const change = changeOf(tokenPlan({ description: 'old' }, NONE_HELD), 'ApiToken', 'ci');
    expect(change.action).toBe('replace');
    expect(change.reason).toBe('regenerate: secret missing; the old one stays valid until 2026-03-02T12:00:00.000Z (grace 24h)');
    // With the secret on disk the same token is in sync.
    expect(changeOf(tokenPlan({ description: 'old' }, HELD), 'ApiToken', 'ci').action).toBe('noop');
    // Told nothing about the disk (plain values, export): no opinion.
    expect(changeOf(tokenPlan({ description: 'old' }, { now: NOW }), 'ApiToken', 'ci').action).toBe('noop');
  });

  it('refuses to adopt a live token it holds no secret for, with an error that says what to do', () => {
    const p = tokenPlan({ description: 'old' }, NONE_HELD, { owned: false });
    expect(changeOf(p, 'ApiToken', 'ci').action).toBe('refused');
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'adoption-without-secret',
        message: expect.stringContaining('ApiToken "ci" exists live (id tok_1) but is not owned by wsync, and wsync holds no secret for it'),
      }),
    ]);
    expect(p.diagnostics[0]?.message).toContain('"wsync/issued-secret: held-elsewhere"');
  });

  it('adopts it when the file says someone else holds the secret, and then never regenerates it for lacking one', () => {
    const elsewhere = { 'wsync/issued-secret': 'held-elsewhere' };
    expect(changeOf(tokenPlan({ description: 'old' }, NONE_HELD, { owned: false, annotations: elsewhere }), 'ApiToken', 'ci').action).toBe('adopt');
    expect(changeOf(tokenPlan({ description: 'old' }, NONE_HELD, { annotations: elsewhere }), 'ApiToken', 'ci').action).toBe('noop');
  });

  it('regenerates the token a run created but died before saving its secret (its issue is pending)', () => {
    const p = tokenPlan({ description: 'old' }, { ...NONE_HELD, pendingSecrets: new Set(['ApiToken/ci']) }, { owned: false });
    const change = changeOf(p, 'ApiToken', 'ci');
    expect(p.diagnostics).toEqual([]);
    expect(change.action).toBe('replace');
    expect(change.reason).toContain('regenerate: secret missing (a run stopped before saving it)');
  });

  it('adopts the token such a run created when its secret reached the disk', () => {
    const p = tokenPlan({ description: 'old' }, { ...HELD, pendingSecrets: new Set(['ApiToken/ci']) }, { owned: false });
    expect(changeOf(p, 'ApiToken', 'ci').action).toBe('adopt');
  });
});
