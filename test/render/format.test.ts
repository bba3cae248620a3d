import { describe, expect, it } from 'vitest';
import { hasWrites, isAppliable, summarySentence } from '../../src/render/index.js';
import { desiredOf, liveOf, plan, policyOf, resource } from '../plan/builders.js';
import { emptyPlan, mixedPlan, refusedPlan } from './sample.js';

describe('what plan --detailed-exitcode reads: 1 not appliable, 2 writes, else 0', () => {
  it.each([
    ['no changes', emptyPlan, true, false],
    ['changes', () => plan(desiredOf(resource('Role', 'r', {})), liveOf([])), true, true],
    ['error diagnostics', mixedPlan, false, undefined],
    ['refusals', refusedPlan, false, undefined],
    ['drift in observe mode only', () => plan(desiredOf(resource('Role', 'r', {})), liveOf([]), undefined, policyOf({ mode: 'observe' })), true, false],
  ] as const)('%s', (_label, make, appliable, writes) => {
    const made = make();
    expect(isAppliable(made)).toBe(appliable);
    if (writes !== undefined) expect(hasWrites(made)).toBe(writes);
  });

  it('the summary sentence names every count that matters', () => {
    expect(summarySentence(plan(desiredOf(resource('Role', 'r', {})), liveOf([])))).toBe('Plan: 1 to create, 0 to update, 0 to delete, 0 to adopt.');
  });

  it('counts errors: with changes, and when errors are all there is', () => {
    expect(summarySentence(mixedPlan())).toMatch(/; 2 skipped, 1 error\.$/);
    const onlyErrors = { ...emptyPlan(), diagnostics: mixedPlan().diagnostics };
    expect(summarySentence(onlyErrors)).toBe('No changes to make, but 1 error: the plan cannot be applied.');
  });
});
