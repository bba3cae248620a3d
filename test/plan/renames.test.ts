import { describe, expect, it } from 'vitest';
import { changeOf, desiredOf, inventoryOf, liveOf, owns, plan, policyOf, resource, wire } from './builders.js';

const EMAIL = { email: { emails: ['oncall@example.com'] } };
const old = wire.notifier('ntf_old', 'old-email', EMAIL);
const declared = (name: string, annotations?: Record<string, string>, properties = EMAIL) =>
  resource('Notifier', name, { properties }, {
    annotations: annotations ?? {},
    line: 3,
    locations: { '/metadata/annotations/wsync~1renamed-from': { file: 'notifiers.yaml', line: 6, column: 27 } },
    file: 'notifiers.yaml',
  });
const RENAMED = { 'wsync/renamed-from': 'old-email' };

describe('an owned object no longer declared', () => {
  it('is always in the plan, kept without --prune, and a create with the same fields says "renamed?"', () => {
    const p = plan(desiredOf(declared('team-email')), liveOf([old]), inventoryOf([owns(old, 'old-email')]));
    expect(changeOf(p, 'Notifier', 'old-email')).toMatchObject({
      action: 'skipped',
      id: 'ntf_old',
      owned: true,
      renameCandidate: 'Notifier/team-email',
      reason: 'no longer declared: kept, --prune deletes it; renamed? Notifier/team-email is declared with the same fields',
    });
    const create = changeOf(p, 'Notifier', 'team-email');
    expect(create).toMatchObject({ action: 'create', renameCandidate: 'Notifier/old-email' });
    expect(create.reason).toBe(
      'renamed? Notifier/old-email (id ntf_old), owned and no longer declared, has the same fields: ' +
        'to rename it in place (same id, an update), annotate this declaration "wsync/renamed-from: old-email"',
    );
  });

  it('with --prune it is deleted, and the rename is still suggested', () => {
    const p = plan(desiredOf(declared('team-email')), liveOf([old]), inventoryOf([owns(old, 'old-email')]), policyOf({ prune: true }));
    expect(changeOf(p, 'Notifier', 'old-email')).toMatchObject({ action: 'delete', renameCandidate: 'Notifier/team-email' });
    expect(changeOf(p, 'Notifier', 'team-email').reason).toContain('renamed? Notifier/old-email');
  });

  it('a create whose fields differ is no rename', () => {
    const other = { email: { emails: ['someone@example.com'] } };
    const p = plan(desiredOf(declared('team-email', {}, other)), liveOf([old]), inventoryOf([owns(old, 'old-email')]));
    expect(changeOf(p, 'Notifier', 'team-email').reason).toBeUndefined();
    expect(changeOf(p, 'Notifier', 'old-email').renameCandidate).toBeUndefined();
  });

  it('an object wsync does not own is no rename, and not shown', () => {
    const p = plan(desiredOf(declared('team-email')), liveOf([old]), inventoryOf());
    expect(p.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['create team-email']);
  });

  it('a kind whose name is its id cannot be renamed in place: the plan says so', () => {
    const view = wire.view('errors-old', { aplQuery: "['http'] | where status >= 500", datasets: ['http'] });
    const declaredView = resource('View', 'errors', { aplQuery: "['http'] | where status >= 500", datasets: ['http'] });
    const p = plan(desiredOf(declaredView), liveOf([view]), inventoryOf([owns(view, 'errors-old')]), policyOf({ prune: true, maxDeleteRatio: 1, allowEmpty: true }));
    expect(changeOf(p, 'View', 'errors').reason).toBe(
      'renamed? View/errors-old (id errors-old), owned and no longer declared, has the same fields: ' +
        'View objects cannot be renamed in place, so apply creates this one and deletes the old one',
    );
  });
});

