import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/plan/index.js';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { desiredFromTexts } from '../../src/source/index.js';
import { afterPull, ENV, lineChanges, pullOf, treeWorkspace } from './fixtures.js';

const MONITORS = `# yaml-language-server: $schema=../schemas/monitor.json
# The checkout monitors: paged at night.
apiVersion: wsync/v1
kind: Monitor
metadata:
  name: errors   # the main one
spec:
  type: Threshold
  description: 'Checkout answers 5xx'
  aplQuery: "['checkout'] | where status >= 500 | summarize count() by bin_auto(_time)"
  operator: Above
  threshold: 25 # per ten minutes
  intervalMinutes: 5
  rangeMinutes: 10
  notifiers: [slack]
---
apiVersion: wsync/v1
kind: Monitor
metadata:
  name: latency
spec:
  type: Threshold
  aplQuery: "['checkout'] | summarize count()"
  operator: Above
  threshold: 3
  notifiers:
    - slack
`;

const NOTIFIERS = `apiVersion: wsync/v1
kind: Notifier
metadata:
  name: slack
spec:
  properties:
    slack:
      slackUrl: \${env:SLACK_URL}
---
apiVersion: wsync/v1
kind: Notifier
metadata:
  name: mail
spec:
  properties:
    email:
      emails: [a@example.com]
`;

const tree = (): ReturnType<typeof treeWorkspace> => treeWorkspace({ 'monitors/checkout.yaml': MONITORS, 'notifiers/all.yaml': NOTIFIERS });

