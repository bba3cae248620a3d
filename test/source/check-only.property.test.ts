// A read that is only checked (`wsync validate`, ReadOptions.checkOnly) drops the specs no check
// after the read needs; what validate reports from it must be what it reports from a whole read:
// every diagnostic (references resolved by a later file, unresolved ones with their "did you mean",
// duplicates, secret values, token file names), in text and JSON, strict or not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declaredObjects, readDesired, readDesiredPaths } from '../../src/source/index.js';
import { renderValidation } from '../../src/cli/commands/validate/report.js';
import { useScratch, writeTree } from '../support/tree.js';

const scratch = useScratch('wsync-check-only-');

const NOTIFIERS = ['oncall', 'pager', 'Oncall', 'ops'];
const NOTIFIER_NAMES = ['oncall', 'pager', 'opps', 'id:abc123', '${env:NOTIFIER}', 'nobody'];
const ROLES = ['sre', 'ops', 'sres', 'admin'];
const EMAILS = ['ada@example.com', 'Ada@Example.com', 'bob@example.com'];

const head = (kind: string, name: string): string => `apiVersion: wsync/v1\nkind: ${kind}\nmetadata:\n  name: ${JSON.stringify(name)}\nspec:\n`;

const documents = fc.oneof(
  fc.record({ name: fc.constantFrom(...NOTIFIERS), secret: fc.boolean() }).map(({ name, secret }) =>
    secret
      ? `${head('Notifier', name)}  properties:\n    customWebhook:\n      url: https://hooks.example.com/${name}\n      body: "{{.Message}}"\n`
      : `${head('Notifier', name)}  properties:\n    email:\n      emails: [oncall@example.com]\n`,
  ),
  fc.record({ name: fc.constantFrom('m1', 'm2', 'm3'), notifiers: fc.subarray(NOTIFIER_NAMES), broken: fc.boolean() }).map(
    ({ name, notifiers, broken }) =>
      `${head('Monitor', name)}  type: MatchEvent\n${broken ? '' : '  aplQuery: "[\'app\'] | count"\n'}  notifiers: [${notifiers.map((n) => JSON.stringify(n)).join(', ')}]\n`,
  ),
  fc.record({ email: fc.constantFrom(...EMAILS), role: fc.constantFrom(...ROLES) }).map(({ email, role }) => `${head('User', email)}  name: Someone\n  role: ${role}\n`),
  fc.record({ name: fc.constantFrom('sre', 'ops'), members: fc.subarray(EMAILS) }).map(({ name, members }) => `${head('Role', name)}  members: [${members.join(', ')}]\n`),
  fc.constantFrom('logs', 'log').map((name) => `${head('Dataset', name)}  description: events\n`),
  fc.record({ name: fc.constantFrom('doubled', 'tripled'), dataset: fc.constantFrom('logs', 'lags', 'other') }).map(
    ({ name, dataset }) => `${head('VirtualField', name)}  dataset: ${dataset}\n  expression: latency * 2\n`,
  ),
  fc.constantFrom('deploy bot', 'deploy_bot').map((name) => `${head('ApiToken', name)}  description: CI\n`),
  fc.constant('kind: Deployment\napiVersion: apps/v1\nmetadata:\n  name: web\n'),
);

const trees = fc.array(fc.array(documents, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }).map((files) => {
  const out: Record<string, string> = {};
  files.forEach((docs, i) => (out[`${i % 2 === 0 ? '' : 'team/'}f${i}.yaml`] = docs.join('---\n')));
  return out;
});

const FORMATS = [{}, { format: 'json' as const }, { strict: true }, { quiet: true }];

describe('a read that is only checked', () => {
  it('reports exactly what a whole read reports, for directories and for named files', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(trees, async (files) => {
        const dir = `${await scratch.dir()}/t${run++}`;
        await writeTree(dir, files);
        const env = { NOTIFIER: 'pager' };
        const whole = await readDesired(dir, { env });
        const checked = await readDesired(dir, { env, checkOnly: true });
        expect(checked.resources.map((r) => [r.kind, r.key])).toEqual(whole.resources.map((r) => [r.kind, r.key]));
        expect(declaredObjects(checked).map((d) => [d.kind, d.key])).toEqual(declaredObjects(whole).map((d) => [d.kind, d.key]));
        for (const options of FORMATS) expect(renderValidation(checked, options)).toEqual(renderValidation(whole, options));
        const paths = Object.keys(files).map((path) => ({ path: `${dir}/${path}` }));
        const named = await readDesiredPaths(paths, { root: dir, env, checkOnly: true });
        expect(renderValidation(named)).toEqual(renderValidation(await readDesiredPaths(paths, { root: dir, env })));
      }),
      { numRuns: 80 },
    );
  });

  it('lets go of the specs of resources whose names resolve, and keeps those a later check reads', async () => {
    const dir = await scratch.dir();
    await writeTree(dir, {
      'a.yaml': `${head('Monitor', 'early')}  type: MatchEvent\n  aplQuery: x\n  notifiers: [oncall]\n`,
      'b.yaml': `${head('Notifier', 'oncall')}  properties:\n    email:\n      emails: [a@example.com]\n---\n${head('Monitor', 'late')}  type: MatchEvent\n  aplQuery: x\n  notifiers: [oncall]\n`,
    });
    const checked = await readDesired(dir, { env: {}, checkOnly: true });
    const specs = Object.fromEntries(checked.resources.map((r) => [r.key, r.spec]));
    // `early` names a notifier a later file declares: kept whole for the check at the end.
    expect(specs.early).toMatchObject({ notifiers: ['oncall'] });
    // A notifier may hold secret values, which are counted across the tree at the end.
    expect(specs.oncall).toMatchObject({ properties: { email: { emails: ['a@example.com'] } } });
    expect(specs.late).toEqual({});
    expect(renderValidation(checked).output).toBe('3 resources in 2 files: valid\n');
  });
});
