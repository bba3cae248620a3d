// Every kind that names a dataset: the name is checked at plan time against the declared and live
// datasets, before any write. A dataset declared in the same files is created first, in one apply.
import { describe, expect, it } from 'vitest';
import type { JsonObject, KindName } from '../../src/core/types.js';
import { caseOf } from './kind-cases.js';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

interface Referrer {
  kind: KindName;
  name: string;
  /** The spec naming dataset `d`. */
  spec: (d: string) => JsonObject;
  /** JSON Pointer of the dataset name in the document, and its dotted label. */
  pointer: string;
  label: string;
  /** Live objects the spec needs besides the dataset. */
  context?: ReturnType<typeof wire.user>[];
}

const ada = wire.user('usr_ada', 'ada@example.com', 'Ada');

const REFERRERS: Referrer[] = [
  { kind: 'VirtualField', name: 'slow', spec: (d) => ({ dataset: d, expression: 'd > 1' }), pointer: '/spec/dataset', label: 'spec.dataset' },
  { kind: 'DatasetField', name: 'status', spec: (d) => ({ dataset: d, unit: 'ms' }), pointer: '/spec/dataset', label: 'spec.dataset' },
  {
    kind: 'StarredQuery',
    name: 'q',
    spec: (d) => ({ owner: 'ada@example.com', dataset: d, query: { apl: 'x' } }),
    pointer: '/spec/dataset',
    label: 'spec.dataset',
    context: [ada],
  },
  { kind: 'Annotation', name: 'Deploy', spec: (d) => ({ type: 'deploy', datasets: ['http', d] }), pointer: '/spec/datasets/1', label: 'spec.datasets[1]' },
  { kind: 'View', name: 'v', spec: (d) => ({ aplQuery: 'x', datasets: [d] }), pointer: '/spec/datasets/0', label: 'spec.datasets[0]' },
  {
    kind: 'Role',
    name: 'r',
    spec: (d): JsonObject => ({ datasetCapabilities: { '*': { query: ['read'] }, [d]: { ingest: ['create'] } } as JsonObject }),
    pointer: `/spec/datasetCapabilities/payments`,
    label: 'spec.datasetCapabilities.paymnts',
  },
  {
    kind: 'ApiToken',
    name: 't',
    spec: (d) => ({ datasetCapabilities: { [d]: { ingest: ['create'] } } }),
    pointer: `/spec/datasetCapabilities/payments`,
    label: 'spec.datasetCapabilities.paymnts',
  },
  {
    kind: 'Dashboard',
    name: 'checkout',
    spec: (d) => ({ dashboard: { ...(caseOf('Dashboard').spec.dashboard as JsonObject), datasets: ['http', d] } }),
    pointer: '/spec/dashboard/datasets/1',
    label: 'spec.dashboard.datasets[1]',
  },
];

const byKind = REFERRERS.map((r) => [r.kind, r] as const);
const payments = wire.dataset('payments');

/** Capabilities may name a dataset nothing made yet: the service keeps them (docs/wire-contract.md). */
const CAPABILITY_KINDS: readonly KindName[] = ['Role', 'ApiToken'];
const strict = byKind.filter(([kind]) => !CAPABILITY_KINDS.includes(kind));
const capabilities = byKind.filter(([kind]) => CAPABILITY_KINDS.includes(kind));

