// The terminal form of a plan, terraform-like: one line per change, field lines below it.
import { formatDiagnostic } from '../core/diagnostics.js';
import { safeMessage, safeText } from '../core/safe-text.js';
import type { Action, Change, FieldDiff, Plan } from '../core/types.js';
import { elementCounts, hunkLine, markPiece, viewDiff, type WordPiece } from './field-diff.js';
import {
  ACTION_SYMBOL,
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

export interface TextOptions extends RenderOptions {
  /** ANSI colours (a TTY without --no-color). */
  color: boolean;
  /** Also list unchanged objects and where each resource is declared. */
  verbose?: boolean;
}

const ANSI = { reset: 0, bold: 1, dim: 2, red: 31, green: 32, yellow: 33, magenta: 35, cyan: 36 } as const;
type Style = keyof typeof ANSI;

const ACTION_STYLE: Readonly<Record<Action, Style>> = {
  create: 'green',
  update: 'yellow',
  replace: 'magenta',
  delete: 'red',
  adopt: 'cyan',
  abandon: 'cyan',
  noop: 'dim',
  skipped: 'dim',
  refused: 'red',
};

function painter(color: boolean): (style: Style, text: string) => string {
  return (style, text) => (color ? `\u001b[${ANSI[style]}m${text}\u001b[0m` : text);
}

type Paint = (style: Style, text: string) => string;

interface DiffLineOptions {
  paint?: Paint;
  redact?: (text: string) => string;
}

/**
 * One field diff as lines, the first `path: ...`, the others indented two more: `threshold: 25 -> 30`,
 * `aplQuery: … status >= [-500-]{+400+} | summarize …` (changed words in context), or the elements
 * a list gained and lost. Secrets show no value.
 */
export function diffLines(diff: FieldDiff, change: Pick<Change, 'id'>, options: DiffLineOptions = {}): string[] {
  const paint = options.paint ?? ((_style: Style, text: string) => text);
  const path = diff.path === '' ? WHOLE : safeText(diff.path);
  const view = viewDiff(diff, change, options.redact ? { redact: options.redact } : {});
  switch (view.form) {
    case 'sensitive':
      return [`${path}: ${view.text}`];
    case 'whole':
      return [view.before === undefined ? `${path}: ${view.after}` : `${path}: ${view.before} -> ${view.after}`];
    case 'words': {
      const mark = (piece: WordPiece, text: string): string =>
        piece.change === 'same' ? text : paint(piece.change === 'added' ? 'green' : 'red', markPiece(piece, text));
      const hunks = view.hunks.map((h) => hunkLine(h, mark));
      return hunks.length === 1 ? [`${path}: ${hunks[0] ?? ''}`] : [`${path}:`, ...hunks.map((line) => `  ${line}`)];
    }
    case 'elements':
      return [
        `${path}: ${elementCounts(view.added.length, view.removed.length)}`,
        ...view.removed.map((v) => `  ${paint('red', '-')} ${v}`),
        ...view.added.map((v) => `  ${paint('green', '+')} ${v}`),
      ];
  }
}

function changeLines(change: Change, paint: Paint, verbose: boolean, redact: ((text: string) => string) | undefined): string[] {
  const style = ACTION_STYLE[change.action];
  const symbol = ACTION_SYMBOL[change.action].padStart(3);
  const id = change.id ? ` (id ${safeText(change.id)})` : '';
  const lines = [`${paint(style, `${symbol} ${actionLabel(change.action).padEnd(7)}`)} ${paint('bold', changeTitle(change))}${id}`];
  // Loops, not push(...lines): a change of 100,000 fields would pass that many arguments.
  if (change.warning) lines.push(`        ${paint('red', paint('bold', `!! ${safeMessage(change.warning)}`))}`);
  if (change.reason) lines.push(`        # ${safeMessage(change.reason)}`);
  if (verbose && change.source) lines.push(`        # declared in ${safeText(change.source.file)}:${change.source.line}`);
  if (verbose && change.dependsOn.length > 0) lines.push(`        # after ${change.dependsOn.map((ref) => safeText(ref)).join(', ')}`);
  const options = { paint, ...(redact ? { redact } : {}) };
  if (change.outline) for (const line of outlineLines(change, options)) lines.push(line);
  else for (const diff of change.diffs) for (const line of diffLines(diff, change, options)) lines.push(`        ${line}`);
  return lines;
}

/** The kind's outline: a heading per group (a chart, the layout), its field diffs or notes below. */
function outlineLines(change: Change, options: DiffLineOptions): string[] {
  const lines: string[] = [];
  for (const group of change.outline ?? []) {
    lines.push(`        ${groupHeading(group, change)}`);
    const target = groupDiffTarget(group, change);
    for (const diff of group.diffs) for (const line of diffLines(diff, target, options)) lines.push(`          ${line}`);
    for (const note of group.notes ?? []) lines.push(`          ${safeMessage(note)}`);
  }
  return lines;
}

export function renderText(plan: Plan, options: TextOptions): string {
  return [...textChunks(plan, options)].join('');
}

/**
 * The text form in pieces, a change at a time, each redacted: printed as they come, a plan's
 * output never has to be held whole (60,000 header lines of a create made a 28 MB string).
 */
export function* textChunks(plan: Plan, options: TextOptions): Generator<string> {
  const chunk = (lines: readonly string[]): string => applyRedaction(lines.length === 0 ? '' : `${lines.join('\n')}\n`, options);
  const paint = painter(options.color);
  const verbose = options.verbose ?? false;
  const out: string[] = [];
  if (plan.environment !== undefined) out.push(paint('bold', `Environment: ${safeText(plan.environment)}`), '');

  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  const warnings = plan.diagnostics.filter((d) => d.severity === 'warning');
  if (errors.length > 0) {
    out.push(paint('red', paint('bold', `Errors (${errors.length}): the plan cannot be applied`)));
    for (const d of errors) out.push(`  ${paint('red', 'error:')} ${formatDiagnostic(d)}`);
    out.push('');
  }
  if (warnings.length > 0) {
    out.push(paint('yellow', paint('bold', `Warnings (${warnings.length})`)));
    for (const d of warnings) out.push(`  ${formatDiagnostic(d)}`);
    out.push('');
  }
  const destructive = plan.changes.filter((c) => c.warning !== undefined);
  if (destructive.length > 0) {
    out.push(paint('red', paint('bold', `Data loss (${destructive.length}): read this before you apply`)));
    for (const c of destructive) out.push(`  ${paint('red', '!!')} ${c.action} ${changeTitle(c)}: ${safeMessage(c.warning ?? '')}`);
    out.push('');
  }
  const approval = approvalLines(plan);
  if (plan.refusals.length > 0 || approval.length > 0) {
    if (plan.held || plan.refusals.length > 0) out.push(paint('red', paint('bold', 'Held: apply applies the rest of the plan and holds these changes')));
    for (const r of plan.refusals) out.push(`  ${paint('red', '!')} ${safeMessage(r)}`);
    for (const line of approval) out.push(`  ${line}`);
    out.push('');
  }

  const shown = plan.changes.filter((c) => verbose || (c.action !== 'noop' && !isQuietAdopt(c)));
  const quietAdopts = verbose ? 0 : plan.changes.filter(isQuietAdopt).length;
  if (shown.length > 0 || quietAdopts > 0) {
    out.push('wsync plan:');
    out.push('');
    yield chunk(out);
    out.length = 0;
    for (const change of shown) yield chunk(changeLines(change, paint, verbose, options.redact));
    if (quietAdopts > 0) out.push(`  ${paint(ACTION_STYLE.adopt, ACTION_SYMBOL.adopt)} ${quietAdoptSentence(quietAdopts)} (--verbose lists them)`);
    out.push('');
  }
  const unchanged = plan.summary.noop;
  const sentence = summarySentence(plan);
  out.push(paint('bold', sentence) + (unchanged > 0 && sentence.startsWith('Plan:') ? ` ${unchanged} unchanged.` : ''));
  yield chunk(out);
}
