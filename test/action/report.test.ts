import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commentMarker, runReport, type CommentClient, type ReportContext } from '../../src/action/report.js';
import { COMMENT_LIMIT } from '../../src/render/pr-comment.js';

const SHA = 'feedface00000000000000000000000000000000';

interface Call {
  method: 'create' | 'update';
  body: string;
  id?: number;
}

/** github-script's client as far as the report uses it: a list of comments, and what was written. */
function fakeGitHub(existing: { id: number; body: string }[], failWith?: Error): CommentClient & { calls: Call[] } {
  const calls: Call[] = [];
  const listComments = Symbol('listComments');
  return {
    calls,
    paginate: async (method, parameters) => {
      expect(method).toBe(listComments);
      expect(parameters).toMatchObject({ owner: 'acme', repo: 'observability', issue_number: 42 });
      if (failWith) throw failWith;
      return existing;
    },
    rest: {
      issues: {
        listComments,
        createComment: async ({ body }) => calls.push({ method: 'create', body }),
        updateComment: async ({ comment_id, body }) => calls.push({ method: 'update', body, id: comment_id }),
      },
    },
  };
}

function prContext(headRepo = 'acme/observability'): ReportContext {
  return {
    eventName: 'pull_request',
    sha: 'merge-sha',
    repo: { owner: 'acme', repo: 'observability' },
    issue: { number: 42 },
    payload: { pull_request: { head: { sha: SHA, repo: { full_name: headRepo } } } },
  };
}

describe('the Action report step', () => {
  let temp: string;
  let out: string;
  let summary: string;
  let logs: string[];
  const core = { info: (m: string) => logs.push(`info: ${m}`), warning: (m: string) => logs.push(`warning: ${m}`) };

  beforeEach(() => {
    temp = mkdtempSync(join(tmpdir(), 'wsync-action-report-'));
    out = join(temp, 'wsync');
    mkdirSync(out);
    summary = join(temp, 'summary.md');
    logs = [];
  });
  afterEach(() => rmSync(temp, { recursive: true, force: true }));

  const env = (extra: Record<string, string>) => ({ RUNNER_TEMP: temp, GITHUB_STEP_SUMMARY: summary, WSYNC_COMMENT: 'true', WSYNC_DIR: 'workspace', ...extra });

  it('posts the plan as a new comment, and writes it to the job summary and report.md', async () => {
    writeFileSync(join(out, 'validate.txt'), '12 resources in 7 files: ok\n');
    writeFileSync(join(out, 'plan.md'), '### wsync plan\n\n**1 to create**\n\n#### Changes\n');
    const github = fakeGitHub([{ id: 7, body: 'an unrelated comment' }]);
    await runReport({
      env: env({ VALIDATE_EXIT: '0', PLAN_STATUS: 'planned', PLAN_EXIT: '2', PLAN_FILE: join(out, 'plan.md'), WSYNC_PLAN_FORMAT: 'markdown' }),
      github,
      context: prContext(),
      core,
      fs,
    });
    expect(github.calls).toHaveLength(1);
    expect(github.calls[0]!.method).toBe('create');
    expect(github.calls[0]!.body).toBe(`${commentMarker('workspace')}\n### wsync plan: changes (feedfac)\n\n**1 to create**\n\n#### Changes\n`);
    expect(readFileSync(summary, 'utf8')).toBe('### wsync plan: changes (feedfac)\n\n**1 to create**\n\n#### Changes\n');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe(readFileSync(summary, 'utf8'));
  });

  it('updates its own comment on the next push, found by the marker of its folder', async () => {
    writeFileSync(join(out, 'validate.txt'), 'monitors/a.yaml:2:1: Monitor/a: unknown field\n');
    const github = fakeGitHub([
      { id: 3, body: `${commentMarker('other-folder')}\n### wsync plan` },
      { id: 9, body: `${commentMarker('workspace')}\n### wsync plan: changes (0000000)` },
    ]);
    await runReport({ env: env({ VALIDATE_EXIT: '1' }), github, context: prContext(), core, fs });
    expect(github.calls.map((c) => [c.method, c.id])).toEqual([['update', 9]]);
    expect(github.calls[0]!.body).toContain('### :x: wsync: the files do not validate (feedfac)\n\n```\nmonitors/a.yaml:2:1');
  });

  it('a pull request from a fork: validate and "plan skipped" in the summary, no comment attempted', async () => {
    writeFileSync(join(out, 'validate.txt'), '12 resources in 7 files: ok\n');
    const github = fakeGitHub([]);
    await runReport({
      env: env({ VALIDATE_EXIT: '0', PLAN_STATUS: 'skipped', PLAN_REASON: 'plan skipped: no access to the workspace from a fork' }),
      github,
      context: prContext('someone/observability'),
      core,
      fs,
    });
    expect(github.calls).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toContain('### wsync: plan skipped: no access to the workspace from a fork (feedfac)');
    expect(logs.join('\n')).toContain('no comment on a pull request from a fork');
  });

  it('a comment it may not write is a warning, and the summary is still there', async () => {
    writeFileSync(join(out, 'validate.txt'), 'ok\n');
    writeFileSync(join(out, 'plan.err'), 'plan: GET /v2/monitors: 401 unauthorized\n');
    const github = fakeGitHub([], new Error('Resource not accessible by integration'));
    await runReport({ env: env({ VALIDATE_EXIT: '0', PLAN_STATUS: 'failed', PLAN_EXIT: '1' }), github, context: prContext(), core, fs });
    expect(logs).toEqual([expect.stringContaining('warning: wsync: could not write the pull request comment (Resource not accessible by integration)')]);
    expect(readFileSync(summary, 'utf8')).toContain('### :x: wsync plan failed (feedfac)\n\n```\nplan: GET /v2/monitors: 401 unauthorized\n```');
  });

  it('a huge plan: the comment fits GitHub, the report file keeps everything', async () => {
    writeFileSync(join(out, 'validate.txt'), 'ok\n');
    const items = Array.from({ length: 4000 }, (_, i) => `- **create** \`Monitor/m-${i}\`\n  - \`aplQuery\`: \`${'q'.repeat(40)}\``);
    writeFileSync(join(out, 'plan.md'), ['### wsync plan', '', '<details><summary>Monitor: 4000 create</summary>', '', ...items, '', '</details>', ''].join('\n'));
    const github = fakeGitHub([]);
    await runReport({
      env: env({ VALIDATE_EXIT: '0', PLAN_STATUS: 'planned', PLAN_EXIT: '2', PLAN_FILE: join(out, 'plan.md'), WSYNC_PLAN_FORMAT: 'markdown' }),
      github,
      context: prContext(),
      core,
      fs,
    });
    const body = github.calls[0]!.body;
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.trimEnd()).toMatch(/<\/details>\n\n> :scissors: Cut to fit: \d+ lines in all; the whole report is in the job summary\.$/);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('m-3999');
  });

  it('outside a pull request, or with comment: false, only the summary', async () => {
    writeFileSync(join(out, 'validate.txt'), 'ok\n');
    const github = fakeGitHub([]);
    await runReport({ env: env({ VALIDATE_EXIT: '0', WSYNC_COMMENT: 'false' }), github, context: prContext(), core, fs });
    await runReport({ env: env({ VALIDATE_EXIT: '0' }), github, context: { ...prContext(), eventName: 'push' }, core, fs });
    expect(github.calls).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toContain(':white_check_mark: wsync: the files validate');
  });
});
