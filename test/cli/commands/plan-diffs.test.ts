// Word and element diffs end to end: the real CLI plans an edited tree against the emulator, in text
// and in markdown; controls stay escaped and secrets masked.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runWith } from '../../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../../support/emulator.js';
import { removeDir, tempDir, writeTree } from '../../support/tree.js';
import { MONITOR_DATASETS, resource } from '../../support/yaml.js';

/** The CLI with `env` added to its clean environment. */
const runCli = (args: string[], env: Record<string, string | undefined>) => runWith(args, { env });

const QUERY = "['checkout'] | where status >= 500 and service == 'api' | extend region = tostring(geo.region) | summarize count() by bin_auto(_time), region";
const SLACK_OLD = 'https://hooks.slack.example/services/T0/B0/old-secret-4f1c';
const SLACK_NEW = 'https://hooks.slack.example/services/T0/B0/new-secret-9e2d';

function files(query: string, notifiers: string[], description: string): Record<string, string> {
  const email = (name: string): string => resource('Notifier', name, { properties: { email: { emails: [`${name}@example.com`] } } });
  return {
    'notifiers.yaml': [
      email('team-a'),
      email('team-b'),
      email('team-c'),
      resource('Notifier', 'oncall-slack', { properties: { slack: { slackUrl: '${env:SLACK_URL}' } } }),
    ].join('---\n'),
    'monitor.yaml': resource('Monitor', 'checkout-errors', {
      type: 'Threshold',
      description,
      aplQuery: query,
      operator: 'Above',
      threshold: 25,
      intervalMinutes: 5,
      rangeMinutes: 10,
      notifiers,
    }),
  };
}

describe('plan shows changed words and elements', () => {
  let emulator: TestEmulator;
  let root: string;
  let tree: string;
  let state: string;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await emulator.seed(MONITOR_DATASETS);
    root = await tempDir();
    tree = join(root, 'tree');
    state = join(root, 'state');
    await writeTree(tree, files(QUERY, ['team-a', 'team-b', 'oncall-slack'], 'Checkout answers 5xx to more than 25 requests in ten minutes.'));
    const applied = await runCli(['apply', tree, '--state-dir', state], { ...emulator.env, SLACK_URL: SLACK_OLD });
    expect(applied.code, applied.stderr).toBe(0);
    await writeTree(
      tree,
      files(QUERY.replace('500', '400'), ['team-b', 'team-c', 'oncall-slack'], 'Checkout answers 4xx \u202eto more than 25 requests in five minutes.'),
    );
  });
  afterAll(async () => {
    await emulator.close();
    await removeDir(root);
  });

  it('in text', async () => {
    const result = await runCli(['plan', tree, '--state-dir', state], { ...emulator.env, SLACK_URL: SLACK_NEW });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toContain("        aplQuery: … | where status >= [-500-]{+400+} and service == 'api' …\n");
    expect(out).toContain('        notifiers: 1 added, 1 removed\n          - "team-a"\n          + "team-c"\n');
    expect(out).toContain('        description: Checkout answers [-5xx-]{+4xx+} {+\\u202e+}to more than 25 requests in [-ten-]{+five+} minutes.\n');
    expect(out).toContain('        properties.slack.slackUrl: (sensitive value changed)\n');
    expect(out).not.toContain('\u202e');
    expect(out).not.toMatch(/old-secret|new-secret/);
  });

  it('in markdown (the pull-request comment)', async () => {
    const result = await runCli(['plan', tree, '--state-dir', state, '--format', 'markdown'], { ...emulator.env, SLACK_URL: SLACK_NEW });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toContain("  - `aplQuery`: `… | where status >= [-500-]{+400+} and service == 'api' …`\n");
    expect(out).toContain('  - `notifiers`: 1 added, 1 removed\n    - removed `"team-a"`\n    - added `"team-c"`\n');
    expect(out).toContain('{+\\u202e+}to');
    expect(out).toContain('  - `properties.slack.slackUrl`: (sensitive value changed)');
    expect(out).not.toContain('\u202e');
    expect(out).not.toMatch(/old-secret|new-secret/);
  });
});
