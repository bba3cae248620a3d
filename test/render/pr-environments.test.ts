// The pull-request report of a tree with environments: a section each, none pushed out by another.
import { describe, expect, it } from 'vitest';
import { reportMarkdown } from '../../src/render/pr-comment.js';

const hugePlan = `### wsync plan\n\n${Array.from({ length: 4000 }, (_, i) => `- create Monitor/m${i}`).join('\n')}\n`;

describe('the report of several environments', () => {
  it('keeps every section when one plan is huge: the small ones whole, the huge one cut and saying so', () => {
    const markdown = reportMarkdown(
      {
        commit: 'feedface00000000000000000000000000000000',
        validate: { ok: true, output: '' },
        plan: { status: 'planned', changes: true, format: 'markdown', output: '' },
        environments: [
          { name: 'staging', plan: { status: 'planned', changes: true, format: 'markdown', output: hugePlan } },
          { name: 'prod', plan: { status: 'planned', changes: false, format: 'markdown', output: '### wsync plan\n\nNo changes.\n' } },
          { name: 'qa', plan: { status: 'failed', output: 'error: connect ECONNREFUSED 127.0.0.1:1\n' } },
          { name: 'dev', plan: { status: 'skipped', reason: 'plan skipped: no token for environment dev' } },
        ],
      },
      { limit: 20_000, elsewhere: 'the job summary' },
    );
    expect(markdown.length).toBeLessThanOrEqual(20_000);
    expect(markdown).toMatch(/^### :x: wsync plan, 4 environments: failed in qa; changes in staging \(feedfac\)\n/);
    expect(markdown).toContain('#### Environment staging: changes\n\n- create Monitor/m0\n');
    expect(markdown).toContain('the whole report is in the job summary');
    expect(markdown).toContain('#### Environment prod: no changes\n\nNo changes.\n');
    expect(markdown).toContain('#### Environment qa: :x: plan failed\n\n```\nerror: connect ECONNREFUSED 127.0.0.1:1\n```\n');
    expect(markdown).toContain('#### Environment dev: skipped: plan skipped: no token for environment dev\n');
  });
});
