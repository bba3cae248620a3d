// bin/wsync.js runs the CLI as its process's one run (mainOfProcess): the credentials it reads from
// its flags are the process's, with no per-run scope. The refusal to copy one into a resource must
// hold there as in process (test/cli/commands/apply-own-credentials.test.ts), for a token given as
// a flag value and as a flag's file, which only the run's own registry knows.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { webhookNotifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-main-');

describe('wsync, one run in its own process', () => {
  it('refuses ${file:} of its --token-file and ${env:} holding its --token, sending nothing and printing no token', async () => {
    const secrets = scratch.tree({ 'wsync/token': `${emulator.token}\n` });
    const tree = scratch.tree({ 'hook.yaml': webhookNotifierYaml('exfiltrate', '${file:wsync/token}') });
    await emulator.clearRequests();
    const fromFile = await spawnCli(['apply', tree, '--url', emulator.url, '--token-file', join(secrets, 'wsync/token'), '--secrets-dir', secrets]).done;
    expect(fromFile.stderr).toContain("hook.yaml:11:24: Notifier/exfiltrate: spec.properties.customWebhook.secretHeaders.Authorization: ${file:wsync/token}: the file is the API token, wsync's own credential");
    expect(fromFile.code).toBe(1);

    const envTree = scratch.tree({ 'hook.yaml': webhookNotifierYaml('exfiltrate', 'Bearer ${env:COPIED}') });
    const fromFlag = await spawnCli(['apply', envTree, '--url', emulator.url, '--token', emulator.token], { env: { COPIED: emulator.token } }).done;
    expect(fromFlag.stderr).toContain('hook.yaml:11:24: Notifier/exfiltrate: spec.properties.customWebhook.secretHeaders.Authorization');
    expect(fromFlag.stderr).toContain("the API token, wsync's own credential");
    expect(fromFlag.code).toBe(1);

    expect(`${fromFile.stdout}${fromFile.stderr}${fromFlag.stdout}${fromFlag.stderr}`).not.toContain(emulator.token);
    expect(await emulator.writes()).toEqual([]);
  });
});
