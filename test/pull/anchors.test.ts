// Values a document shares through anchors: a change to one user is written on that user (an
// override next to the merge key, an alias written out), never into the anchor that others read.
import { describe, expect, it } from 'vitest';
import { afterPull, lineChanges, pullOf, treeWorkspace } from './fixtures.js';

const BOARD = `apiVersion: wsync/v1
kind: Dashboard
metadata:
  name: checkout
spec:
  dashboard:
    name: Checkout   # shown in the list
    owner: X-AXIOM-EVERYONE
    charts:
      - &errors {id: errors, name: Errors, type: TimeSeries, query: &errorQuery {apl: "['checkout'] | count"}}
      - <<: *errors
        id: errors-eu
        name: Errors (EU)
      - id: note
        name: Count
        type: TimeSeries
        query: *errorQuery
    layout:
      - {i: errors, x: 0, y: 0, w: 6, h: 4}
      - {i: errors-eu, x: 6, y: 0, w: 6, h: 4}
      - {i: note, x: 0, y: 4, w: 12, h: 2}
    refreshTime: 60
    schemaVersion: 2
    timeWindowStart: qr-now-1h
    timeWindowEnd: qr-now
`;

type Chart = { id: string; name?: string; type?: string; query?: { apl: string } };

function charts(ws: ReturnType<typeof treeWorkspace>): Chart[] {
  return (ws.raw('Dashboard', 'checkout').dashboard as { charts: Chart[] }).charts;
}

describe('pull and anchors', () => {
  it('changes nothing in an unchanged workspace', () => {
    expect(pullOf(treeWorkspace({ 'dashboards/checkout.yaml': BOARD })).changes).toEqual([]);
  });

  it('writes a value a merge key brought in as an override on the object that changed, not in the anchor', () => {
    const text = BOARD;
    const ws = treeWorkspace({ 'dashboards/checkout.yaml': text });
    const eu = charts(ws).find((c) => c.id === 'errors-eu') as Chart;
    eu.type = 'Statistic';
    const plan = pullOf(ws);
    expect(lineChanges(text, afterPull(ws, plan).get('dashboards/checkout.yaml') ?? '')).toEqual(['+        type: Statistic']);
    expect(plan.reports.map((r) => `${r.what}: ${r.message}`)).toEqual([
      'override: spec.dashboard.charts.1.type came from a merge key (<<) shared with others: written as an override on this object, the anchor is unchanged',
    ]);
  });

  it('writes out an alias whose value changed for that one use', () => {
    const text = BOARD;
    const ws = treeWorkspace({ 'dashboards/checkout.yaml': text });
    (charts(ws).find((c) => c.id === 'note') as Chart).query = { apl: "['checkout'] | count by status" };
    const plan = pullOf(ws);
    expect(lineChanges(text, afterPull(ws, plan).get('dashboards/checkout.yaml') ?? '')).toEqual([
      '-        query: *errorQuery',
      `+        query: {apl: "['checkout'] | count by status"}`,
    ]);
    expect(plan.reports.map((r) => r.what)).toEqual(['override']);
  });

  it('changes an anchor others read only for the object that changed: the others get its value written out, and it is said', () => {
    const text = BOARD;
    const ws = treeWorkspace({ 'dashboards/checkout.yaml': text });
    (charts(ws).find((c) => c.id === 'errors') as Chart).query = { apl: "['checkout'] | count by region" };
    const plan = pullOf(ws);
    expect(lineChanges(text, afterPull(ws, plan).get('dashboards/checkout.yaml') ?? '')).toEqual([
      `-      - &errors {id: errors, name: Errors, type: TimeSeries, query: &errorQuery {apl: "['checkout'] | count"}}`,
      '-      - <<: *errors',
      '-        query: *errorQuery',
      `+      - {id: errors, name: Errors, type: TimeSeries, query: {apl: "['checkout'] | count by region"}}`,
      `+      - <<: {id: errors, name: Errors, type: TimeSeries, query: {apl: "['checkout'] | count"}}`,
      `+        query: {apl: "['checkout'] | count"}`,
    ]);
    expect(plan.reports.map((r) => `${r.what}: ${r.message.slice(0, r.message.indexOf(':'))}`)).toEqual([
      'override: &errors was read by 1 other place(s)',
      'override: &errorQuery was read by 1 other place(s)',
    ]);
  });

  it('adds a chart made in the UI to the block list and its place to the flow layout', () => {
    const text = BOARD;
    const ws = treeWorkspace({ 'dashboards/checkout.yaml': text });
    const board = ws.raw('Dashboard', 'checkout').dashboard as { charts: Chart[]; layout: object[] };
    board.charts.push({ id: 'p95', name: 'p95', type: 'Statistic', query: { apl: "['checkout'] | summarize percentile(d, 95)" } });
    board.layout.push({ i: 'p95', x: 0, y: 6, w: 4, h: 4 });
    const after = afterPull(ws, pullOf(ws)).get('dashboards/checkout.yaml') ?? '';
    expect(lineChanges(text, after)).toEqual([
      '+      - id: p95',
      '+        name: p95',
      '+        type: Statistic',
      '+        query:',
      `+          apl: "['checkout'] | summarize percentile(d, 95)"`,
      // `y` is quoted as export quotes it: a YAML 1.1 reader takes a bare y for true.
      '+      - {i: p95, x: 0, "y": 6, w: 4, h: 4}',
    ]);
  });
});
