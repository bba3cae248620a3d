import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addPolicyOptions, expandPruneSpellings, PolicyFlagError, policyFromFlags } from '../../src/cli/policy.js';

function parse(args: string[]) {
  const cmd = addPolicyOptions(new Command('x').exitOverride()).argument('[dir]');
  cmd.parse(expandPruneSpellings(args), { from: 'user' });
  return Object.assign(policyFromFlags(cmd.opts()), { dir: cmd.args[0] });
}

describe('policy flags', () => {
  it('defaults to the safe policy of docs/design.md', () => {
    const { dir: _dir, ...policy } = parse([]);
    expect(policy).toEqual({
      prune: false,
      pruneAll: [],
      maxDeletes: 10,
      maxDeleteRatio: 0.25,
      allowOverBudget: false,
      allowEmpty: false,
      adopt: true,
      mode: 'enforce',
      allowDeletion: [],
      allowDataLoss: [],
      rotationGraceMs: 24 * 3_600_000,
    });
  });

  it('reads --allow-data-loss, only for kinds whose updates can destroy data', () => {
    expect(parse(['--allow-data-loss', 'Dataset', 'tree'])).toMatchObject({ allowDataLoss: ['Dataset'], dir: 'tree' });
    expect(parse(['--allow-data-loss', 'datasets', '--allow-data-loss', 'Dataset']).allowDataLoss).toEqual(['Dataset']);
    expect(() => parse(['--allow-data-loss', 'Monitor'])).toThrow(
      '--allow-data-loss Monitor: no update of a Monitor destroys data; kinds whose updates can: Dataset',
    );
    expect(() => parse(['--allow-data-loss', 'Datasett'])).toThrow('--allow-data-loss Datasett: unknown kind "Datasett"');
  });

  it('reads --allow-delete, only for kinds whose deletion needs the opt-in', () => {
    expect(parse(['--prune', '--allow-delete', 'Dataset', 'tree'])).toMatchObject({ allowDeletion: ['Dataset'], dir: 'tree' });
    expect(parse(['--allow-delete', 'datasets', '--allow-delete', 'Dataset']).allowDeletion).toEqual(['Dataset']);
    expect(() => parse(['--allow-delete', 'Monitor'])).toThrow(
      '--allow-delete Monitor: deleting a Monitor needs no opt-in (--prune is enough); kinds that need one: Dataset',
    );
    expect(() => parse(['--allow-delete', 'Datasett'])).toThrow(/--allow-delete Datasett: unknown kind "Datasett"/);
  });

  it('reads the token rotation grace, and refuses a duration it cannot read', () => {
    expect(parse(['--token-rotation-grace', '48h']).rotationGraceMs).toBe(48 * 3_600_000);
    expect(parse(['--token-rotation-grace', '0s']).rotationGraceMs).toBe(0);
    expect(parse(['--token-rotation-grace', '1h30m']).rotationGraceMs).toBe(90 * 60_000);
    expect(() => parse(['--token-rotation-grace', 'a day'])).toThrow('--token-rotation-grace: "a day" is not a duration such as 24h, 1h30m, 90m or 0s');
  });

  it('never takes the directory for a --prune value', () => {
    expect(parse(['--prune', 'config-examples'])).toMatchObject({ prune: true, pruneAll: [], dir: 'config-examples' });
    expect(parse(['--prune=all:Monitor', 'tree'])).toMatchObject({ prune: true, pruneAll: ['Monitor'], dir: 'tree' });
  });

  it('reads --prune, --prune=all:KIND and --prune-all', () => {
    const policy = parse(['--prune=all:monitors', '--prune', '--prune-all', 'ApiToken']);
    expect(policy.prune).toBe(true);
    expect(policy.pruneAll).toEqual(['Monitor', 'ApiToken']);
  });

  it('reads the budget and overrides', () => {
    const policy = parse(['--max-deletes', '3', '--max-delete-ratio', '0.5', '--force-deletes', '--allow-empty', '--no-adopt']);
    expect(policy).toMatchObject({ maxDeletes: 3, maxDeleteRatio: 0.5, allowOverBudget: true, allowEmpty: true, adopt: false });
  });

  it('refuses nonsense with the flag named', () => {
    expect(() => parse(['--prune=all:Widgets'])).toThrow(PolicyFlagError);
    expect(() => parse(['--prune=all:Widgets'])).toThrow(/--prune-all Widgets: unknown kind "Widgets"/);
    expect(() => parse(['--max-delete-ratio', '2'])).toThrow(/--max-delete-ratio/);
    expect(() => parse(['--prune=some'])).toThrow(/--prune=all:KIND/);
  });

  it('refuses --prune=all for a kind the service also makes objects of (annotations of triggered monitors)', () => {
    expect(() => parse(['--prune=all:Annotation'])).toThrow(
      /^--prune=all:Annotation is not allowed: the service makes annotations by itself .*use --prune/,
    );
    expect(() => parse(['--prune-all', 'annotations'])).toThrow(PolicyFlagError);
  });
});
