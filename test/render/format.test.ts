import { describe, expect, it } from 'vitest';
import { detailedExitCode, summarySentence } from '../../src/render/index.js';
import { desiredOf, liveOf, plan, policyOf, resource } from '../plan/builders.js';
import { emptyPlan, mixedPlan, refusedPlan } from './sample.js';

describe('plan --detailed-exitcode', () => {
  it.each([
    ['no changes', emptyPlan, 0],
    ['changes', () => plan(desiredOf(resource('Role', 'r', {})), liveOf([])), 2],
    ['error diagnostics', mixedPlan, 1],
    ['refusals', refusedPlan, 1],
    ['drift in observe mode only', () => plan(desiredOf(resource('Role', 'r', {})), liveOf([]), undefined, policyOf({ mode: 'observe' })), 0],
  ] as const)('%s -> %i', (_label, make, code) => {
    expect(detailedExitCode(make())).toBe(code);
  });

  it('the summary sentence names every count that matters', () => {
    expect(summarySentence(plan(desiredOf(resource('Role', 'r', {})), liveOf([])))).toBe('Plan: 1 to create, 0 to update, 0 to delete, 0 to adopt.');
  });
});
