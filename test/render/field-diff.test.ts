// How one field difference reads: changed words in context, list elements added and removed, or
// the whole value; with controls escaped and secrets never shown. Plain values, no I/O.
import { describe, expect, it } from 'vitest';
import type { FieldDiff } from '../../src/core/types.js';
import { diffLines, markdownDiffLines, renderMarkdown, renderText, viewDiff } from '../../src/render/index.js';
import { desiredOf, inventoryOf, liveOf, obj, owns, plan, resource } from '../plan/builders.js';

const UPDATE = { id: 'mon_1' };
const QUERY =
  "['logs'] | where status >= 500 and service == \"checkout\" | extend region = tostring(geo.region) | summarize count() by bin(_time, 5m), region | where count_ > 10";
const QUERY_2 = QUERY.replace('500', '400').replace('count_ > 10', 'count_ > 20');

describe('word diffs of long strings', () => {
  it('shows each changed word in its context, one hunk per place, the rest left out', () => {
    expect(diffLines({ path: 'aplQuery', before: QUERY, after: QUERY_2 }, UPDATE)).toEqual([
      'aplQuery:',
      '  … | where status >= [-500-]{+400+} and service == "checkout" …',
      '  … | where count_ > [-10-]{+20+}',
    ]);
  });

  it('keeps one hunk on the field line', () => {
    const before = 'Alert when the checkout error rate is above the threshold for ten minutes';
    const after = 'Alert when the checkout error rate stays above the threshold for five minutes';
    expect(diffLines({ path: 'description', before, after }, UPDATE)).toEqual([
      'description: … the checkout error rate [-is-]{+stays+} above the threshold for [-ten-]{+five+} minutes',
    ]);
  });

  it('diffs multi-line strings however short, with the line breaks escaped', () => {
    expect(diffLines({ path: 'q', before: 'line one\nline two\nline three', after: 'line one\nline 2\nline three' }, UPDATE)).toEqual([
      'q: line one\\nline [-two-]{+2+}\\nline three',
    ]);
  });

  it('shows short, unrelated or created values whole', () => {
    expect(diffLines({ path: 'q', before: 'short', after: 'shirt' }, UPDATE)).toEqual(['q: "short" -> "shirt"']);
    const unrelated = { path: 'q', before: 'abc def ghi jkl mno pqr stu vwx yz 0123456789', after: 'totally unrelated text that shares nothing at all ok' };
    expect(viewDiff(unrelated, UPDATE).form).toBe('whole');
    expect(diffLines({ path: 'aplQuery', after: QUERY }, {})).toEqual([`aplQuery: ${JSON.stringify(QUERY)}`]);
    expect(diffLines({ path: 'description', before: QUERY }, UPDATE)).toEqual([`description: ${JSON.stringify(QUERY)} -> (none)`]);
  });

  it('escapes control, bidi and zero-width characters inside the changed words and their context', () => {
    const before = 'the value is fine and long enough to diff \u001b[31m red';
    const after = 'the value is fine and long enough to diff \u202e\u001b[32m gr\u200been';
    const [line = ''] = diffLines({ path: 'q', before, after }, UPDATE);
    expect(line).toBe('q: … long enough to diff {+\\u202e+}\\u001b[[-31m-]{+32m+} [-red-]{+gr\\u200been+}');
    const raw = ['\u001b', '\u202e', '\u200b'];
    for (const out of [line, ...markdownDiffLines({ path: 'q', before, after }, UPDATE)]) for (const c of raw) expect(out).not.toContain(c);
  });

  it('redacts before splitting, so no secret is cut into pieces the redactor would miss', () => {
    const secret = 'SECRET-abcdef-123456';
    const before = `curl -H "Authorization: ${secret}" https://example.com/one/two/three`;
    const after = `curl -H "Authorization: ${secret.replace('123456', '654321')}" https://example.com/one/two/four`;
    const redact = (text: string): string => text.split(secret).join('[redacted]');
    const lines = diffLines({ path: 'body', before, after }, UPDATE, { redact }).join('\n');
    expect(lines).toContain('[redacted]');
    expect(lines).not.toContain('abcdef-123456');
  });
});

describe('element diffs of lists', () => {
  it('lists the elements removed and added', () => {
    const diff = { path: 'notifiers', before: ['oncall-slack', 'oncall-pagerduty', 'team-email'], after: ['oncall-pagerduty', 'team-email', 'sre-webhook'] };
    expect(diffLines(diff, UPDATE)).toEqual(['notifiers: 1 added, 1 removed', '  - "oncall-slack"', '  + "sre-webhook"']);
    expect(markdownDiffLines(diff, UPDATE)).toEqual(['  - `notifiers`: 1 added, 1 removed', '    - removed `"oncall-slack"`', '    - added `"sre-webhook"`']);
  });

  it('compares objects by value and counts repeats', () => {
    const diff: FieldDiff = { path: 'members', before: [{ b: 1, a: 2 }, 'x', 'x'], after: [{ a: 2, b: 1 }, 'x', { a: 3 }] };
    expect(viewDiff(diff, UPDATE)).toEqual({ form: 'elements', added: ['{"a":3}'], removed: ['"x"'] });
  });

  it('shows a change of order alone whole', () => {
    expect(diffLines({ path: 'notifiers', before: ['a', 'b'], after: ['b', 'a'] }, UPDATE)).toEqual(['notifiers: ["a","b"] -> ["b","a"]']);
  });

  it('escapes controls in elements', () => {
    const [, removed] = diffLines({ path: 'tags', before: ['a\u001b[2J'], after: [] }, UPDATE);
    expect(removed).toBe('  - "a\\u001b[2J"');
  });
});

describe('secrets', () => {
  it('never show a value, new or changed', () => {
    expect(diffLines({ path: 'properties.slack.slackUrl', sensitive: true }, UPDATE)).toEqual(['properties.slack.slackUrl: (sensitive value changed)']);
    expect(markdownDiffLines({ path: 'properties.slack.slackUrl', sensitive: true }, {})).toEqual(['  - `properties.slack.slackUrl`: (sensitive value)']);
  });
});

describe('in whole plans', () => {
  const notifier = (name: string) => obj('Notifier', { id: `notify_${name}`, name, properties: { email: { emails: ['sre@example.com'] } } });
  const live = obj('Monitor', { id: 'mon_1', name: 'm', type: 'MatchEvent', aplQuery: QUERY, notifierIds: ['notify_a', 'notify_b'] });
  const made = plan(
    desiredOf(resource('Monitor', 'm', { type: 'MatchEvent', aplQuery: QUERY_2, notifiers: ['b', 'c'] })),
    liveOf([live, notifier('a'), notifier('b'), notifier('c')]),
    inventoryOf([owns(live, 'm')]),
  );

  it('text: changed words marked, coloured on a terminal', () => {
    const text = renderText(made, { color: false });
    expect(text).toContain('        aplQuery:\n          … | where status >= [-500-]{+400+} and service == "checkout" …\n');
    expect(text).toContain('        notifiers: 1 added, 1 removed\n          - "a"\n          + "c"\n');
    const coloured = renderText(made, { color: true });
    expect(coloured).toContain('\u001b[31m[-500-]\u001b[0m\u001b[32m{+400+}\u001b[0m');
  });

  it('markdown: in code spans, nested under the change', () => {
    const md = renderMarkdown(made);
    expect(md).toContain('  - `aplQuery`:\n    - `… | where status >= [-500-]{+400+} and service == "checkout" …`\n');
    expect(md).toContain('  - `notifiers`: 1 added, 1 removed\n    - removed `"a"`\n    - added `"c"`\n');
  });
});