describe('dataset references', () => {
  it.each(capabilities)('%s: capabilities on a dataset that does not exist are a warning with a did-you-mean, and the plan goes on', (kind, r) => {
    const pointer = r.pointer.replace('payments', 'paymnts');
    const declared = resource(kind, r.name, r.spec('paymnts'), { file: 'f.yaml', locations: { [pointer]: { file: 'f.yaml', line: 9, column: 5 } } });
    const p = plan(desiredOf(declared), liveOf([wire.dataset('http'), payments]));
    const label = r.label.replace('payments', 'paymnts');
    expect(p.diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'unknown-value',
        kind,
        name: r.name,
        field: label,
        file: 'f.yaml',
        line: 9,
        column: 5,
        message:
          `${label}: no Dataset named "paymnts" is declared or exists live; the service keeps the capability as written, ` +
          'and it applies once a dataset of that name exists (did you mean "payments"?)',
      },
    ]);
    expect(changeOf(p, kind, r.name)).toMatchObject({ action: 'create' });
  });

  it.each(strict)('%s: a misspelt dataset is a plan error at its line, with a did-you-mean', (kind, r) => {
    const pointer = r.pointer.replace('payments', 'paymnts');
    const spec = r.spec('paymnts');
    const declared = resource(kind, r.name, spec, { file: 'f.yaml', locations: { [pointer]: { file: 'f.yaml', line: 9, column: 5 } } });
    const p = plan(desiredOf(declared), liveOf([wire.dataset('http'), payments, ...(r.context ?? [])], { listedDatasets: { VirtualField: ['paymnts'], DatasetField: ['paymnts'] } }));
    expect(p.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unresolved-reference',
        kind,
        name: r.name,
        field: r.label.replace('payments', 'paymnts'),
        file: 'f.yaml',
        line: 9,
        column: 5,
        message: `${r.label.replace('payments', 'paymnts')}: no Dataset named "paymnts" is declared or exists live (did you mean "payments"?)`,
      },
    ]);
  });

  it.each(byKind)('%s: a dataset that exists live is fine', (kind, r) => {
    const p = plan(desiredOf(resource(kind, r.name, r.spec('payments'))), liveOf([wire.dataset('http'), payments, ...(r.context ?? [])], { listedDatasets: { VirtualField: ['payments'], DatasetField: ['payments'] } }));
    expect(p.diagnostics).toEqual([]);
  });

  it.each(byKind)('%s: a dataset declared in the same files is written first (nothing of it is live yet)', (kind, r) => {
    const p = plan(
      desiredOf(resource('Dataset', 'fresh', {}), resource(kind, r.name, r.spec('fresh'))),
      // The reader lists a dataset that does not exist as holding nothing.
      liveOf([wire.dataset('http'), ...(r.context ?? [])], { listedDatasets: { VirtualField: ['fresh'], DatasetField: ['fresh'] } }),
    );
    expect(p.diagnostics).toEqual([]);
    const dataset = changeOf(p, 'Dataset', 'fresh');
    expect(dataset.action).toBe('create');
    const change = p.changes.find((c) => c.kind === kind);
    if (kind === 'DatasetField') {
      // Fields come from ingest: a dataset made now has none yet.
      expect(change).toMatchObject({ action: 'skipped', reason: expect.stringContaining('fields come from ingest') });
      return;
    }
    expect(change).toMatchObject({ action: 'create', dependsOn: expect.arrayContaining(['Dataset/fresh']) });
    expect(p.changes.indexOf(dataset)).toBeLessThan(p.changes.indexOf(change!));
  });

  it('a dataset this plan deletes cannot be named', () => {
    const p = plan(
      desiredOf(resource('VirtualField', 'slow', { dataset: 'payments', expression: 'x' })),
      liveOf([payments, wire.dataset('http')], { listedDatasets: { VirtualField: ['payments'] } }),
      inventoryOf([owns(payments, 'payments')]),
      policyOf({ prune: true, allowEmpty: true, maxDeleteRatio: 1, allowDeletion: ['Dataset'] }),
    );
    expect(p.diagnostics.map((d) => d.code)).toEqual(['reference-to-deleted']);
  });

  it('"*" in capabilities names every dataset, not one called "*"', () => {
    const p = plan(desiredOf(resource('ApiToken', 't', { datasetCapabilities: { '*': { query: ['read'] } } })), liveOf([]));
    expect(p.diagnostics).toEqual([]);
  });
});
