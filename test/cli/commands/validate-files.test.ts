// `wsync validate` as a pre-commit hook runs it (single files, from the repository's top) and as a
// gate that must fail on warnings (--strict), in process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../../src/cli/commands/validate/action.js';
import { EXAMPLES_DIR } from '../../support/paths.js';
import { useScratch } from '../../support/tree.js';
import { monitorYaml, notifierYaml, resource } from '../../support/yaml.js';

const scratch = useScratch('wsync-validate-files-');

const DASHBOARD = resource('Dashboard', 'checkout', { file: 'checkout.json' });
const DOCUMENT = readFileSync(join(EXAMPLES_DIR, 'dashboards', 'checkout.json'), 'utf8');

/** A repository whose wsync tree is `workspace/` (with its wsync.yaml), checked from the top. */
function repository(): string {
  return scratch.tree({
    'README.md': '# config\n',
    'workspace/wsync.yaml': 'timeoutMs: 30000\n',
    'workspace/notifiers/oncall.yaml': notifierYaml('oncall'),
    'workspace/monitors/errors.yaml': monitorYaml('errors', 5, 'oncall'),
    'workspace/monitors/orphan.yaml': monitorYaml('orphan', 5, 'nobody'),
    'workspace/dashboards/checkout.yaml': DASHBOARD,
    'workspace/dashboards/checkout.json': DOCUMENT,
  });
}

describe('validate FILE...: a pre-commit hook', () => {
  it("does not warn about a name declared in another file of the file's tree", async () => {
    const repo = repository();
    const result = await runValidate(['workspace/monitors/errors.yaml'], { cwd: repo, env: {} });
    expect(result.output).toBe('1 resource in 1 file: valid\n');
    expect(result.exitCode).toBe(0);
  });

  it('still warns about a name that no file of the tree declares', async () => {
    const result = await runValidate(['workspace/monitors/orphan.yaml'], { cwd: repository(), env: {} });
    expect(result.output).toBe(
      'workspace/monitors/orphan.yaml:12:15: Monitor/orphan: warning: spec.notifiers[0]: no Notifier named "nobody" is declared in this directory; it must exist live\n' +
        '1 resource in 1 file: valid (1 warning)\n',
    );
  });

  it("checks a dashboard's .json named alone through the YAML that names it", async () => {
    const repo = repository();
    const ok = await runValidate(['workspace/dashboards/checkout.json'], { cwd: repo, env: {} });
    expect(ok.output).toBe('1 resource in 1 file: valid\n');
    const broken = scratch.tree({ 'checkout.yaml': DASHBOARD, 'checkout.json': '{"name": "Checkout", "charts": [' });
    const result = await runValidate([join(broken, 'checkout.json')], { cwd: broken, env: {} });
    expect(result.output).toBe('checkout.json:1:33: Dashboard/checkout: not valid JSON: expected a value, found end of file\n1 resource in 1 file: 1 error\n');
    expect(result.exitCode).toBe(1);
  });
});

describe('validate --strict', () => {
  it('turns warnings into errors: the exit code is 1 and they are counted as errors', async () => {
    const repo = repository();
    const lenient = await runValidate(['workspace'], { cwd: repo, env: {} });
    expect(lenient.exitCode).toBe(0);
    expect(lenient.output).toContain('Monitor/orphan: warning: spec.notifiers[0]: no Notifier named "nobody"');
    const strict = await runValidate(['workspace'], { cwd: repo, env: {}, strict: true });
    expect(strict.output).toBe(
      'monitors/orphan.yaml:12:15: Monitor/orphan: spec.notifiers[0]: no Notifier named "nobody" is declared in this directory; it must exist live\n' +
        '4 resources in 5 files: 1 error\n',
    );
    expect(strict.exitCode).toBe(1);
    const json = JSON.parse((await runValidate(['workspace'], { cwd: repo, env: {}, strict: true, format: 'json' })).output) as Record<string, unknown>;
    expect(json).toMatchObject({ valid: false, errors: 1, warnings: 0 });
  });
});
