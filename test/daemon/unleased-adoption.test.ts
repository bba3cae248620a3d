// #30 item 5: the daemon's side of a second writer without the RBAC add-on: the warning before it
// adopts 5 or more objects into a new inventory is a warn log line.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useInProcessDaemons } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-daemon-unleased-');
const startDaemon = useInProcessDaemons(emulator);

describe('a second daemon without the RBAC add-on', () => {
  it('logs at warn, with the count, that it adopts objects without a writer lease', async () => {
    await emulator.ok('POST', '/_emulator/add-ons', { rbac: false });
    const tree = scratch.tree({ 'notifiers.yaml': Array.from({ length: 5 }, (_, i) => notifierYaml(`team-${i}`)).join('---\n') });
    expect((await runCli(['apply', tree, '--state-dir', join(tree, '.first')], { env: emulator.env })).code).toBe(0);

    const { waitFor } = await startDaemon({ dir: tree, stateDir: join(tree, '.second') });
    const reconciled = await waitFor((l) => l.msg === 'reconcile');
    expect(reconciled).toMatchObject({ result: 'applied', adopted: 5 });
    const warning = await waitFor((l) => String(l.msg).startsWith('ADOPTING 5 OBJECTS WITHOUT A WRITER LEASE'));
    expect(warning.level).toBe(40);
    expect(String(warning.msg)).toContain('.second');
  });
});
