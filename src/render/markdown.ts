// The pull-request comment form of a plan: summary table first, then refusals and errors, then
// deletes (never folded: they are what a reviewer must see), then everything else folded by kind.
import { safeLine, safeMessage, safeText } from '../core/safe-text.js';
import type { Action, Change, Diagnostic, FieldDiff, KindName, Plan } from '../core/types.js';
import { KIND_NAMES } from '../kinds/index.js';
import { elementCounts, hunkLine, viewDiff } from './field-diff.js';
import {
  ABSENT,
  ACTION_ORDER,
  actionLabel,
  applyRedaction,
  approvalLines,
  changeTitle,
  groupDiffTarget,
  groupHeading,
  isQuietAdopt,
  quietAdoptSentence,
  summarySentence,
  WHOLE,
  type RenderOptions,
} from './format.js';

/**
 * Text as a code span: CommonMark shows its content literally, HTML and markdown included; controls
 * (line breaks among them) are escaped first, so nothing can end the span's line.
 */
export function codeSpan(text: string): string {
  const flat = safeLine(text);
  const longestRun = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * Plain text safe inside a line of markdown: characters that start emphasis, links, code, HTML,
 * entities, tables, strike-through or mentions are escaped (the text never starts a line).
 */
export function escapeMarkdown(text: string): string {
  return safeLine(text).replace(/[\\`*_[\]<>&|~@]/g, (c) => `\\${c}`);
}

/**
 * One field diff as markdown list lines (the first at `indent`, details nested under it): values
 * in code spans, changed words marked `[-old-]{+new+}` in their context, list elements added and
 * removed. Secrets show no value.
 */
export function markdownDiffLines(diff: FieldDiff, change: Pick<Change, 'id'>, redact?: (text: string) => string, indent = '  '): string[] {
  const path = diff.path === '' ? WHOLE : codeSpan(diff.path);
  const view = viewDiff(diff, change, redact ? { redact } : {});
  switch (view.form) {
    case 'sensitive':
      return [`${indent}- ${path}: ${view.text}`];
    case 'whole': {
      const side = (text: string): string => (text === ABSENT ? ABSENT : codeSpan(text));
      return [`${indent}- ${path}: ${view.before === undefined ? side(view.after) : `${side(view.before)} → ${side(view.after)}`}`];
    }
    case 'words': {
      const hunks = view.hunks.map((h) => codeSpan(hunkLine(h)));
      return hunks.length === 1 ? [`${indent}- ${path}: ${hunks[0] ?? ''}`] : [`${indent}- ${path}:`, ...hunks.map((h) => `${indent}  - ${h}`)];
    }
    case 'elements':
      return [
        `${indent}- ${path}: ${elementCounts(view.added.length, view.removed.length)}`,
        ...view.removed.map((v) => `${indent}  - removed ${codeSpan(v)}`),
        ...view.added.map((v) => `${indent}  - added ${codeSpan(v)}`),
      ];
  }
}

/** The kind's outline: a bold heading per group (a chart, the layout), its diffs or notes nested below. */
function outlineLines(change: Change, redact: ((text: string) => string) | undefined): string[] {
  const lines: string[] = [];
  for (const group of change.outline ?? []) {
    lines.push(`  - **${escapeMarkdown(groupHeading(group, change))}**`);
    const target = groupDiffTarget(group, change);
    for (const diff of group.diffs) lines.push(...markdownDiffLines(diff, target, redact, '    '));
    for (const note of group.notes ?? []) lines.push(`    - ${escapeMarkdown(safeMessage(note))}`);
  }
  return lines;
}

function changeBlock(change: Change, redact: ((text: string) => string) | undefined): string[] {
  const id = change.id ? ` (id ${codeSpan(safeText(change.id))})` : '';
  const reason = change.reason ? ` — ${escapeMarkdown(safeMessage(change.reason))}` : '';
  const warning = change.warning ? [`  - :rotating_light: **${escapeMarkdown(safeMessage(change.warning))}**`] : [];
  const details = change.outline ? outlineLines(change, redact) : change.diffs.flatMap((d) => markdownDiffLines(d, change, redact));
  // concat, not a spread: a change of 100,000 fields would pass that many arguments.
  return [`- **${actionLabel(change.action)}** ${codeSpan(changeTitle(change))}${id}${reason}`, ...warning].concat(details);
}

function diagnosticLine(d: Diagnostic): string {
  const where = d.file ? `${codeSpan(`${safeText(d.file)}:${d.line ?? 1}`)} ` : '';
  const what = d.kind ? `${codeSpan(`${d.kind}/${safeText(d.name ?? '?')}`)}: ` : '';
  return `- ${where}${what}${escapeMarkdown(safeMessage(d.message))}`;
}

function countsOf(changes: readonly Change[]): Map<Action, number> {
  const counts = new Map<Action, number>();
  for (const c of changes) counts.set(c.action, (counts.get(c.action) ?? 0) + 1);
  return counts;
}

function summaryTable(plan: Plan): string[] {
  const kinds = KIND_NAMES.filter((k) => plan.changes.some((c) => c.kind === k));
  const actions = ACTION_ORDER.filter((a) => plan.summary[a] > 0);
  if (kinds.length === 0 || actions.length === 0) return [];
  const label = (a: Action): string => (a === 'noop' ? 'unchanged' : actionLabel(a));
  const lines = [`| kind | ${actions.map(label).join(' | ')} |`, `|:--|${actions.map(() => '--:').join('|')}|`];
  for (const kind of kinds) {
    const counts = countsOf(plan.changes.filter((c) => c.kind === kind));
    lines.push(`| ${kind} | ${actions.map((a) => String(counts.get(a) ?? 0)).join(' | ')} |`);
  }
  lines.push(`| **total** | ${actions.map((a) => `**${plan.summary[a]}**`).join(' | ')} |`);
  return lines;
}

export function renderMarkdown(plan: Plan, options?: RenderOptions): string {
  return [...markdownChunks(plan, options)].join('');
}

/** The markdown form in pieces, a change at a time, each redacted (see textChunks). */
export function* markdownChunks(plan: Plan, options?: RenderOptions): Generator<string> {
  for (const piece of withoutTrailingNewlines(markdownPieces(plan, options?.redact))) yield applyRedaction(piece, options);
}

/** Lines joined, without the blank lines that end the whole (the pieces end on line breaks). */
function* withoutTrailingNewlines(pieces: Iterable<string>): Generator<string> {
  let held = '';
  for (const piece of pieces) {
    const body = piece.replace(/\n+$/, '');
    if (body === '') {
      held += piece;
      continue;
    }
    yield held + body;
    held = piece.slice(body.length);
  }
  yield '\n';
}

function* markdownPieces(plan: Plan, redact: ((text: string) => string) | undefined): Generator<string> {
  const heading = plan.environment === undefined ? '### wsync plan' : `### wsync plan: environment ${codeSpan(plan.environment)}`;
  const out: string[] = [heading, '', `**${escapeMarkdown(summarySentence(plan))}**`, ''];
  const flush = (): string => {
    const piece = out.length === 0 ? '' : `${out.join('\n')}\n`;
    out.length = 0;
    return piece;
  };
  const table = summaryTable(plan);
  if (table.length > 0) out.push(...table, '');

  const destructive = plan.changes.filter((c) => c.warning !== undefined);
  if (destructive.length > 0) {
    out.push(`#### :rotating_light: Data loss (${destructive.length})`, '', 'Read this before you apply: these changes destroy data that cannot be recovered.', '');
    for (const c of destructive) out.push(`- **${c.action}** ${codeSpan(changeTitle(c))}: **${escapeMarkdown(safeMessage(c.warning ?? ''))}**`);
    out.push('');
  }
  const approval = approvalLines(plan, { code: codeSpan, prose: escapeMarkdown });
  if (plan.refusals.length > 0 || approval.length > 0) {
    if (plan.held || plan.refusals.length > 0) out.push('#### :no_entry: Held', '', 'Apply applies the rest of the plan and holds these changes.', '');
    for (const r of plan.refusals) out.push(`- ${escapeMarkdown(safeMessage(r))}`);
    if (plan.refusals.length > 0) out.push('');
    for (const line of approval) out.push(line, '');
  }
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    out.push(`#### :x: Errors (${errors.length}): the plan cannot be applied`, '', ...errors.map(diagnosticLine), '');
  }
  const warnings = plan.diagnostics.filter((d) => d.severity === 'warning');
  if (warnings.length > 0) out.push(`#### :warning: Warnings (${warnings.length})`, '', ...warnings.map(diagnosticLine), '');

  // Changes without a source are about undeclared live objects: deletes and refused deletes. What
  // the change itself removes (plan --base) comes first, apart from what differs for other reasons.
  const removals = plan.changes.filter((c) => c.source === undefined);
  const byChange = removals.filter((c) => c.removedByChange === true);
  const others = removals.filter((c) => c.removedByChange !== true);
  if (byChange.length > 0) {
    out.push(`#### :wastebasket: Removed by this change (${byChange.length})`, '', 'Declared in the base and no longer in the files: what merging deletes.', '');
    yield flush();
    for (const change of byChange) yield `${changeBlock(change, redact).join('\n')}\n`;
    out.push('');
  }
  const deletes = others.filter((c) => c.action === 'delete' || c.action === 'refused' || !c.owned);
  const kept = others.filter((c) => !deletes.includes(c));
  if (deletes.length > 0) {
    out.push(`#### ${byChange.length > 0 ? 'Other deletes' : 'Deletes'} (${deletes.length})`, '');
    yield flush();
    for (const change of deletes) yield `${changeBlock(change, redact).join('\n')}\n`;
    out.push('');
  }
  if (kept.length > 0) {
    out.push(`#### No longer declared (${kept.length})`, '', 'Owned by wsync, in no file any more, and not deleted: `--prune` deletes them; declare one with `wsync/mode: abandon` to let it go.', '');
    yield flush();
    for (const change of kept) yield `${changeBlock(change, redact).join('\n')}\n`;
    out.push('');
  }

  const rest = plan.changes.filter((c) => c.source !== undefined && c.action !== 'noop');
  if (rest.length > 0) {
    out.push('#### Changes', '');
    const quiet = rest.filter(isQuietAdopt).length;
    if (quiet > 0) out.push(escapeMarkdown(quietAdoptSentence(quiet)), '');
    const kinds: KindName[] = KIND_NAMES.filter((k) => rest.some((c) => c.kind === k));
    for (const kind of kinds) {
      const changes = rest.filter((c) => c.kind === kind);
      const counts = countsOf(changes);
      const summary = ACTION_ORDER.filter((a) => counts.has(a))
        .map((a) => `${counts.get(a)} ${a}`)
        .join(', ');
      out.push(`<details><summary>${kind}: ${summary}</summary>`, '');
      yield flush();
      for (const change of changes) yield `${changeBlock(change, redact).join('\n')}\n`;
      out.push('', '</details>', '');
    }
  }
  yield flush();
}
