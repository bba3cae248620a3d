// Two API tokens whose secrets would share one file of the token output directory (`deploy bot`
// and `deploy_bot` both write `deploy_bot`): an error at the second declaration's line in validate,
// plan and apply, and apply creates nothing (before, the second secret overwrote the first and the
// next plan said "No changes", the first token's user reading the second token's secret).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-token-file-');
const emulator = useTestEmulator();

const token = (name: string, description: string): string =>
  `apiVersion: wsync/v1\nkind: ApiToken\nmetadata:\n  name: "${name}"\nspec:\n  description: ${description}\n  orgCapabilities:\n    annotations: [read]\n`;

describe('API tokens whose secret files would be one', () => {
  it('are an error at file:line, and apply issues neither', async () => {
    const dir = scratch.tree({ 'tokens.yaml': `${token('deploy bot', 'one')}---\n${token('deploy_bot', 'two')}` });
    const message =
      'tokens.yaml:13:3: ApiToken/deploy_bot: the secret of ApiToken "deploy_bot" would be written to the file "deploy_bot" of the token output directory, ' +
      'as the secret of ApiToken "deploy bot" (tokens.yaml:1): one would overwrite the other. Rename one: a file name keeps letters, digits, ".", "_" and "-" of the name';
    const validate = await runCli(['validate', dir]);
    expect(validate.code).toBe(1);
    expect(validate.stdout + validate.stderr).toContain(message);

    const apply = await runCli(['apply', dir], { env: emulator.env });
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain(message);
    expect((await emulator.state()).tokens ?? []).toEqual([]);
    expect(existsSync(join(dir, '.wsync', 'tokens', 'deploy_bot'))).toBe(false);
  });

  it('names that map to distinct files are fine', async () => {
    const dir = scratch.tree({ 'tokens.yaml': `${token('deploy-bot', 'one')}---\n${token('deploy_bot', 'two')}` });
    const validate = await runCli(['validate', dir]);
    expect(validate.stdout + validate.stderr).toContain('valid');
    expect(validate.code).toBe(0);
  });
});
