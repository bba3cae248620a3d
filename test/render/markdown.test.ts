import { describe, expect, it } from 'vitest';
import { codeSpan, escapeMarkdown, renderMarkdown } from '../../src/render/index.js';
import { desiredOf, inventoryOf, liveOf, owns, plan, resource, wire } from '../plan/builders.js';
import { emptyPlan, mixedPlan, refusedPlan } from './sample.js';

/** The markdown with every code span taken out: what GitHub would interpret. */
function outsideCode(md: string): string {
  return md.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '');
}

describe('renderMarkdown', () => {
  const md = renderMarkdown(mixedPlan());

  it('starts with a heading, the summary sentence and a kind x action table', () => {
    const lines = md.split('\n');
    expect(lines.slice(0, 3)).toEqual(['### wsync plan', '', '**Plan: 2 to create, 2 to update, 1 to replace, 1 to delete, 1 to adopt; 2 skipped, 1 error.**']);
    expect(md).toContain('| kind | create | update | replace | delete | adopt | skipped | unchanged |\n|:--|--:|--:|--:|--:|--:|--:|--:|\n');
    expect(md).toContain('| Monitor | 2 | 1 | 0 | 0 | 0 | 0 | 1 |\n');
    expect(md).toContain('| **total** | **2** | **2** | **1** | **1** | **1** | **2** | **1** |\n');
  });

  it('lists errors, then deletes, then the rest folded per kind', () => {
    const errors = md.indexOf('#### :x: Errors (1)');
    const deletes = md.indexOf('#### Deletes (1)');
    const changes = md.indexOf('#### Changes');
    expect(errors).toBeGreaterThan(0);
    expect(deletes).toBeGreaterThan(errors);
    expect(changes).toBeGreaterThan(deletes);
    expect(md).toContain('- **delete** `Notifier/old` (id `notify_old`) — owned by wsync and no longer declared\n');
    expect(md).toContain('<details><summary>Monitor: 2 create, 1 update</summary>\n\n');
    expect(md).toContain('- **update** `Monitor/m` (id `mon_1`)\n  - `threshold`: `25` → `30`\n');
    expect(md).toContain('  - `properties.slack.slackUrl`: (sensitive value changed)\n');
    expect(md).not.toContain('Monitor/same');
  });

  it('shows refusals before anything else that follows the table', () => {
    const refused = renderMarkdown(refusedPlan());
    expect(refused).toContain('#### :no_entry: Held\n\nApply applies the rest of the plan and holds these changes.\n\n- Refusing to delete 2 of 3 live Monitor objects (67%)');
    expect(refused.indexOf(':no_entry:')).toBeLessThan(refused.indexOf('#### Deletes (2)'));
  });

  it('says so when nothing differs', () => {
    expect(renderMarkdown(emptyPlan())).toContain('**No changes. The workspace matches the files.**');
  });

  it('keeps names and values from the files inert: code spans for values, escapes for text', () => {
    const live = wire.monitor('mon_1', 'x', { type: 'MatchEvent', aplQuery: 'q', description: 'old' });
    const hostile = '<img src=x onerror=alert(1)> **bold** `tick` | pipe';
    const p = plan(
      desiredOf(resource('Monitor', 'x', { type: 'MatchEvent', aplQuery: 'q', description: hostile }), resource('Monitor', 'a`b<i>', { type: 'MatchEvent', aplQuery: 'q', notifiers: ['<b>@team</b>'] })),
      liveOf([live]),
      inventoryOf([owns(live, 'x')]),
    );
    const out = renderMarkdown(p);
    expect(out).toContain(codeSpan(JSON.stringify(hostile)));
    expect(out).toContain('``Monitor/a`b<i>``');
    const bare = outsideCode(out);
    expect(bare).not.toMatch(/<img|<i>|<b>|\*\*bold/);
    expect(bare).toContain('no Notifier named "\\<b\\>\\@team\\</b\\>"');
  });

  it('codeSpan and escapeMarkdown', () => {
    expect(codeSpan('plain')).toBe('`plain`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('two\nlines')).toBe('`two\\nlines`');
    expect(escapeMarkdown('a*b_c [d](e) <f> & g|h ~i~ @j')).toBe('a\\*b\\_c \\[d\\](e) \\<f\\> \\& g\\|h \\~i\\~ \\@j');
  });
});