describe('wsync/renamed-from', () => {
  it('renames the owned object in place: an update of its id, the old key not undeclared', () => {
    const p = plan(desiredOf(declared('team-email', RENAMED)), liveOf([old]), inventoryOf([owns(old, 'old-email')]));
    expect(p.changes).toEqual([
      expect.objectContaining({
        kind: 'Notifier',
        key: 'team-email',
        action: 'update',
        id: 'ntf_old',
        owned: true,
        renamedFrom: 'old-email',
        diffs: [{ path: 'metadata.name', before: 'old-email', after: 'team-email' }],
        reason: 'renamed from "old-email" in place (wsync/renamed-from): an update that keeps id ntf_old; the inventory moves to the new name',
      }),
    ]);
    expect(p.diagnostics).toEqual([]);
    expect(p.summary).toMatchObject({ update: 1, create: 0, delete: 0 });
  });

  it('carries the other changes of the declaration in the same update', () => {
    const other = { email: { emails: ['team@example.com'] } };
    const p = plan(desiredOf(declared('team-email', RENAMED, other)), liveOf([old]), inventoryOf([owns(old, 'old-email')]), policyOf({ prune: true }));
    const change = changeOf(p, 'Notifier', 'team-email');
    expect(change).toMatchObject({ action: 'update', id: 'ntf_old' });
    expect(change.diffs.map((d) => d.path)).toEqual(['metadata.name', 'properties.email.emails']);
    expect(p.summary.delete).toBe(0);
  });

  it('once renamed (the new name live), the annotation does nothing', () => {
    const renamed = wire.notifier('ntf_old', 'team-email', EMAIL);
    const p = plan(desiredOf(declared('team-email', RENAMED)), liveOf([renamed]), inventoryOf([owns(renamed, 'team-email')]));
    expect(p.changes).toEqual([expect.objectContaining({ action: 'noop', id: 'ntf_old' })]);
    expect(p.diagnostics).toEqual([]);
  });

  it.each([
    ['names nothing live', [], [], 'wsync/renamed-from: "old-email" names no live Notifier: nothing to rename. Remove the annotation to create Notifier "team-email" as a new object'],
    [
      'names an object wsync does not own',
      [old],
      [],
      'wsync/renamed-from: "old-email": Notifier "old-email" (id ntf_old) is not owned by wsync, and only what wsync owns is renamed. Declare it under its own name first (apply adopts it), then rename it',
    ],
  ])('%s: an error at the annotation’s line', (_label, objects, entries, message) => {
    const p = plan(desiredOf(declared('team-email', RENAMED)), liveOf(objects), inventoryOf(entries.map((o) => owns(o, 'old-email'))));
    expect(p.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'renamed-from', file: 'notifiers.yaml', line: 6, field: 'metadata.annotations.wsync/renamed-from', message }),
    ]);
    expect(changeOf(p, 'Notifier', 'team-email').action).toBe('refused');
  });

  it('an old name still declared is an error', () => {
    const p = plan(desiredOf(declared('team-email', RENAMED), declared('old-email')), liveOf([old]), inventoryOf([owns(old, 'old-email')]));
    expect(p.diagnostics).toEqual([
      expect.objectContaining({ code: 'renamed-from', message: 'wsync/renamed-from: "old-email": Notifier "old-email" is still declared; a rename takes the old name out of the files' }),
    ]);
  });

  it('a kind whose name is its id is refused, saying what to do instead', () => {
    const view = wire.view('errors-old', { aplQuery: 'q', datasets: [] });
    const renamedView = resource('View', 'errors', { aplQuery: 'q' }, { annotations: { 'wsync/renamed-from': 'errors-old' } });
    const p = plan(desiredOf(renamedView), liveOf([view]), inventoryOf([owns(view, 'errors-old')]));
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'renamed-from',
        message:
          'wsync/renamed-from: "errors-old": View objects cannot be renamed in place (their name is part of their id, or no update changes it). ' +
          'Remove the annotation: apply creates View "errors", and --prune deletes "errors-old"',
      }),
    ]);
  });
});

// A rename that could write one object twice, or end in a delete.
describe('renames that cannot both be carried out', () => {
  it('two declarations renamed from one owned object: an error, never two updates of one id', () => {
    const p = plan(desiredOf(declared('a-email', RENAMED), declared('b-email', RENAMED)), liveOf([old]), inventoryOf([owns(old, 'old-email')]), policyOf({ prune: true }));
    expect(p.changes.filter((c) => c.id === 'ntf_old' && c.action === 'update')).toEqual([]);
    for (const key of ['a-email', 'b-email']) expect(changeOf(p, 'Notifier', key).action).toBe('refused');
    const errors = p.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
    expect(errors).toHaveLength(2);
    for (const message of errors) {
      expect(message).toBe(
        'wsync/renamed-from: "old-email": 2 declarations are renamed from "old-email" (Notifier/a-email (notifiers.yaml:3), Notifier/b-email (notifiers.yaml:3)); one object can take only one new name',
      );
    }
  });

  it('renamed and abandoned: the old object is abandoned (apply forgets it by id), nothing deleted', () => {
    const p = plan(desiredOf(declared('a-email', { ...RENAMED, 'wsync/mode': 'abandon' })), liveOf([old]), inventoryOf([owns(old, 'old-email')]), policyOf({ prune: true }));
    expect(p.changes.map((c) => `${c.action} ${c.key} ${c.id ?? ''}`)).toEqual(['abandon a-email ntf_old']);
  });
});
