import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/index.js';
import { emptyPlan, mixedPlan, refusedPlan } from './sample.js';

const ESC = `${String.fromCharCode(27)}[`;
const ANSI_CODE = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g');

describe('renderText', () => {
  const text = renderText(mixedPlan(), { color: false });

  it('prints one terraform-like line per change, with field-level before -> after', () => {
    expect(text).toContain('  + create  Monitor/new\n');
    expect(text).toContain('  ~ update  Monitor/m (id mon_1)\n        threshold: 25 -> 30\n');
    expect(text).toContain('-/+ replace ApiToken/ci (id tok_1)\n        # API tokens are immutable: regenerate with the new spec; the old one stays valid for 24h after apply\n        description: "CI" -> "CI v2"\n');
    expect(text).toContain('  - delete  Notifier/old (id notify_old)\n        # owned by wsync and no longer declared\n');
    expect(text).toContain('  > adopt   Role/sre (id role_1)\n        description: "by hand" -> "Site reliability"\n');
    expect(text).toContain('  ? skipped VirtualField/http/dur (id vfld_1)\n        # observe mode: drift reported, not applied\n');
    expect(text).toContain('        properties.slack.slackUrl: (sensitive value changed)\n');
  });

  it('folds adoptions with nothing to change into one line; --verbose lists them', () => {
    const plan = mixedPlan();
    const quiet = (key: string) => ({ kind: 'Notifier' as const, key, name: key, action: 'adopt' as const, id: `notify_${key}`, diffs: [], dependsOn: [], level: 0, owned: false });
    plan.changes.push(quiet('a'), quiet('b'));
    plan.summary.adopt += 2;
    const folded = renderText(plan, { color: false });
    expect(folded).not.toContain('Notifier/a');
    expect(folded).toContain('  > 2 objects already match the files but are not in this inventory: apply adopts them with no API write. (--verbose lists them)\n');
    expect(folded).toContain('  > adopt   Role/sre (id role_1)');
    const listed = renderText(plan, { color: false, verbose: true });
    expect(listed).toContain('  > adopt   Notifier/a (id notify_a)');
    expect(listed).not.toContain('already match the files');
  });

  it('shows a create with the values the file sets', () => {
    expect(text).toMatch(/\+ create {2}Monitor\/new\n(?: {8}.*\n)*? {8}threshold: 30\n/);
  });

  it('ends with the counts, errors included', () => {
    expect(text.trimEnd().split('\n').at(-1)).toBe('Plan: 2 to create, 2 to update, 1 to replace, 1 to delete, 1 to adopt; 2 skipped, 1 error. 1 unchanged.');
  });

  it('puts errors and warnings first, prominently', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('Errors (1): the plan cannot be applied');
    expect(lines[1]).toBe('  error: monitors/broken.yaml:12:1: Monitor/broken: spec.notifiers[0]: no Notifier named "missing" is declared or exists live');
    expect(text).toContain('Warnings (1)\n  users.yaml:1:1: User/twin@example.com: warning: ambiguous: 2 live objects');
  });

  it('prints refusals before the changes and marks refused deletes', () => {
    const refused = renderText(refusedPlan(), { color: false });
    expect(refused.startsWith('Held: apply applies the rest of the plan and holds these changes\n  ! Refusing to delete 2 of 3 live Monitor objects (67%)')).toBe(true);
    expect(refused).toContain('  ! held    Monitor/m1 (id mon_1)\n        # owned by wsync and no longer declared; held: over the delete budget\n');
  });

  it('hides unchanged objects unless verbose, which also says where each is declared', () => {
    expect(text).not.toContain('Monitor/same');
    const verbose = renderText(mixedPlan(), { color: false, verbose: true });
    expect(verbose).toContain('  = noop    Monitor/same (id mon_2)\n');
    expect(verbose).toContain('        # declared in monitors/m.yaml:5\n');
  });

  it('says so when nothing differs', () => {
    expect(renderText(emptyPlan(), { color: false })).toBe('No changes. The workspace matches the files.\n');
  });

  it('uses ANSI colours only when asked', () => {
    expect(text).not.toContain(ESC);
    const coloured = renderText(mixedPlan(), { color: true });
    expect(coloured).toContain(`${ESC}32m  + create `);
    expect(coloured).toContain(`${ESC}31m  - delete `);
    expect(coloured.replace(ANSI_CODE, '')).toBe(text);
  });

  it('applies the redactor to the whole output', () => {
    const out = renderText(mixedPlan(), { color: false, redact: (s) => s.split('hooks').join('[x]') });
    expect(out).not.toContain('hooks');
  });
});
