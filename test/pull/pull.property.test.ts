// Properties of pull over generated trees (comments, anchors, merge keys, flow and block styles,
// every quoting style): pulling an unchanged workspace changes no byte; pulling a change made in
// the workspace keeps every comment and leaves a tree that plans "no changes".
import fc from 'fast-check';
import { Lexer, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { planChanges } from '../../src/plan/index.js';
import { desiredFromTexts } from '../../src/source/index.js';
import { afterPull, ENV, pullOf, treeWorkspace } from './fixtures.js';

type Style = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE';
const style = fc.constantFrom<Style>('PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE');
const words = fc.array(fc.stringMatching(/^[A-Za-z0-9'":#,[\]{}|>*&!%@`-]{1,8}$/), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const comment = fc.option(fc.stringMatching(/^[a-z ]{1,20}$/).map((c) => ` # ${c}`), { nil: '' });

function scalar(value: string, how: Style): string {
  return stringify(value, { defaultStringType: how, defaultKeyType: 'PLAIN', lineWidth: 0 }).trimEnd();
}

const monitor = (name: string, notifiers: string[]) =>
  fc
    .record({
      merge: fc.constantFrom('none', 'flow', 'block'),
      anchorDescription: fc.boolean(),
      description: words,
      descriptionStyle: style,
      query: words,
      queryStyle: style,
      threshold: fc.integer({ min: -100, max: 100 }),
      notifiers: fc.subarray(notifiers, { minLength: 1 }),
      listStyle: fc.constantFrom('flow', 'block'),
      comments: fc.array(comment, { minLength: 6, maxLength: 6 }),
    })
    .map((m) => {
      const c = m.comments;
      const lines = [`# monitor ${name}`, 'apiVersion: wsync/v1', 'kind: Monitor', 'metadata:', `  name: ${name}${c[0]}`, `spec:${c[1]}`];
      if (m.merge === 'flow') lines.push(`  <<: {type: Threshold, operator: Above}${c[2]}`);
      else if (m.merge === 'block') lines.push(`  <<:${c[2]}`, '    type: Threshold', '    operator: Above');
      else lines.push(`  type: Threshold${c[2]}`, '  operator: Above');
      lines.push(`  description: ${m.anchorDescription ? '&d ' : ''}${scalar(m.description, m.descriptionStyle)}${c[3]}`);
      // An anchor no alias uses is a warning: the query reads the description's.
      lines.push(`  aplQuery: ${m.anchorDescription ? '*d' : scalar(m.query, m.queryStyle)}`);
      lines.push(`  threshold: ${m.threshold}${c[4]}`);
      if (m.listStyle === 'flow') lines.push(`  notifiers: [${m.notifiers.join(', ')}]${c[5]}`);
      else lines.push(`  notifiers:${c[5]}`, ...m.notifiers.map((n) => `    - ${n}`));
      return `${lines.join('\n')}\n`;
    });

const notifier = (name: string) =>
  fc.record({ emails: fc.uniqueArray(fc.constantFrom('a@example.com', 'b@example.com', 'c@example.com'), { minLength: 1 }), flow: fc.boolean() }).map(
    (n) =>
      `apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: ${name}\nspec:\n  properties:\n    email:\n      emails: ${
        n.flow ? `[${n.emails.join(', ')}]` : `\n${n.emails.map((e) => `        - ${e}`).join('\n')}`
      }\n`,
  );

const tree = fc
  .record({ monitors: fc.uniqueArray(fc.stringMatching(/^m-[a-z]{1,6}$/), { minLength: 1, maxLength: 3 }), layout: fc.constantFrom('one', 'many') })
  .chain(({ monitors, layout }) =>
    fc
      .record({
        monitors: fc.tuple(...monitors.map((name) => monitor(name, ['n-one', 'n-two']))),
        notifiers: fc.tuple(notifier('n-one'), notifier('n-two')),
      })
      .map((docs): Record<string, string> => {
        if (layout === 'one') return { 'all.yaml': [...docs.notifiers, ...docs.monitors].join('---\n') };
        return { 'notifiers/all.yaml': docs.notifiers.join('---\n'), ...Object.fromEntries(monitors.map((name, i) => [`monitors/${name}.yaml`, docs.monitors[i] as string])) };
      }),
  );

/** The comments of a YAML text, as its lexer reads them (a `#` inside a quoted value is none). */
const comments = (text: string): string[] => [...new Lexer().lex(text)].filter((token) => token.startsWith('#'));

describe('pull (property)', () => {
  it('pulling an unchanged workspace changes no byte', () => {
    fc.assert(
      fc.property(tree, (files) => {
        const plan = pullOf(treeWorkspace(files));
        expect(plan.changes).toEqual([]);
        expect(plan.reports).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('pulling a change keeps every comment and plans "no changes" afterwards', () => {
    const change = fc.record({ which: fc.nat(), threshold: fc.integer({ min: -100, max: 100 }), description: words, notifiers: fc.subarray(['n-one', 'n-two'], { minLength: 1 }), field: fc.constantFrom('threshold', 'description', 'notifiers') });
    fc.assert(
      fc.property(tree, change, (files, c) => {
        const ws = treeWorkspace(files);
        const monitors = ws.live.objects.Monitor ?? [];
        const raw = monitors[c.which % monitors.length]?.raw as Record<string, unknown>;
        if (c.field === 'threshold') raw.threshold = c.threshold;
        else if (c.field === 'description') raw.description = c.description;
        else raw.notifierIds = c.notifiers.map((n) => ws.idOf('Notifier', n));
        const plan = pullOf(ws);
        // A value its anchor shares with another field is not changed for both: refused, said, nothing written.
        const refused = plan.reports.filter((r) => r.what === 'refused');
        for (const r of refused) expect(r.message).toContain('anchor');
        expect(plan.reports.filter((r) => r.what !== 'override' && r.what !== 'refused')).toEqual([]);
        const after = afterPull(ws, plan);
        for (const [path, text] of ws.files) expect(comments(after.get(path) ?? '')).toEqual(comments(text));
        const desired = desiredFromTexts([...after].map(([path, text]) => ({ path, text })), { env: ENV });
        expect(desired.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const next = planChanges(desired, ws.live, ws.inventory, DEFAULT_POLICY);
        const left = refused.map((r) => `${r.kind}/${r.key}`);
        expect(next.changes.filter((x) => x.action !== 'noop').map((x) => `${x.kind}/${x.key}`)).toEqual(left);
      }),
      { numRuns: 60 },
    );
  });
});
