// A kind's outline in the plan (a dashboard: per chart, then the layout), as the text and markdown
// renderers print it, made by the real planner from plain values.
import { describe, expect, it } from 'vitest';
import type { JsonObject, LiveObject } from '../../src/core/types.js';
import { renderMarkdown, renderText } from '../../src/render/index.js';
import { desiredOf, inventoryOf, liveOf, owns, plan, resource } from '../plan/builders.js';

const document: JsonObject = {
  name: 'Checkout',
  owner: 'X-AXIOM-EVERYONE',
  charts: [
    { id: 'errors', type: 'TimeSeries', query: { apl: "['checkout'] | count" } },
    { id: 'p95', type: 'Statistic', query: { apl: "['checkout'] | summarize percentile(d, 95)" } },
  ],
  layout: [
    { i: 'errors', x: 0, y: 0, w: 6, h: 4 },
    { i: 'p95', x: 6, y: 0, w: 6, h: 4 },
  ],
  refreshTime: 60,
  schemaVersion: 2,
  timeWindowStart: 'qr-now-1h',
  timeWindowEnd: 'qr-now',
};

/** The live dashboard as the service lists it: uid inside, owner in lower case, version. */
function listed(doc: JsonObject): LiveObject {
  return { kind: 'Dashboard', id: 'checkout', raw: { uid: 'checkout', id: 'dash_1', version: 3, dashboard: { ...doc, uid: 'checkout', owner: 'x-axiom-everyone' } } };
}

function updatePlan(): ReturnType<typeof plan> {
  const live = listed(document);
  const edited: JsonObject = {
    ...document,
    charts: [
      { id: 'errors', type: 'TimeSeries', query: { apl: "['checkout'] | where status >= 500 | count" } },
      { id: 'notes', type: 'Note', text: 'Runbook: https://runbooks.example.com' },
    ],
    layout: [
      { i: 'errors', x: 0, y: 0, w: 12, h: 4 },
      { i: 'notes', x: 0, y: 4, w: 12, h: 2 },
    ],
  };
  return plan(desiredOf(resource('Dashboard', 'checkout', { dashboard: edited })), liveOf([live]), inventoryOf([owns(live, 'checkout')]));
}

describe('a dashboard change in the plan', () => {
  it('reads per chart in text: the changed query, the added chart with its fields, the removed one, the layout in a line per cell', () => {
    const text = renderText(updatePlan(), { color: false });
    expect(text).toContain(
      [
        '  ~ update  Dashboard/checkout (id checkout)',
        '        chart errors',
        // The changed words in their context (the query gained a filter).
        "          query.apl: ['checkout'] | {+where status >= 500 | +}count",
        '        chart notes (Note): added',
        '          text: "Runbook: https://runbooks.example.com"',
        '          type: "Note"',
        '        chart p95 (Statistic): removed',
        '        layout',
        '          errors: w 6 -> 12',
        '          notes: placed at x 0, y 4, 12×2',
        '          p95: removed',
      ].join('\n'),
    );
    // The chart that did not change is not there, nor the service's own keys.
    expect(text).not.toMatch(/uid|version|owner/);
  });

  it('reads the same in markdown, each group a bold item with its diffs nested', () => {
    const md = renderMarkdown(updatePlan());
    expect(md).toContain('- **update** `Dashboard/checkout` (id `checkout`)\n  - **chart errors**\n    - `query.apl`: ');
    // A chart's changed query reads as its changed words, as outside an outline.
    expect(md).toContain("    - `query.apl`: `['checkout'] | {+where status >= 500 | +}count`\n");
    expect(md).toContain('  - **chart notes (Note): added**\n    - `text`: `"Runbook: https://runbooks.example.com"`\n    - `type`: `"Note"`\n');
    expect(md).toContain('  - **chart p95 (Statistic): removed**\n');
    expect(md).toContain('  - **layout**\n    - errors: w 6 -\\> 12\n');
  });

  it('shows nothing to do when only what the service adds differs', () => {
    const live = listed(document);
    const same = plan(desiredOf(resource('Dashboard', 'checkout', { dashboard: document })), liveOf([live]), inventoryOf([owns(live, 'checkout')]));
    expect(same.changes.filter((c) => c.action !== 'noop')).toEqual([]);
  });
});
