// #30 item 5: without the RBAC add-on there is no writer lease, so a second wsync (another state
// directory) adopts every object the first made. Its apply says so loudly before it writes: a new
// inventory about to adopt 5 or more objects without a lease. The real CLI against the emulator.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-unleased-adoption-');

const WARNING = /^warning: ADOPTING (\d+) OBJECTS WITHOUT A WRITER LEASE: this state directory \(.*\) is new/m;

function notifiers(count: number): Record<string, string> {
  return { 'notifiers.yaml': Array.from({ length: count }, (_, i) => notifierYaml(`team-${i}`)).join('---\n') };
}

function apply(tree: string, stateDir: string): Promise<CliResult> {
  return runCli(['apply', tree, '--state-dir', stateDir], { env: emulator.env });
}

describe('a second writer without the RBAC add-on', () => {
  it('warns with the count before adopting 5 or more objects into a new inventory; the first writer, a smaller adoption and a writer with a lease do not', async () => {
    await emulator.ok('POST', '/_emulator/add-ons', { rbac: false });
    const tree = scratch.tree(notifiers(6));
    const first = await apply(tree, join(tree, '.first'));
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('6 created');
    expect(first.stderr).toContain('warning: the workspace cannot be marked as written');
    expect(first.stderr).not.toMatch(WARNING);

    const second = await apply(tree, join(tree, '.second'));
    expect(second.code).toBe(0);
    expect(second.stderr.match(WARNING)?.[1]).toBe('6');
    expect(second.stderr).toContain('.second');
    expect(second.stderr).toContain("otherwise stop this one and run it with the other's state directory");
    // Said once: the next apply of the second writer owns them and adopts nothing.
    const again = await apply(tree, join(tree, '.second'));
    expect(again.stderr).not.toMatch(WARNING);

    // Below the threshold: four objects adopted into a new inventory are not warned about.
    const small = scratch.tree(notifiers(4));
    const third = await apply(small, join(small, '.third'));
    expect(third.stdout).toContain('4 adopted');
    expect(third.stderr).not.toMatch(WARNING);

    // With RBAC a lease is kept (a second writer is refused while it runs: test/daemon/two-writers): no such warning.
    await emulator.ok('POST', '/_emulator/add-ons', { rbac: true });
    const leased = await apply(tree, join(tree, '.fourth'));
    expect(leased.stderr).not.toMatch(WARNING);
  });
});
