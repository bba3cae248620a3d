// The pull-request report of a tree with several environments (#25 item 5): one comment, a
// section per environment, each with its own plan or its own failure. A long plan of one
// environment never pushes the others out: each section is cut to its share of the room.
import { codeBlock, truncateMarkdown, type PlanOutcome } from './pr-comment.js';

export interface EnvironmentPlan {
  name: string;
  plan: PlanOutcome;
}

/** The section's heading word and its body. */
function section(entry: EnvironmentPlan): { heading: string; body: string } {
  const { plan } = entry;
  if (plan.status === 'skipped') return { heading: `skipped: ${plan.reason}`, body: '' };
  if (plan.status === 'failed') return { heading: ':x: plan failed', body: codeBlock(plan.output.trim() || 'no output') };
  const body =
    plan.format === 'markdown'
      ? plan.output.replace(/^### wsync plan\n+/, '').trim()
      : codeBlock(plan.output.trim(), plan.format === 'json' ? 'json' : '');
  return { heading: plan.changes ? 'changes' : 'no changes', body };
}

/** What the title says of all of them: changes where, failures where. */
export function environmentsTitle(entries: readonly EnvironmentPlan[]): string {
  const names = (pick: (p: PlanOutcome) => boolean): string[] => entries.filter((e) => pick(e.plan)).map((e) => e.name);
  const failed = names((p) => p.status === 'failed');
  const changed = names((p) => p.status === 'planned' && p.changes);
  const parts: string[] = [];
  if (failed.length > 0) parts.push(`failed in ${failed.join(', ')}`);
  parts.push(changed.length > 0 ? `changes in ${changed.join(', ')}` : 'no changes');
  return `${failed.length > 0 ? ':x: ' : ''}wsync plan, ${entries.length} environments: ${parts.join('; ')}`;
}

/**
 * The sections, together within `room` characters: sections that fit their equal share stay
 * whole, and what they leave is shared among the rest (each cut between blocks, and saying so).
 */
export function environmentSections(entries: readonly EnvironmentPlan[], room: number, elsewhere: string | undefined): string {
  const parts = entries.map((entry) => {
    const { heading, body } = section(entry);
    return { top: `#### Environment ${entry.name}: ${heading}\n\n`, body };
  });
  const budgets = new Map<number, number>();
  let left = room - parts.reduce((n, p) => n + p.top.length + 1, 0);
  let open = parts.map((_, i) => i);
  // Water-filling: settle every section smaller than an equal share, then share again.
  for (;;) {
    const share = Math.floor(Math.max(0, left) / Math.max(1, open.length));
    const small = open.filter((i) => (parts[i]?.body.length ?? 0) + 1 <= share);
    if (small.length === 0) break;
    for (const i of small) {
      const cost = (parts[i]?.body.length ?? 0) + 1;
      budgets.set(i, cost);
      left -= cost;
    }
    open = open.filter((i) => !small.includes(i));
  }
  const share = Math.floor(Math.max(0, left) / Math.max(1, open.length));
  for (const i of open) budgets.set(i, share);
  return parts
    .map((p, i) => `${p.top}${p.body === '' ? '' : `${truncateMarkdown(p.body, budgets.get(i) ?? 0, elsewhere)}\n`}`)
    .join('\n');
}
