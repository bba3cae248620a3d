// A declared monitor its list does not show, planned against what the token may query
// (LiveState.queryAccess): created only when the token may query every dataset it reads.
import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/core/types.js';
import { changeOf, desiredOf, liveOf, plan, resource } from './builders.js';

const declared = resource(
  'Monitor',
  'Audit deletes',
  { type: 'Threshold', aplQuery: "['http'] | join (['checkout'] | project id) on id", operator: 'Above', threshold: 1 },
  { file: 'monitors.yaml', line: 3 },
);
const withAccess = (queryAccess: LiveState['queryAccess']): LiveState => ({ ...liveOf([]), ...(queryAccess ? { queryAccess } : {}) });

describe('a declared monitor the list does not show', () => {
  it('is created when the token may query every dataset its query reads', () => {
    const p = plan(desiredOf(declared), withAccess({ http: { allowed: true }, checkout: { allowed: true } }));
    expect(changeOf(p, 'Monitor', 'Audit deletes').action).toBe('create');
    expect(p.diagnostics).toEqual([]);
  });

  it('is refused when the token may not query one, with an error naming the capability at the file', () => {
    const why = 'POST /v1/datasets/_apl?format=tabular: 403 Forbidden: missing capability';
    const p = plan(desiredOf(declared), withAccess({ http: { allowed: true }, checkout: { allowed: false, why } }));
    expect(changeOf(p, 'Monitor', 'Audit deletes')).toMatchObject({ action: 'refused' });
    expect(p.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'may-exist-unseen', kind: 'Monitor', file: 'monitors.yaml', line: 3 }),
    ]);
    const message = p.diagnostics[0]?.message ?? '';
    expect(message).toContain('datasetCapabilities["checkout"].query: [read]');
    expect(message).toContain(why);
    expect(message).not.toContain('"http"');
  });

  it('is refused when a dataset was not checked, and not asked about when nothing was (plain values)', () => {
    expect(changeOf(plan(desiredOf(declared), withAccess({ http: { allowed: true } })), 'Monitor', 'Audit deletes').action).toBe('refused');
    expect(changeOf(plan(desiredOf(declared), withAccess(undefined)), 'Monitor', 'Audit deletes').action).toBe('create');
  });
});
