// One tree, two environments, a daemon each (`wsync run --env`): each renders its own environment
// into its own workspace, and one keeps syncing while the other's server fails.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useInProcessDaemons } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { named } from '../support/workspace.js';
import { notifierYaml } from '../support/yaml.js';

const staging = useTestEmulator();
const prod = useTestEmulator();
const scratch = useScratch('wsync-daemon-environments-');
const startOnStaging = useInProcessDaemons(staging);
const startOnProd = useInProcessDaemons(prod);

const monitor = (range: number): string => `apiVersion: wsync/v1
kind: Monitor
metadata:
  name: errors
spec:
  type: Threshold
  aplQuery: "['app'] | count"
  operator: Above
  threshold: \${var:threshold}
  rangeMinutes: ${range}
  notifiers: [email]
`;

describe('a daemon per environment of one tree', () => {
  it('syncs each environment into its workspace; one keeps syncing while the other server fails', async () => {
    const tree = scratch.tree({
      'wsync.yaml': 'environments:\n  staging:\n    vars: { threshold: 5 }\n  prod:\n    vars: { threshold: 2 }\n',
      'datasets.yaml': 'apiVersion: wsync/v1\nkind: Dataset\nmetadata:\n  name: app\nspec:\n  description: the app\n',
      'notifiers.yaml': notifierYaml('email'),
      'monitors.yaml': monitor(10),
      'environments/prod/pager.yaml': notifierYaml('pager'),
    });
    const onStaging = await startOnStaging({ dir: tree, stateDir: join(tree, '.wsync', 'staging'), environment: 'staging' });
    const onProd = await startOnProd({ dir: tree, stateDir: join(tree, '.wsync', 'prod'), environment: 'prod' });
    await onStaging.waitFor((l) => l.msg === 'reconcile' && l.result === 'applied');
    await onProd.waitFor((l) => l.msg === 'reconcile' && l.result === 'applied');
    expect(named(await staging.state(), 'monitors', 'errors')).toMatchObject({ threshold: 5 });
    expect(named(await prod.state(), 'monitors', 'errors')).toMatchObject({ threshold: 2 });
    expect(named(await staging.state(), 'notifiers', 'pager')).toBeUndefined();
    expect(named(await prod.state(), 'notifiers', 'pager')).toBeDefined();

    await prod.faults({ faultRate: 1 });
    try {
      writeFileSync(join(tree, 'monitors.yaml'), monitor(20));
      await onStaging.waitFor((l) => l.msg === 'reconcile' && l.result === 'applied' && l.updated === 1);
      await onProd.waitFor((l) => l.msg === 'reconcile' && l.result !== 'applied' && l.result !== 'planned');
      expect(named(await staging.state(), 'monitors', 'errors')).toMatchObject({ threshold: 5, rangeMinutes: 20 });
    } finally {
      await prod.faults({ faultRate: 0 });
    }
  });
});
