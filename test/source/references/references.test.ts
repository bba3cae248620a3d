import { describe, expect, it } from 'vitest';
import { checkReferences } from '../../../src/source/index.js';
import { doc } from '../../support/yaml.js';
import { readOne } from '../helpers.js';

const notifier = (name: string): string =>
  doc('kind: Notifier', 'metadata:', `  name: ${name}`, 'spec:', '  properties:', '    email:', '      emails: [a@example.com]');
const monitor = (name: string, notifiers: string): string =>
  doc('kind: Monitor', 'metadata:', `  name: ${name}`, 'spec:', '  type: MatchEvent', '  aplQuery: x', `  notifiers: ${notifiers}`);
const user = (email: string, role: string): string =>
  doc('kind: User', 'metadata:', `  name: ${email}`, 'spec:', '  name: Someone', `  role: ${role}`);
const role = (name: string, members: string): string => doc('kind: Role', 'metadata:', `  name: ${name}`, 'spec:', `  members: ${members}`);
const query = (name: string, owner: string): string =>
  doc('kind: StarredQuery', 'metadata:', `  name: ${name}`, 'spec:', `  owner: ${owner}`, '  query:', '    apl: x');

function refs(...docs: string[]): ReturnType<typeof checkReferences> {
  const desired = readOne(docs.join('---\n'));
  expect(desired.diagnostics).toEqual([]);
  return checkReferences(desired.resources);
}

describe('checkReferences', () => {
  it('is silent when every name is declared', () => {
    expect(
      refs(
        notifier('oncall'),
        monitor('m', '[oncall]'),
        role('sre', '[Ada@Example.com]'),
        user('ada@example.com', 'sre'),
        user('bob@example.com', 'admin'),
        user('cy@example.com', 'read-only'),
        query('q', 'ADA@example.com'),
      ),
    ).toEqual([]);
  });

  it('warns at the referring item for a notifier not declared here', () => {
    expect(refs(notifier('oncall'), monitor('m', '[oncall, pager]'))).toEqual([
      {
        severity: 'warning',
        code: 'unresolved-reference',
        file: 'r.yaml',
        line: 17,
        column: 23,
        kind: 'Monitor',
        name: 'm',
        field: 'spec.notifiers[1]',
        message: 'spec.notifiers[1]: no Notifier named "pager" is declared in this directory; it must exist live',
      },
    ]);
  });

  it('treats built-in user roles (any letter case) as no reference, and custom roles as one: a warning, never an error', () => {
    const builtins = ['owner', 'Admin', 'user', 'READ-ONLY', 'none'].map((role, i) => user(`u${i}@example.com`, role));
    expect(refs(...builtins)).toEqual([]);
    const found = refs(user('a@example.com', 'user'), user('b@example.com', 'auditors'));
    expect(found).toMatchObject([{ severity: 'warning', kind: 'User', name: 'b@example.com', field: 'spec.role', line: 15 }]);
    expect(found[0]?.message).toBe(
      'spec.role: neither a built-in value (owner, admin, user, read-only, none) nor a Role named "auditors" declared in this directory; it must exist live or be known to the workspace',
    );
  });

  it('compares emails without case for role members and query owners', () => {
    expect(refs(user('ada@example.com', 'Owner'), role('r', '[ADA@example.com, bob@example.com]'), query('q', 'Ada@Example.com'))).toMatchObject([
      { kind: 'Role', field: 'spec.members[1]', message: expect.stringContaining('no User named "bob@example.com"') },
    ]);
    expect(refs(query('q', 'nobody@example.com'))).toMatchObject([{ kind: 'StarredQuery', field: 'spec.owner' }]);
  });

  it('says nothing of an undeclared dataset (ingest makes them) unless a declared one is a close match', () => {
    const dataset = (name: string): string => doc('kind: Dataset', 'metadata:', `  name: ${name}`);
    const vfield = (name: string, dataset: string): string =>
      doc('kind: VirtualField', 'metadata:', `  name: ${name}`, 'spec:', `  dataset: ${dataset}`, '  expression: x');
    expect(refs(vfield('a', 'made-by-ingest'))).toEqual([]);
    expect(refs(dataset('payments'), vfield('a', 'payments'), vfield('b', 'logs'))).toEqual([]);
    expect(refs(dataset('payments'), vfield('a', 'paymnts'))).toMatchObject([
      {
        kind: 'VirtualField',
        field: 'spec.dataset',
        message: 'spec.dataset: no Dataset named "paymnts" is declared in this directory; it must exist live (did you mean "payments"?)',
      },
    ]);
  });

  it('suggests a declared name for a near miss', () => {
    expect(refs(notifier('oncall'), monitor('m', '[oncal]'))[0]?.message).toMatch(/\(did you mean "oncall"\?\)$/);
  });

  it('does not print a name that came from the environment', () => {
    const desired = readOne(monitor('m', '["${env:TARGET}"]'), { env: { TARGET: 'hidden-notifier-name' } });
    const found = checkReferences(desired.resources);
    expect(found).toHaveLength(1);
    expect(JSON.stringify(found)).not.toContain('hidden-notifier-name');
  });
});
