import { safeMessage } from '../core/safe-text.js';
import type { DaemonStatus, ReconcileRecord } from './status.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML-escaped, with controls, bidi controls and zero-width characters escaped visibly too. */
export function escapeHtml(text: string): string {
  return safeMessage(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export interface StatusPageInfo {
  dir: string;
  mode: 'enforce' | 'observe';
  /** The scheduler's view: a reconcile running, one queued, the next retry. */
  running: boolean;
  nextRetryAt: number | null;
}

const MAX_DRIFT_ROWS = 200;

function cell(text: string | number | null | undefined): string {
  return `<td>${escapeHtml(text === null || text === undefined ? '–' : String(text))}</td>`;
}

function historyRow(r: ReconcileRecord): string {
  const cls = r.result === 'applied' || r.result === 'planned' ? 'ok' : 'bad';
  return (
    `<tr class="${cls}">` +
    cell(r.startedAt) +
    cell(r.trigger) +
    cell(r.revision) +
    cell(r.suspended ? `${r.result} (suspended)` : r.frozen ? `${r.result} (frozen)` : r.result) +
    cell(r.durationMs) +
    cell(r.created) +
    cell(r.updated) +
    cell(r.deleted) +
    cell(r.failed) +
    cell(r.drift) +
    cell(r.message ?? '') +
    '</tr>'
  );
}

/** The freeze windows, and the one now falls in. */
function freezeText(status: DaemonStatus): string {
  const freeze = status.freeze;
  if (freeze === null) return 'no windows';
  const windows = freeze.windows.map((w) => `<code>${escapeHtml(w)}</code>`).join(', ');
  if (freeze.active === null) return `not now (windows: ${windows})`;
  const { window, until } = freeze.active;
  return `yes, until ${escapeHtml(until)} (<code>${escapeHtml(window)}</code>): reconciles plan and report, nothing is written (<code>wsync ctl reconcile --override-freeze</code> writes once)`;
}

/** The fingerprint of the held changes and the command that approves exactly them, or the approval waiting to be used. */
function approveHint(status: DaemonStatus): string {
  const parts: string[] = [];
  if (status.heldFingerprint !== undefined) parts.push(`<br>approve exactly these: <code>wsync ctl approve ${escapeHtml(status.heldFingerprint)}</code>`);
  if (status.approval !== null) parts.push(`<br>approved: <code>${escapeHtml(status.approval.fingerprint)}</code> (${escapeHtml(status.approval.at)}), applied by the next reconcile that writes`);
  return parts.join('');
}

/** One workspace's part of the page: its settings and state, pending drift, recent reconciles. */
export function renderStatusSection(status: DaemonStatus, info: StatusPageInfo): string {
  const last = status.last;
  const drift = status.pendingDrift;
  const driftRows = drift
    .slice(0, MAX_DRIFT_ROWS)
    .map((d) => `<tr>${cell(d.kind)}${cell(d.key)}${cell(d.action)}${cell(d.reason ?? '')}</tr>`)
    .join('\n');
  const more = drift.length > MAX_DRIFT_ROWS ? `<p>… and ${drift.length - MAX_DRIFT_ROWS} more.</p>` : '';
  const retry = info.nextRetryAt !== null ? new Date(info.nextRetryAt).toISOString() : null;
  return `<dl>
<dt>Directory</dt><dd><code>${escapeHtml(info.dir)}</code></dd>
<dt>Revision</dt><dd id="revision"><code>${escapeHtml(status.revision ?? '–')}</code></dd>
<dt>Mode</dt><dd>${escapeHtml(info.mode)}</dd>
<dt>Suspended</dt><dd id="suspended">${status.suspendedSince === null ? 'no' : `yes, since ${escapeHtml(status.suspendedSince)}: reconciles plan and report drift, nothing is written (<code>wsync ctl resume</code>)`}</dd>
<dt>Freeze</dt><dd id="freeze">${freezeText(status)}</dd>
<dt>Ready</dt><dd id="ready">${status.ready ? 'yes' : 'no'}</dd>
<dt>Held</dt><dd id="held">${escapeHtml(status.degraded ?? 'none')}${status.held.map((h) => `<br><code>${escapeHtml(`${h.kind}/${h.key}`)}</code>: ${escapeHtml(h.reason ?? '')}`).join('')}${approveHint(status)}</dd>
<dt>Last result</dt><dd id="last-result">${escapeHtml(last ? `${last.result} (${last.trigger}, ${last.startedAt})` : 'none yet')}</dd>
<dt>Last success</dt><dd>${escapeHtml(status.lastSuccessAt ?? 'none yet')}</dd>
<dt>Reconciling now</dt><dd>${info.running ? 'yes' : 'no'}</dd>
<dt>Next retry</dt><dd>${escapeHtml(retry ?? '–')}</dd>
<dt>Started</dt><dd>${escapeHtml(status.startedAt)}</dd>
</dl>
<h2>Pending drift (<span id="drift-count">${drift.length}</span>)</h2>
${drift.length === 0 ? '<p>None: the workspace matches the files.</p>' : `<table>\n<tr><th>kind</th><th>key</th><th>action</th><th>reason</th></tr>\n${driftRows}\n</table>${more}`}
<h2>Last ${status.history.length} reconciles</h2>
<table id="history">
<tr><th>started</th><th>trigger</th><th>revision</th><th>result</th><th>ms</th><th>created</th><th>updated</th><th>deleted</th><th>failed</th><th>drift</th><th>message</th></tr>
${status.history.map(historyRow).join('\n')}
</table>
`;
}

/** The document around one or more sections (a daemon that syncs several environments shows one each). */
export function statusPageDocument(body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="10">
<title>wsync</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
tr.bad td { background: #fde8e8; }
dt { font-weight: 600; float: left; clear: left; width: 11rem; }
dd { margin: 0 0 .2rem 11rem; }
code { font-family: ui-monospace, monospace; }
</style>
</head>
<body>
${body}<p><a href="/metrics">metrics</a> · <a href="/healthz">healthz</a> · <a href="/readyz">readyz</a></p>
</body>
</html>
`;
}

/** The `/` page: plain HTML, no scripts, refreshes itself every 10 seconds. */
export function renderStatusPage(status: DaemonStatus, info: StatusPageInfo): string {
  return statusPageDocument(`<h1>wsync</h1>\n${renderStatusSection(status, info)}`);
}
