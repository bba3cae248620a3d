// The pull-request report of the GitHub Action (action.yml): one comment, and the job summary,
// built from what `wsync validate` and `wsync plan` printed. Pure: the Action reads the files and
// posts. A report that is too long for its place is cut between blocks, never inside a
// `<details>` block or a code fence, and says so.

import { environmentSections, environmentsTitle, type EnvironmentPlan } from './pr-environments.js';

/** What the Action saw, in the order it ran. */
export interface PullRequestReport {
  /** The commit the report is about (shown shortened). */
  commit: string;
  validate: { ok: boolean; output: string };
  /** Absent when validate failed (the plan does not run then). */
  plan?: PlanOutcome;
  /** A tree planned once per environment (the Action's `environments` input): a section each. */
  environments?: EnvironmentPlan[];
}

export type PlanOutcome =
  /** `wsync plan` exited 0 (no changes) or 2 (changes) with `--detailed-exitcode`. */
  | { status: 'planned'; changes: boolean; format: 'markdown' | 'text' | 'json'; output: string }
  | { status: 'failed'; output: string }
  | { status: 'skipped'; reason: string };

export interface ReportOptions {
  /** Characters the whole body may use (a GitHub comment holds 65,536). */
  limit: number;
  /** First line of the body, e.g. an HTML comment that finds the comment again on the next push. */
  marker?: string;
  /** Where the rest is, said when the body had to be cut. */
  elsewhere?: string;
}

/** The longest comment GitHub accepts, less a margin for the marker and the note. */
export const COMMENT_LIMIT = 65_000;
/** The job summary takes 1 MiB per step; 4 bytes per character at worst. */
export const SUMMARY_LIMIT = 250_000;

export const FORK_SKIP_REASON = 'plan skipped: no access to the workspace from a fork';

/** Text as a fenced code block: the fence is longer than any backtick run inside, so nothing closes it early. */
export function codeBlock(text: string, info = ''): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

function shortCommit(commit: string): string {
  return /^[0-9a-f]{40,64}$/i.test(commit) ? commit.slice(0, 7) : commit;
}