describe('planPull', () => {
  it('changes nothing when the workspace says what the files say', () => {
    const plan = pullOf(tree());
    expect(plan.changes).toEqual([]);
    expect(plan.reports).toEqual([]);
  });

  it('edits a changed value on its line, keeping the comment after it, and nothing else', () => {
    const ws = tree();
    ws.raw('Monitor', 'errors').threshold = 40;
    const plan = pullOf(ws);
    expect(plan.changes.map((c) => c.path)).toEqual(['monitors/checkout.yaml']);
    expect(lineChanges(MONITORS, afterPull(ws, plan).get('monitors/checkout.yaml') ?? '')).toEqual([
      '-  threshold: 25 # per ten minutes',
      '+  threshold: 40 # per ten minutes',
    ]);
    expect(plan.pulled).toEqual([{ kind: 'Monitor', key: 'errors', fields: ['threshold'] }]);
  });

  it('keeps the quoting style of a string and the flow or block style of a list', () => {
    const ws = tree();
    const errors = ws.raw('Monitor', 'errors');
    errors.description = "Checkout's 5xx";
    errors.notifierIds = [ws.idOf('Notifier', 'slack'), ws.idOf('Notifier', 'mail')];
    ws.raw('Monitor', 'latency').notifierIds = [ws.idOf('Notifier', 'slack'), ws.idOf('Notifier', 'mail')];
    const after = afterPull(ws, pullOf(ws)).get('monitors/checkout.yaml') ?? '';
    expect(lineChanges(MONITORS, after)).toEqual([
      "-  description: 'Checkout answers 5xx'",
      '-  notifiers: [slack]',
      "+  description: 'Checkout''s 5xx'",
      '+  notifiers: [slack, mail]',
      '+    - mail',
    ]);
  });

  it('adds a field set in the workspace at the end of its mapping and removes one cleared there', () => {
    const ws = tree();
    ws.raw('Monitor', 'latency').description = 'p95 over 3 s';
    delete ws.raw('Monitor', 'errors').description;
    const after = afterPull(ws, pullOf(ws)).get('monitors/checkout.yaml') ?? '';
    expect(lineChanges(MONITORS, after)).toEqual(["-  description: 'Checkout answers 5xx'", '+  description: p95 over 3 s']);
    expect(after.indexOf('description: p95 over 3 s')).toBeGreaterThan(after.indexOf('    - slack'));
  });

  it.each([
    ['recorded at the last apply', true],
    ['never recorded', false],
  ])('never writes a secret (hash %s) or a value read through ${env:}: reported instead', (_, recordSecrets) => {
    const ws = treeWorkspace(
      {
        'notifiers/all.yaml': NOTIFIERS,
        'monitors/m.yaml': MONITORS.replace("description: 'Checkout answers 5xx'", 'description: ${env:DESCRIPTION}'),
      },
      { recordSecrets },
    );
    (ws.raw('Notifier', 'slack').properties as { slack: { slackUrl: string } }).slack.slackUrl = 'https://hooks.slack.example/other';
    ws.raw('Monitor', 'errors').description = 'changed in the UI';
    const plan = pullOf(ws);
    expect(plan.changes).toEqual([]);
    expect(plan.reports.map((r) => `${r.kind}/${r.key} ${r.what} ${r.field}`).sort()).toEqual([
      'Monitor/errors interpolated description',
      'Notifier/slack secret properties.slack.slackUrl',
    ]);
    // What is printed or written (secretValues is kept only to scrub output with).
    const shown = JSON.stringify({ changes: plan.changes, reports: plan.reports, pulled: plan.pulled });
    expect(shown).not.toContain('hooks.slack.example/other');
    expect(shown).not.toContain(ENV.SLACK_URL);
  });

  it('reports a field changed both in the workspace and since the base as a conflict, and keeps a local edit not applied yet', () => {
    const base = treeWorkspace({ 'monitors/checkout.yaml': MONITORS, 'notifiers/all.yaml': NOTIFIERS }).desired;
    const ws = treeWorkspace({ 'monitors/checkout.yaml': MONITORS.replace('threshold: 25', 'threshold: 30').replace('threshold: 3\n', 'threshold: 4\n'), 'notifiers/all.yaml': NOTIFIERS });
    ws.raw('Monitor', 'errors').threshold = 40;
    ws.raw('Monitor', 'latency').threshold = 3;
    const plan = pullOf(ws, { base });
    expect(plan.changes).toEqual([]);
    expect(plan.reports.map((r) => `${r.key} ${r.what} ${r.field}`)).toEqual(['errors conflict threshold', 'latency local-edit threshold']);
  });

  it('reports an owned object deleted in the workspace, and takes its document out with prune', () => {
    const ws = tree();
    ws.live.objects.Monitor = ws.live.objects.Monitor?.filter((o) => o.id !== ws.idOf('Monitor', 'errors'));
    const reported = pullOf(ws);
    expect(reported.changes).toEqual([]);
    expect(reported.reports.map((r) => `${r.key} ${r.what}`)).toEqual(['errors deleted']);
    const pruned = pullOf(ws, { prune: true });
    const after = afterPull(ws, pruned).get('monitors/checkout.yaml') ?? '';
    const header = '# yaml-language-server: $schema=../schemas/monitor.json\n# The checkout monitors: paged at night.\n';
    expect(after).toBe(header + MONITORS.slice(MONITORS.indexOf('---\n') + 4));
  });

  it('with prune takes out a dashboard deleted in the workspace: its YAML file, the only document there, and its .json', () => {
    const board = { name: 'Board', charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: 'qr-now-1h', timeWindowEnd: 'qr-now' };
    const ws = treeWorkspace({
      ...Object.fromEntries(tree().files),
      'dashboards/board.yaml': 'apiVersion: wsync/v1\nkind: Dashboard\nmetadata:\n  name: board\nspec:\n  file: board.json\n',
      'dashboards/board.json': `${JSON.stringify(board, null, 2)}\n`,
    });
    ws.live.objects.Dashboard = [];
    const plan = pullOf(ws, { prune: true });
    expect(plan.changes.map((c) => [c.path, c.after === undefined])).toEqual([
      ['dashboards/board.json', true],
      ['dashboards/board.yaml', true],
    ]);
    expect(plan.reports.map((r) => `${r.kind}/${r.key} ${r.what}`)).toEqual(['Dashboard/board pruned']);
  });

  it('writes a new live object as a new file where export would, to be adopted; a selection of another kind leaves it', () => {
    const ws = tree();
    (ws.live.objects.Notifier ??= []).push({ kind: 'Notifier', id: 'notifier-new', raw: { id: 'notifier-new', name: 'ops-mail', properties: { email: { emails: ['ops@example.com'] } } } });
    const plan = pullOf(ws);
    expect(plan.changes.map((c) => [c.path, c.before === undefined])).toEqual([['notifiers/ops-mail.yaml', true]]);
    expect(plan.changes[0]?.after).toContain('# yaml-language-server: $schema=../schemas/notifier.json');
    expect(plan.adopt.map((o) => `${o.kind}/${o.key} ${o.id} ${o.path}`)).toEqual(['Notifier/ops-mail notifier-new notifiers/ops-mail.yaml']);
    expect(pullOf(ws, { selection: { kinds: ['Monitor'], targets: [] } }).changes).toEqual([]);
  });

  it('names the declared objects a new one points at, as export does', () => {
    const ws = tree();
    const raw = { id: 'monitor-new', name: 'new-errors', type: 'Threshold', aplQuery: "['checkout'] | count", operator: 'Above', threshold: 9, notifierIds: [ws.idOf('Notifier', 'mail')] };
    (ws.live.objects.Monitor ??= []).push({ kind: 'Monitor', id: 'monitor-new', raw });
    const plan = pullOf(ws);
    expect(plan.changes.map((c) => c.path)).toEqual(['monitors/new-errors.yaml']);
    expect(plan.changes[0]?.after).toContain('notifiers:\n    - mail\n');
  });

  it('writes `${` from the workspace as text (`$${`), never as a placeholder that would read a variable', () => {
    const ws = tree();
    ws.raw('Monitor', 'errors').description = 'costs ${env:HOME} a lot';
    const files = afterPull(ws, pullOf(ws));
    expect(lineChanges(MONITORS, files.get('monitors/checkout.yaml') ?? '')).toEqual(["-  description: 'Checkout answers 5xx'", "+  description: 'costs $${env:HOME} a lot'"]);
    const desired = desiredFromTexts([...files].map(([path, text]) => ({ path, text })), { env: ENV });
    expect(desired.diagnostics).toEqual([]);
    expect(planChanges(desired, ws.live, ws.inventory, DEFAULT_POLICY).changes.filter((c) => c.action !== 'noop')).toEqual([]);
  });

  it('leaves the tree planning "no changes" after a pull', () => {
    const ws = tree();
    ws.raw('Monitor', 'errors').threshold = 41;
    ws.raw('Monitor', 'latency').description = 'new: text, with [brackets] and # hash';
    ws.raw('Notifier', 'mail').properties = { email: { emails: ['a@example.com', 'b@example.com'] } };
    const files = afterPull(ws, pullOf(ws));
    const desired = desiredFromTexts([...files].map(([path, text]) => ({ path, text })), { env: ENV });
    expect(desired.diagnostics).toEqual([]);
    const plan = planChanges(desired, ws.live, ws.inventory, DEFAULT_POLICY);
    expect(plan.changes.filter((c) => c.action !== 'noop')).toEqual([]);
  });
});
