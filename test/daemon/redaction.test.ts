// A name built from an ${env:} secret shows as (sensitive) in plan and apply; the daemon's outputs
// go through the same redaction: its change and reconcile log lines, the status page, /status,
// /metrics and the drift.detected notification.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { useInProcessDaemons } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';
import { useWebhookReceiver } from '../support/webhook.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-daemon-redaction-');
const startDaemon = useInProcessDaemons(emulator);

const SECRET = 's3cr3t-team-codename';
const env = { TEAM: SECRET };

/** A webhook receiver on loopback: every body it got. */
const webhook = useWebhookReceiver();
const received = webhook.received;

/** Everything the daemon has shown: its log lines, status page, /status, /metrics. */
async function outputs(url: string, lines: unknown[]): Promise<Record<string, string>> {
  const get = async (path: string): Promise<string> => (await fetch(`${url}${path}`)).text();
  return {
    log: lines.map((l) => JSON.stringify(l)).join('\n'),
    page: await get('/'),
    status: await get('/status'),
    metrics: await get('/metrics'),
  };
}

describe('a secret in a name, in every output of the daemon', () => {
  const tree = scratch.tree({ 'notifiers.yaml': notifierYaml('${env:TEAM}-alerts') });

  it('observe mode: the pending drift on the page and in /status, and the drift.detected body, say (sensitive)', async () => {
    const { daemon, lines, waitFor } = await startDaemon({
      dir: tree,
      stateDir: join(tree, '.wsync-observe'),
      env,
      policy: { ...DEFAULT_POLICY, mode: 'observe' },
      notifications: { targets: [{ name: 'hook', type: 'webhook', url: webhook.url }] },
    });
    await waitFor((l) => l.msg === 'reconcile' && l.result === 'planned');
    await waitUntil(() => received.some((body) => body.includes('drift.detected')), { what: 'the drift.detected notification' });
    const drift = JSON.parse(received.find((body) => body.includes('drift.detected')) ?? '{}') as { drift?: { key: string }[] };
    // Observe mode plans the create as skipped, with its diffs: drift.
    expect(drift.drift).toEqual([{ kind: 'Notifier', key: '(sensitive)-alerts', action: 'skipped' }]);

    const shown = await outputs(daemon.url, lines);
    expect(shown.page).toContain('(sensitive)-alerts');
    for (const [where, text] of Object.entries({ ...shown, notification: received.join('\n') })) expect(text, where).not.toContain(SECRET);
  });

  it('enforce mode: the change log line names (sensitive)-alerts, and nothing shows the value', async () => {
    const { daemon, lines, waitFor } = await startDaemon({ dir: tree, stateDir: join(tree, '.wsync-enforce'), env });
    await waitFor((l) => l.msg === 'reconcile' && l.result === 'applied');
    expect(lines.filter((l) => l.msg === 'change')).toEqual([expect.objectContaining({ kind: 'Notifier', key: '(sensitive)-alerts', action: 'create', outcome: 'done' })]);
    expect((await emulator.state()).notifiers?.some((n) => n.name === `${SECRET}-alerts`)).toBe(true);
    for (const [where, text] of Object.entries(await outputs(daemon.url, lines))) expect(text, where).not.toContain(SECRET);
  });
});
