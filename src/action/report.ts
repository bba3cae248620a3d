// The report step of the GitHub Action (action.yml, run by actions/github-script): reads what the
// validate and plan steps left in $RUNNER_TEMP/wsync, writes the whole report, the job summary,
// and keeps one comment on the pull request up to date. Everything it touches comes in as a
// parameter (github-script's client, context and core, and node:fs), so a test drives it with fakes.
import { join } from 'node:path';
import {
  COMMENT_LIMIT,
  FORK_SKIP_REASON,
  reportMarkdown,
  SUMMARY_LIMIT,
  type PlanOutcome,
  type PullRequestReport,
} from '../render/pr-comment.js';
import type { EnvironmentPlan } from '../render/pr-environments.js';

export interface ReportFiles {
  existsSync(path: string): boolean;
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, data: string): void;
  appendFileSync(path: string, data: string): void;
}

interface IssueComment {
  id: number;
  body?: string | null;
}

/** The part of github-script's Octokit client the comment needs. */
export interface CommentClient {
  paginate(method: unknown, parameters: Record<string, unknown>): Promise<unknown[]>;
  rest: {
    issues: {
      listComments: unknown;
      createComment(parameters: { owner: string; repo: string; issue_number: number; body: string }): Promise<unknown>;
      updateComment(parameters: { owner: string; repo: string; comment_id: number; body: string }): Promise<unknown>;
    };
  };
}

export interface ReportContext {
  eventName: string;
  sha: string;
  repo: { owner: string; repo: string };
  issue: { number: number };
  payload: { pull_request?: { head?: { sha?: string; repo?: { full_name?: string } | null } } };
}

export interface ReportStep {
  env: Readonly<Record<string, string | undefined>>;
  github: CommentClient;
  context: ReportContext;
  core: { info(message: string): void; warning(message: string): void };
  fs: ReportFiles;
}

function formatOf(value: string | undefined): 'markdown' | 'text' | 'json' {
  return value === 'text' || value === 'json' ? value : 'markdown';
}

function fromFork(context: ReportContext): boolean {
  const head = context.payload.pull_request?.head?.repo?.full_name;
  return context.eventName === 'pull_request' && head !== undefined && head !== `${context.repo.owner}/${context.repo.repo}`;
}

/** What the steps before left behind, as a report. */
export function collectReport(step: Pick<ReportStep, 'env' | 'context' | 'fs'>): PullRequestReport {
  const { env, fs } = step;
  const out = join(env.RUNNER_TEMP ?? '.', 'wsync');
  const read = (path: string | undefined): string => (path && fs.existsSync(path) ? fs.readFileSync(path, 'utf8') : '');
  const report: PullRequestReport = {
    commit: step.context.payload.pull_request?.head?.sha ?? step.context.sha,
    validate: { ok: env.VALIDATE_EXIT === '0', output: read(join(out, 'validate.txt')) },
  };
  if (!report.validate.ok) return report;
  let plan: PlanOutcome | undefined;
  if (env.PLAN_STATUS === 'planned') {
    plan = { status: 'planned', changes: env.PLAN_EXIT === '2', format: formatOf(env.WSYNC_PLAN_FORMAT), output: read(env.PLAN_FILE) };
  } else if (env.PLAN_STATUS === 'failed') {
    plan = { status: 'failed', output: read(join(out, 'plan.err')) || read(env.PLAN_FILE) };
  } else if (env.PLAN_STATUS === 'skipped') {
    plan = { status: 'skipped', reason: env.PLAN_REASON || FORK_SKIP_REASON };
  }
  const environments = env.WSYNC_ENVIRONMENTS_FILE ? environmentPlans(read(env.WSYNC_ENVIRONMENTS_FILE), formatOf(env.WSYNC_PLAN_FORMAT), read) : [];
  if (environments.length > 0) report.environments = environments;
  return plan === undefined ? report : { ...report, plan };
}

/**
 * The plan step's list of environments, one per line: NAME, status, exit code, plan file, error
 * file or skip reason, separated by tabs.
 */
function environmentPlans(listing: string, format: 'markdown' | 'text' | 'json', read: (path: string) => string): EnvironmentPlan[] {
  return listing
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name = '', status = '', exit = '', file = '', extra = ''] = line.split('\t');
      const plan: PlanOutcome =
        status === 'planned'
          ? { status, changes: exit === '2', format, output: read(file) }
          : status === 'skipped'
            ? { status, reason: extra }
            : { status: 'failed', output: read(extra) || read(file) };
      return { name, plan };
    });
}

/** One comment per folder: the marker names it (URI-encoded, so no `-->` can end the HTML comment). */
export function commentMarker(dir: string | undefined): string {
  return `<!-- wsync-plan ${encodeURIComponent(dir ?? '.')} -->`;
}

export async function runReport(step: ReportStep): Promise<void> {
  const { env, fs, core, context, github } = step;
  const report = collectReport(step);
  fs.writeFileSync(join(env.RUNNER_TEMP ?? '.', 'wsync', 'report.md'), reportMarkdown(report, { limit: Number.MAX_SAFE_INTEGER }));
  if (env.GITHUB_STEP_SUMMARY) {
    fs.appendFileSync(env.GITHUB_STEP_SUMMARY, reportMarkdown(report, { limit: SUMMARY_LIMIT, elsewhere: 'the job log' }));
  }

  if (env.WSYNC_COMMENT !== 'true' || context.eventName !== 'pull_request') return;
  if (fromFork(context)) {
    core.info('wsync: no comment on a pull request from a fork (its token cannot write one); the report is in the job summary');
    return;
  }
  const marker = commentMarker(env.WSYNC_DIR);
  const body = reportMarkdown(report, { limit: COMMENT_LIMIT, marker, elsewhere: 'the job summary' });
  const where = { owner: context.repo.owner, repo: context.repo.repo };
  try {
    const comments = (await github.paginate(github.rest.issues.listComments, { ...where, issue_number: context.issue.number, per_page: 100 })) as IssueComment[];
    const mine = comments.find((comment) => typeof comment.body === 'string' && comment.body.startsWith(marker));
    if (mine) await github.rest.issues.updateComment({ ...where, comment_id: mine.id, body });
    else await github.rest.issues.createComment({ ...where, issue_number: context.issue.number, body });
  } catch (err) {
    // The report is in the job summary either way; a missing permission must not hide it behind a red job.
    core.warning(`wsync: could not write the pull request comment (${err instanceof Error ? err.message : String(err)}); the report is in the job summary`);
  }
}