/** The report as markdown: a heading that says what happened, then the detail. */
export function reportMarkdown(report: PullRequestReport, options: ReportOptions): string {
  const commit = shortCommit(report.commit);
  const head = options.marker === undefined ? [] : [options.marker];
  let title: string;
  let detail: string;
  const plan = report.plan;
  if (!report.validate.ok) {
    title = `### :x: wsync: the files do not validate (${commit})`;
    detail = codeBlock(report.validate.output.trim() || 'no output');
  } else if (report.environments !== undefined && report.environments.length > 0 && plan?.status !== 'skipped') {
    const top = `${[...head, `### ${environmentsTitle(report.environments)} (${commit})`].join('\n')}\n\n`;
    return `${top}${environmentSections(report.environments, options.limit - top.length - 1, options.elsewhere)}`.replace(/\n*$/, '\n');
  } else if (plan === undefined) {
    title = `### :white_check_mark: wsync: the files validate (${commit})`;
    detail = report.validate.output.trim() === '' ? '' : codeBlock(report.validate.output.trim());
  } else if (plan.status === 'skipped') {
    title = `### wsync: ${plan.reason} (${commit})`;
    detail =
      plan.reason === FORK_SKIP_REASON
        ? 'The files validate. GitHub gives a pull request from a fork no secrets, so there is no token to read the workspace with.'
        : 'The files validate.';
  } else if (plan.status === 'failed') {
    title = `### :x: wsync plan failed (${commit})`;
    detail = codeBlock(plan.output.trim() || 'no output');
  } else {
    title = `### wsync plan: ${plan.changes ? 'changes' : 'no changes'} (${commit})`;
    // The markdown plan has a heading of its own: ours says the same with the commit.
    if (plan.format === 'markdown') detail = plan.output.replace(/^### wsync plan\n+/, '').trim();
    else detail = codeBlock(plan.output.trim(), plan.format === 'json' ? 'json' : '');
  }
  const top = `${[...head, title].join('\n')}\n\n`;
  const room = options.limit - top.length - 1;
  return `${top}${truncateMarkdown(detail, room, options.elsewhere)}`.replace(/\n*$/, '\n');
}

/** A run of lines that is kept or dropped whole: a list item with its sub-lines, a fence, a details block. */
interface Block {
  lines: string[];
  kind: 'lines' | 'fence' | 'details';
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const DETAILS_OPEN = /^<details[\s>]/i;
const DETAILS_CLOSE = /^<\/details>\s*$/i;

function fenceEnd(lines: readonly string[], start: number): number {
  const open = FENCE_OPEN.exec(lines[start] ?? '')?.[1] ?? '```';
  const close = new RegExp(`^ {0,3}${open[0] === '`' ? '`' : '~'}{${open.length},}\\s*$`);
  for (let i = start + 1; i < lines.length; i += 1) if (close.test(lines[i] ?? '')) return i;
  return lines.length - 1;
}

function detailsEnd(lines: readonly string[], start: number): number {
  let depth = 0;
  for (let i = start; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (FENCE_OPEN.test(line) && i > start) {
      i = fenceEnd(lines, i);
      continue;
    }
    if (DETAILS_OPEN.test(line)) depth += 1;
    else if (DETAILS_CLOSE.test(line)) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return lines.length - 1;
}

function blocks(lines: readonly string[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (FENCE_OPEN.test(line)) {
      const end = fenceEnd(lines, i);
      out.push({ kind: 'fence', lines: lines.slice(i, end + 1) });
      i = end;
    } else if (DETAILS_OPEN.test(line)) {
      const end = detailsEnd(lines, i);
      out.push({ kind: 'details', lines: lines.slice(i, end + 1) });
      i = end;
    } else {
      // Indented lines that follow belong to this one (the diffs of a change).
      let end = i;
      while (end + 1 < lines.length && /^\s+\S/.test(lines[end + 1] ?? '') && !FENCE_OPEN.test(lines[end + 1] ?? '')) end += 1;
      out.push({ kind: 'lines', lines: lines.slice(i, end + 1) });
      i = end;
    }
  }
  return out;
}

const size = (lines: readonly string[]): number => lines.reduce((n, line) => n + line.length + 1, 0);

/**
 * As many whole blocks as fit in `budget` characters. A details block or fence that does not fit
 * whole keeps its opening lines and as much of its inside as fits, and is closed.
 */
function fit(all: readonly Block[], budget: number): { lines: string[]; complete: boolean } {
  const kept: string[] = [];
  let used = 0;
  for (const block of all) {
    const cost = size(block.lines);
    if (used + cost <= budget) {
      kept.push(...block.lines);
      used += cost;
      continue;
    }
    const left = budget - used;
    if (block.kind === 'details') {
      // `<details><summary>..</summary>`, its body cut the same way, a note, `</details>`.
      const opening = block.lines[0] ?? '<details>';
      const closing = '</details>';
      const note = '- … (cut here: the plan is too long for this place)';
      const room = left - size([opening, '', note, '', closing]);
      if (room > 0) {
        const inner = fit(blocks(block.lines.slice(1, -1)), room);
        kept.push(opening, ...inner.lines, ...(inner.lines.at(-1) === '' ? [] : ['']), note, '', closing);
      }
    } else if (block.kind === 'fence') {
      const opening = block.lines[0] ?? '```';
      const closing = FENCE_OPEN.exec(opening)?.[1] ?? '```';
      let room = left - size([opening, '…', closing]);
      if (room >= 0) {
        const body: string[] = [];
        for (const line of block.lines.slice(1, -1)) {
          if (line.length + 1 > room) break;
          body.push(line);
          room -= line.length + 1;
        }
        kept.push(opening, ...body, '…', closing);
      }
    }
    return { lines: kept, complete: false };
  }
  return { lines: kept, complete: true };
}

/**
 * `markdown` cut to at most `limit` characters at a block boundary, with a closing note when cut.
 * `<details>` blocks and code fences are never left open.
 */
export function truncateMarkdown(markdown: string, limit: number, elsewhere = 'the job log'): string {
  const text = markdown.replace(/\n+$/, '');
  if (text.length + 1 <= limit) return text;
  const lines = text.split('\n');
  const note = `> :scissors: Cut to fit: ${lines.length} lines in all; the whole report is in ${elsewhere}.`;
  const budget = Math.max(0, limit - note.length - 2);
  const { lines: kept } = fit(blocks(lines), budget);
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.length === 0 ? note : `${kept.join('\n')}\n\n${note}`;
}
