import { safeMessage, safeText } from '../core/safe-text.js';
import type { Action } from '../core/types.js';
import type { ApplyEvent, ApplyResult } from './types.js';

const PAST: Partial<Record<Action, string>> = {
  create: 'created',
  update: 'updated',
  replace: 'replaced',
  delete: 'deleted',
  adopt: 'adopted',
  abandon: 'abandoned',
};

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** One line per change: `Monitor/checkout-error-rate: created mon_0123 (14ms)`. Holds no secret. */
export function formatApplyEvent(event: ApplyEvent): string {
  const what = `${event.kind}/${safeText(event.key)}`;
  if (event.outcome === 'done') {
    const id = event.id ? ` ${safeText(event.id)}` : '';
    const note = event.message ? `; ${safeMessage(event.message)}` : '';
    return `${what}: ${PAST[event.action] ?? event.action}${id}${note} (${duration(event.durationMs)})`;
  }
  return `${what}: ${event.action} ${event.outcome}: ${safeMessage(event.message ?? 'no reason given')}`;
}

/** `Apply complete: 3 created, 1 updated, 0 deleted, 2 adopted, 0 failed, 0 skipped in 1.2s`. */
export function formatApplySummary(result: ApplyResult): string {
  const head = result.aborted ? 'Apply stopped' : result.failed > 0 ? 'Apply finished with failures' : 'Apply complete';
  const parts = [
    `${result.created} created`,
    `${result.updated} updated`,
    ...(result.replaced > 0 ? [`${result.replaced} replaced`] : []),
    `${result.deleted} deleted`,
    `${result.adopted} adopted`,
    ...(result.abandoned > 0 ? [`${result.abandoned} abandoned`] : []),
    `${result.failed} failed`,
    `${result.skipped} skipped`,
  ];
  return `${head}: ${parts.join(', ')} in ${(result.durationMs / 1000).toFixed(1)}s`;
}
