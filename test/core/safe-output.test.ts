// Every category of unsafe text (controls, bidi, zero-width, overlong) through every output a
// person reads: diagnostics, validate, the three plan forms, apply's progress lines, the daemon's
// status page and log lines, and export's warnings (its printing) and the pull-request report.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatApplyEvent } from '../../src/apply/format.js';
import { formatDiagnostic } from '../../src/core/diagnostics.js';
import type { Diagnostic, Plan } from '../../src/core/types.js';
import { prettyMessage } from '../../src/daemon/logger.js';
import { renderStatusPage } from '../../src/daemon/status-page.js';
import { DaemonStatus } from '../../src/daemon/status.js';
import { renderMarkdown, renderText } from '../../src/render/index.js';
import { COMMENT_LIMIT, reportMarkdown, type PullRequestReport } from '../../src/render/pr-comment.js';
import { desiredFromTexts } from '../../src/source/index.js';
import { renderValidation } from '../../src/cli/commands/validate/report.js';
import { desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from '../plan/builders.js';
import { runCli } from '../support/cli.js';
import { startTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-safe-export-');

const LONG = 'L'.repeat(5000);

/** What a hostile name or server message may hold, one category each. */
const CATEGORIES: readonly [string, string][] = [
  ['a line break starting a new line', 'a\nINJECTED ✅ Approved'],
  ['a carriage return', 'a\rINJECTED'],
  ['a terminal escape sequence (C0)', 'a\u001b[2J\u001b]0;pwned\u0007b'],
  ['a C1 control (CSI)', 'a\u009b2Jb'],
  ['DEL', 'a\u007fb'],
  ['a bidi override', 'a\u202eexe.txt'],
  ['a bidi isolate', 'a\u2066b\u2069'],
  ['a zero-width space', 'ad\u200bmin'],
  ['a line separator', 'a\u2028INJECTED'],
  ['an overlong value', LONG],
];

/** Raw characters no output may carry (a newline only as the output's own line structure). */
const RAW = /(?!\n)[\p{Cc}\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** Compact on failure: which raw character, which injected line, whether the long value is whole. */
function expectSafe(output: string): void {
  expect(RAW.exec(output)?.[0]).toBeUndefined();
  expect(output.split('\n').filter((line) => line.trimStart().startsWith('INJECTED'))).toEqual([]);
  expect(output.includes(LONG)).toBe(false);
}

const monitorSpec = { type: 'Threshold', aplQuery: "['http'] | count", operator: 'Above', threshold: 30 };

/** A plan whose keys, ids, diff values, reasons and diagnostics all hold `value`. */
function planWith(value: string): Plan {
  const stale = wire.monitor(`mon_${value}`, `old-${value}`, monitorSpec);
  const made = plan(
    desiredOf(resource('Monitor', `new-${value}`, { ...monitorSpec, description: value }, { file: `${value}.yaml` })),
    liveOf([stale]),
    inventoryOf([owns(stale, `old-${value}`)]),
    policyOf({ prune: true }),
  );
  const diagnostic: Diagnostic = { severity: 'error', code: 'x', file: `${value}.yaml`, line: 2, column: 3, kind: 'Monitor', name: value, message: `unknown "${value}"` };
  const warning: Diagnostic = { ...diagnostic, severity: 'warning' };
  return { ...made, diagnostics: [diagnostic, warning], refusals: [`Monitor "${value}" is refused`] };
}

describe.each(CATEGORIES)('%s', (_, value) => {
  it('is escaped in diagnostics', () => {
    expectSafe(formatDiagnostic({ severity: 'error', code: 'x', file: `${value}.yaml`, line: 1, column: 1, kind: 'Monitor', name: value, message: `unknown field "${value}"` }));
  });

  it('is escaped by validate', () => {
    const yaml = `apiVersion: wsync/v1\nkind: Monitor\nmetadata:\n  name: ${JSON.stringify(value)}\nspec:\n  type: Threshold\n  aplQuery: x\n  ${JSON.stringify(value)}: 1\n`;
    const result = renderValidation(desiredFromTexts([{ path: 'monitors.yaml', text: yaml }], { env: {} }));
    expect(result.exitCode).toBe(1);
    expectSafe(result.output);
  });

  it('is escaped in the text, markdown and verbose plans', () => {
    const made = planWith(value);
    expectSafe(renderText(made, { color: false }));
    expectSafe(renderText(made, { color: false, verbose: true }));
    expectSafe(renderMarkdown(made));
  });

  it("is escaped in apply's progress lines", () => {
    expectSafe(formatApplyEvent({ kind: 'Monitor', key: value, action: 'create', outcome: 'done', id: value, message: value, durationMs: 3 }));
    expectSafe(formatApplyEvent({ kind: 'Monitor', key: value, action: 'update', outcome: 'failed', message: `PUT: 400: ${value}`, durationMs: 3 }));
  });

  it("is escaped on the daemon's status page and in its terminal log lines", () => {
    const status = new DaemonStatus();
    status.revision = value;
    status.record({ startedAt: 't', trigger: 'change', revision: value, result: 'failed', durationMs: 1, created: 0, updated: 0, deleted: 0, failed: 1, drift: 1, message: value });
    status.pendingDrift = [{ kind: 'Monitor', key: value, action: 'update', reason: value }];
    expectSafe(renderStatusPage(status, { dir: value, mode: 'enforce', running: false, nextRetryAt: null }));
    expectSafe(prettyMessage({ msg: 'change', outcome: 'failed', action: 'update', kind: 'Monitor', key: value, id: value, message: value, revision: value }));
    expectSafe(prettyMessage({ msg: 'reconcile', result: 'failed', trigger: 'change', error: value }));
    expectSafe(prettyMessage({ msg: value, detail: value }));
  });
});

describe("export's warnings", () => {
  it('are printed escaped, whatever the live names hold', async () => {
    const emulator = await startTestEmulator();
    const out = await scratch.dir();
    try {
      // Two notifiers per hostile name: the duplicate warning quotes the name.
      const notifiers = CATEGORIES.flatMap(([, value], i) => [0, 1].map((n) => ({ id: `notify_${i}_${n}`, name: value, properties: { email: { emails: ['a@example.com'] } } })));
      await emulator.seed({ notifiers });
      const result = await runCli(['export', join(out, 'tree'), '--kinds', 'Notifier'], { env: emulator.env });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('warning: Notifier');
      expectSafe(result.stderr);
      expectSafe(result.stdout);
    } finally {
      await emulator.close();
    }
  });
});

describe('the pull-request report (the GitHub Action)', () => {
  /** The comment body the Action posts for a run whose steps left `report`. */
  function commentFor(report: PullRequestReport): string {
    return reportMarkdown(report, { limit: COMMENT_LIMIT, marker: '<!-- wsync-plan . -->' }).trimEnd();
  }

  it('fences validate output with a fence longer than any run of backticks in it', () => {
    const injected = 'monitors/a.yaml:1:1: Monitor/x: bad\n````\n### ✅ Approved by the bot\n````';
    const body = commentFor({ commit: 'abcdef0123', validate: { ok: false, output: injected } });
    const lines = body.split('\n');
    const open = lines.findIndex((line) => /^`{3,}$/.test(line));
    const fence = lines[open] ?? '';
    expect(fence.length).toBeGreaterThan(4);
    // The block closes once, at the very end: the heading inside it stays code.
    expect(lines.slice(open + 1).findIndex((line) => line === fence)).toBe(lines.length - open - 2);
    expect(lines.indexOf('### ✅ Approved by the bot')).toBeGreaterThan(open);
  });

  it('fences a failed plan the same way', () => {
    const body = commentFor({ commit: 'abcdef0123', validate: { ok: true, output: '' }, plan: { status: 'failed', output: 'plan: ```\nboom' } });
    expect(body).toContain('````\nplan: ```\nboom\n````');
  });
});
