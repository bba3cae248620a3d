// Pieces the three plan renderers share: action labels, value formatting, the summary sentence.
import { hasErrors } from '../core/diagnostics.js';
import { safeMessage, safeText } from '../core/safe-text.js';
import { isWriteAction, type Action, type Change, type DiffGroup, type JsonValue, type Plan } from '../core/types.js';

export interface RenderOptions {
  /** Last line of defence: applied to the whole output (e.g. createRedactor(desired.secretValues)). */
  redact?: (text: string) => string;
}

export const SENSITIVE_CHANGED = '(sensitive value changed)';
export const SENSITIVE_VALUE = '(sensitive value)';
export const ABSENT = '(none)';

export const ACTION_SYMBOL: Readonly<Record<Action, string>> = {
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  adopt: '>',
  abandon: '<',
  noop: '=',
  skipped: '?',
  refused: '!',
};

/** How an action is named to people: a refused change is held (apply applies the rest of the plan). */
export function actionLabel(action: Action): string {
  return action === 'refused' ? 'held' : action;
}

/** Order of actions in summaries and tables. */
export const ACTION_ORDER: readonly Action[] = ['create', 'update', 'replace', 'delete', 'adopt', 'abandon', 'skipped', 'refused', 'noop'];

/** A value as JSON, with what JSON leaves raw (C1 controls, bidi controls, zero-width) escaped too. */
export function formatValue(value: JsonValue | undefined): string {
  return value === undefined ? ABSENT : safeMessage(JSON.stringify(value));
}

/** How a diff of a thing as a whole (an outline group's item) is named. */
export const WHOLE = '(all of it)';

/** `chart p95 (Statistic): added`, `chart errors` (changed), `layout`: escaped, cut when overlong. */
export function groupHeading(group: DiffGroup, change: Change): string {
  const status = group.status === 'changed' || change.id === undefined ? '' : `: ${group.status}`;
  return `${safeText(group.title)}${status}`;
}

/** Are the group's diffs new values only (in a create, or an added item)? */
function isFreshGroup(group: DiffGroup, change: Change): boolean {
  return change.id === undefined || group.status === 'added';
}

/** What a group's diffs are shown against: in an added group (or a create) new values only, as a create shows them. */
export function groupDiffTarget(group: DiffGroup, change: Change): Pick<Change, 'id'> {
  return isFreshGroup(group, change) ? {} : { id: change.id };
}

/** `Kind/key`, the key as it may be printed (escaped, cut when overlong). */
export function changeTitle(change: Change): string {
  return `${change.kind}/${safeText(change.key)}`;
}

/** True when the plan has anything apply would write, or anything that differs but is not written. */
export function hasPendingChanges(plan: Plan): boolean {
  return plan.changes.some((c) => c.action !== 'noop');
}

/** `Plan: 2 to create, 1 to update, 0 to delete, 1 to adopt; 1 skipped, 2 errors.` or the no-changes sentence. */
export function summarySentence(plan: Plan): string {
  const s = plan.summary;
  const errorCount = plan.diagnostics.filter((d) => d.severity === 'error').length;
  const errors = errorCount > 0 ? `${errorCount} error${errorCount === 1 ? '' : 's'}` : undefined;
  if (!hasPendingChanges(plan)) {
    return errors ? `No changes to make, but ${errors}: the plan cannot be applied.` : 'No changes. The workspace matches the files.';
  }
  const parts = [`${s.create} to create`, `${s.update} to update`];
  if (s.replace > 0) parts.push(`${s.replace} to replace`);
  parts.push(`${s.delete} to delete`, `${s.adopt} to adopt`);
  if (s.abandon > 0) parts.push(`${s.abandon} to abandon`);
  const extra: string[] = [];
  if (s.skipped > 0) extra.push(`${s.skipped} skipped`);
  if (s.refused > 0) extra.push(`${s.refused} held`);
  if (errors) extra.push(errors);
  return `Plan: ${parts.join(', ')}${extra.length > 0 ? `; ${extra.join(', ')}` : ''}.`;
}

/** A plan with error diagnostics or held changes cannot be applied as a whole. */
export function isAppliable(plan: Plan): boolean {
  return !hasErrors(plan.diagnostics) && plan.refusals.length === 0;
}

/** Would apply write anything (to the API, or to the inventory for an adoption)? */
export function hasWrites(plan: Plan): boolean {
  return plan.changes.some((c) => isWriteAction(c.action));
}

export function applyRedaction(text: string, options: RenderOptions | undefined): string {
  return options?.redact ? options.redact(text) : text;
}

/** An adoption with nothing to change: apply only records ownership, no API write. */
export function isQuietAdopt(change: Change): boolean {
  return change.action === 'adopt' && change.diffs.length === 0;
}

/** The line that stands for the quiet adoptions (a plan made without the inventory has many). */
export function quietAdoptSentence(count: number): string {
  return `${count} object${count === 1 ? '' : 's'} already match${count === 1 ? 'es' : ''} the files but ${count === 1 ? 'is' : 'are'} not in this inventory: apply adopts ${count === 1 ? 'it' : 'them'} with no API write.`;
}

/** How a renderer marks a command or fingerprint (markdown: a code span) and escapes a sentence. */
interface ApprovalStyle {
  code: (text: string) => string;
  prose: (text: string) => string;
}

const PLAIN: ApprovalStyle = { code: (text) => text, prose: (text) => text };

/** The commands that let exactly the held changes of a plan through. */
export function approveCommands(fingerprint: string, style: ApprovalStyle = PLAIN): string {
  return `${style.code(`wsync apply --approve ${fingerprint}`)} (a daemon: ${style.code(`wsync ctl approve ${fingerprint}`)})`;
}

/** What every plan format says of its held changes' fingerprint and of the approval it was made with. */
export function approvalLines(plan: Plan, style: ApprovalStyle = PLAIN): string[] {
  const lines: string[] = [];
  const { approval, held } = plan;
  if (approval?.released === true) lines.push(`Approved: ${style.code(approval.fingerprint)} lets the held changes through.`);
  if (approval?.released === false) {
    lines.push(`Approval ${style.code(approval.fingerprint)} is void: ${style.prose(safeMessage(approval.why ?? 'the held changes differ'))}.`);
  }
  if (held) {
    const these = held.count === 1 ? 'it' : 'these';
    lines.push(
      `Fingerprint of the ${held.count} held change${held.count === 1 ? '' : 's'}: ${style.code(held.fingerprint)}. ` +
        `To apply exactly ${these}: ${approveCommands(held.fingerprint, style)}.`,
    );
  }
  return lines;
}
