// #30 item 5: a dashboard saved in the UI is written over by the daemon's next reconcile (the files
// win), and the daemon says so: a warn log line and a drift.detected event naming the dashboard and
// the version it replaced. Its own writes, and edits of the files, are not news. The uid holds an
// ${env:} secret here: every output shows it as (sensitive).
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useInProcessDaemons, type LogLine } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { waitUntil } from '../support/wait.js';
import { useWebhookReceiver } from '../support/webhook.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-dashboard-overwrite-');
const startDaemon = useInProcessDaemons(emulator);

const SECRET = 's3cr3t-team';
const UID = `${SECRET}-overview`;
const SHOWN = '(sensitive)-overview';

function dashboardYaml(refreshTime: number): string {
  return [
    'apiVersion: wsync/v1',
    'kind: Dashboard',
    'metadata:',
    '  name: ${env:TEAM}-overview',
    'spec:',
    '  dashboard:',
    '    name: Checkout overview',
    '    charts: []',
    '    layout: []',
    `    refreshTime: ${refreshTime}`,
    '    schemaVersion: 2',
    '    timeWindowStart: qr-now-1h',
    '    timeWindowEnd: qr-now',
    '',
  ].join('\n');
}

const webhook = useWebhookReceiver();
const received = webhook.received;

interface Overwritten {
  kind: string;
  key: string;
  id: string;
  replacedVersion: number;
  knownVersion: number;
}

function overwriteEvents(): { summary: string; overwritten: Overwritten[] }[] {
  return received.map((body) => JSON.parse(body) as { type: string; summary: string; overwritten: Overwritten[] }).filter((e) => e.type === 'drift.detected');
}

async function liveVersion(): Promise<number> {
  const found = ((await emulator.state()).dashboards ?? []).find((d) => d.uid === UID) as { version?: number } | undefined;
  return found?.version ?? 0;
}

describe('the daemon writes over a dashboard saved in the UI, and says which version it replaced', () => {
  it('says nothing of its own writes or of file edits; names a UI save it wrote over, after a stale skip and between reconciles', async () => {
    const tree = scratch.tree({ 'dashboards.yaml': dashboardYaml(60) });
    const file = join(tree, 'dashboards.yaml');
    const { daemon, lines } = await startDaemon({
      dir: tree,
      stateDir: join(tree, '.wsync'),
      env: { TEAM: SECRET },
      // One reconcile per edit of the file (the watcher reports an edit more than once).
      debounceMs: 300,
      notifications: { targets: [{ name: 'hook', type: 'webhook', url: webhook.url }] },
    });
    const changes = (outcome: string): LogLine[] => lines.filter((l) => l.msg === 'change' && l.kind === 'Dashboard' && l.outcome === outcome);
    const overwriteLines = (): LogLine[] => lines.filter((l) => l.replaced_version !== undefined);
    await waitUntil(() => changes('done').length === 1, { what: 'the create' });
    expect(await liveVersion()).toBe(1);

    // An edit of the files (the watcher's reconcile): an update over the version wsync wrote. Not news.
    await writeFile(file, dashboardYaml(15));
    await waitUntil(() => changes('done').length === 2, { what: 'the update of the edit' });
    expect(await liveVersion()).toBe(2);

    // A save in the UI lands just before the next write: 412, skipped, not written over.
    await emulator.ok('POST', '/_emulator/dashboards/ui-save', { uid: UID, dashboard: { name: 'Renamed in the UI' }, when: 'before-next-write' });
    await writeFile(file, dashboardYaml(300));
    await waitUntil(() => changes('skipped').length >= 1, { what: 'the stale skip' });
    expect(await liveVersion()).toBe(3);
    expect(overwriteLines()).toEqual([]);

    // The next reconcile writes the files over the UI's version 3, and says so.
    daemon.reload();
    await waitUntil(() => overwriteLines().length === 1, { what: 'the overwrite log line' });
    expect(await liveVersion()).toBe(4);
    expect(overwriteLines()[0]).toMatchObject({ level: 40, kind: 'Dashboard', key: SHOWN, id: SHOWN, replaced_version: 3, known_version: 2 });
    expect(String(overwriteLines()[0]?.msg)).toContain(`Dashboard/${SHOWN} (id ${SHOWN}): it replaced version 3`);
    await waitUntil(() => overwriteEvents().length === 1, { what: 'the drift.detected event' });
    const [event] = overwriteEvents();
    expect(event?.overwritten).toEqual([{ kind: 'Dashboard', key: SHOWN, id: SHOWN, replacedVersion: 3, knownVersion: 2 }]);
    expect(event?.summary).toContain(`Dashboard/${SHOWN} (id ${SHOWN}): version 3, saved outside wsync after version 2`);

    // A UI save between two reconciles (no write in flight): the same, against the version wsync wrote.
    await emulator.ok('POST', '/_emulator/dashboards/ui-save', { uid: UID, dashboard: { name: 'Renamed again' }, when: 'now' });
    daemon.reload();
    await waitUntil(() => overwriteEvents().length === 2, { what: 'the second drift.detected event' });
    expect(overwriteEvents()[1]?.overwritten).toEqual([{ kind: 'Dashboard', key: SHOWN, id: SHOWN, replacedVersion: 5, knownVersion: 4 }]);
    expect(await liveVersion()).toBe(6);

    // A reconcile with nothing to write: no event.
    const reconciles = lines.filter((l) => l.msg === 'reconcile').length;
    daemon.reload();
    await waitUntil(() => lines.filter((l) => l.msg === 'reconcile').length > reconciles, { what: 'a quiet reconcile' });
    expect(overwriteEvents()).toHaveLength(2);
    expect(overwriteLines()).toHaveLength(2);

    const shown = [lines.map((l) => JSON.stringify(l)).join('\n'), received.join('\n'), await (await fetch(`${daemon.url}/status`)).text()];
    for (const text of shown) expect(text).not.toContain(SECRET);
  });
});
