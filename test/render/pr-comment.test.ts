import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/render/markdown.js';
import {
  codeBlock,
  COMMENT_LIMIT,
  FORK_SKIP_REASON,
  reportMarkdown,
  truncateMarkdown,
  type PullRequestReport,
} from '../../src/render/pr-comment.js';
import { desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from '../plan/builders.js';
import { mixedPlan } from './sample.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const monitorSpec = { type: 'Threshold', aplQuery: "['http'] | count", operator: 'Above', threshold: 30 };

/** A plan far beyond a comment: `n` monitors to create (long queries) and `deletes` owned ones to delete. */
function hugePlanMarkdown(n: number, deletes: number): string {
  const desired = Array.from({ length: n }, (_, i) =>
    resource('Monitor', `monitor-${i}`, { ...monitorSpec, aplQuery: `['http'] | where path == "/v${i}/${'x'.repeat(120)}" | count` }),
  );
  const gone = Array.from({ length: deletes }, (_, i) => wire.monitor(`mon_gone_${i}`, `gone-${i}`, monitorSpec));
  const notifiers = Array.from({ length: 40 }, (_, i) => resource('Notifier', `hook-${i}`, { properties: { webhook: { url: `https://h.example.com/${i}` } } }));
  return renderMarkdown(
    plan(
      desiredOf(...desired, ...notifiers),
      liveOf(gone),
      inventoryOf(gone.map((m, i) => owns(m, `gone-${i}`))),
      policyOf({ prune: true, maxDeletes: 1000, maxDeleteRatio: 1 }),
    ),
  );
}

/** Every `<details>` closed after it opens and every fence closed: what GitHub needs to render the rest. */
function expectBalanced(markdown: string): void {
  let depth = 0;
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (marker !== undefined) fence = marker;
    else if (/^<details[\s>]/.test(line)) depth += 1;
    else if (/^<\/details>\s*$/.test(line)) {
      depth -= 1;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
  }
  expect(fence, 'an open code fence').toBeUndefined();
  expect(depth, 'an open <details>').toBe(0);
}

describe('codeBlock', () => {
  it('uses a fence longer than any backtick run inside, so the text cannot close it', () => {
    const hostile = 'line\n```\n</details>\n@team ![x](https://e.example/x.png)\n````` five';
    const block = codeBlock(hostile);
    expect(block.startsWith('``````\n')).toBe(true);
    expect(block.endsWith('\n``````')).toBe(true);
    expect(block).toContain(hostile);
    expectBalanced(block);
  });
});

describe('reportMarkdown', () => {
  const report = (overrides: Partial<PullRequestReport>): PullRequestReport => ({
    commit: SHA,
    validate: { ok: true, output: '17 resources in 9 files: ok\n' },
    ...overrides,
  });

  it('a validate failure shows the output fenced, under a heading with the short commit', () => {
    const body = reportMarkdown(report({ validate: { ok: false, output: 'monitors/a.yaml:3:1: Monitor/a: spec: must have `type`\n```\n' } }), {
      limit: COMMENT_LIMIT,
      marker: '<!-- wsync-plan -->',
    });
    expect(body.split('\n').slice(0, 2)).toEqual(['<!-- wsync-plan -->', '### :x: wsync: the files do not validate (0123456)']);
    expect(body).toContain('````\nmonitors/a.yaml:3:1');
    expectBalanced(body);
  });

  it('a pull request from a fork gets validate and a clear skip, not a failure', () => {
    const body = reportMarkdown(report({ plan: { status: 'skipped', reason: FORK_SKIP_REASON } }), { limit: COMMENT_LIMIT });
    expect(body).toContain('### wsync: plan skipped: no access to the workspace from a fork (0123456)');
    expect(body).toContain('The files validate.');
    expect(body).not.toContain(':x:');
  });

  it('a failed plan shows its error output fenced', () => {
    const body = reportMarkdown(report({ plan: { status: 'failed', output: 'plan: GET /v2/monitors: 401 unauthorized\n' } }), { limit: COMMENT_LIMIT });
    expect(body).toContain('### :x: wsync plan failed (0123456)\n\n```\nplan: GET /v2/monitors: 401 unauthorized\n```');
  });

  it('a markdown plan keeps its body under a heading that says changes or no changes', () => {
    const markdown = renderMarkdown(mixedPlan());
    const body = reportMarkdown(report({ plan: { status: 'planned', changes: true, format: 'markdown', output: markdown } }), { limit: COMMENT_LIMIT });
    expect(body.startsWith('### wsync plan: changes (0123456)\n\n')).toBe(true);
    expect(body.match(/^### wsync plan/gm)).toHaveLength(1);
    expect(body).toContain(markdown.replace(/^### wsync plan\n+/, '').trim());
    const none = reportMarkdown(report({ plan: { status: 'planned', changes: false, format: 'text', output: 'No changes.\n' } }), { limit: COMMENT_LIMIT });
    expect(none).toContain('### wsync plan: no changes (0123456)\n\n```\nNo changes.\n```');
  });

  it('a huge plan fits a comment, keeps the deletes, and never leaves a <details> block open', () => {
    const markdown = hugePlanMarkdown(3000, 30);
    expect(markdown.length).toBeGreaterThan(COMMENT_LIMIT * 4);
    const body = reportMarkdown(report({ plan: { status: 'planned', changes: true, format: 'markdown', output: markdown } }), {
      limit: COMMENT_LIMIT,
      marker: '<!-- wsync-plan -->',
      elsewhere: 'the job summary',
    });
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.length).toBeGreaterThan(COMMENT_LIMIT * 0.9);
    expectBalanced(body);
    expect(body).toContain('#### Deletes (30)');
    expect(body).toContain('gone-29');
    expect(body).toContain('- … (cut here: the plan is too long for this place)\n\n</details>');
    expect(body.trimEnd().endsWith('the whole report is in the job summary.')).toBe(true);
  });
});

describe('truncateMarkdown', () => {
  it('returns text that fits unchanged', () => {
    expect(truncateMarkdown('a\n\nb\n', 100)).toBe('a\n\nb');
  });

  it('never exceeds the limit and never cuts a details block or a fence in half, whatever the limit', () => {
    const markdown = [
      '### wsync plan',
      '',
      '**3 to create**',
      '',
      codeBlock('error one\nerror two\n```inner```'),
      '',
      '<details><summary>Monitor: 2 create</summary>',
      '',
      '- **create** `a`',
      '  - `aplQuery`: `x`',
      '- **create** `b`',
      '',
      '</details>',
      '',
      '<details><summary>Notifier: 1 create</summary>',
      '',
      '- **create** `n`',
      '',
      '</details>',
    ].join('\n');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: markdown.length + 10 }), (limit) => {
        const cut = truncateMarkdown(markdown, limit);
        if (markdown.length + 1 <= limit) expect(cut).toBe(markdown);
        else {
          const note = cut.split('\n').at(-1) ?? '';
          expect(note).toMatch(/^> :scissors: Cut to fit/);
          expect(cut.length - note.length).toBeLessThanOrEqual(Math.max(0, limit - note.length));
          expectBalanced(cut);
        }
      }),
    );
  });
});
