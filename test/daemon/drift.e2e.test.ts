import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { sampleValue, scrapeMetrics } from '../support/prometheus.js';
import { monitorYaml, notifierYaml } from '../support/yaml.js';
import { quietPeriod } from '../support/wait.js';

const env = useDaemonSuite();

type Monitor = Record<string, unknown> & { id: string; name: string; threshold: number };

async function monitor(name: string): Promise<Monitor> {
  const list = await env.emulator.ok<Monitor[]>('GET', '/v2/monitors');
  const found = list.find((m) => m.name === name);
  if (!found) throw new Error(`no monitor ${name}`);
  return found;
}

/** A hand edit in the UI: change the threshold behind wsync's back. */
async function editByHand(name: string, value: number): Promise<void> {
  const m = await monitor(name);
  const { id, createdAt: _c, createdBy: _b, updatedAt: _u, ...body } = m;
  const res = await env.emulator.call('PUT', `/v2/monitors/${id}`, { body: { ...body, threshold: value } });
  expect(res.status).toBe(200);
  expect((await monitor(name)).threshold).toBe(value);
}

describe('drift', () => {
  it('the scheduled resync puts back what was changed by hand', async () => {
    const dir = join(env.tmp, 'enforce');
    await mkdir(dir);
    await writeFile(join(dir, 'n.yaml'), notifierYaml('drift-email'));
    await writeFile(join(dir, 'm.yaml'), monitorYaml('drift-enforced', 25, 'drift-email'));
    // Every second, so the test does not wait for */5 minutes.
    const d = env.start([dir, '--resync', '* * * * * *']);
    await d.ready({ result: 'applied' });
    expect((await monitor('drift-enforced')).threshold).toBe(25);

    const mark = d.mark;
    await editByHand('drift-enforced', 999);
    const fixed = await d.waitFor((l) => l.msg === 'reconcile' && l.trigger === 'resync' && l.updated === 1, {
      from: mark,
      what: 'a resync that corrects the drift',
    });
    expect(fixed).toMatchObject({ result: 'applied', drift: 1, pending_drift: 0 });
    expect((await monitor('drift-enforced')).threshold).toBe(25);
    expect(d.lines.slice(mark).some((l) => l.msg === 'change' && l.key === 'drift-enforced' && l.action === 'update')).toBe(true);
    expect(await d.signal('SIGTERM')).toBe(0);
  });

  it('observe mode reports drift on the status page and in metrics, and never writes', async () => {
    const dir = join(env.tmp, 'observe');
    await mkdir(dir);
    await writeFile(join(dir, 'n.yaml'), notifierYaml('observe-email'));
    await writeFile(join(dir, 'm.yaml'), monitorYaml('drift-observed', 30, 'observe-email'));
    // Converge once with enforce, then watch in observe mode.
    const enforcer = env.start([dir, '--resync', 'off']);
    await enforcer.waitReconcile(0, { trigger: 'start', result: 'applied' });
    expect(await enforcer.signal('SIGTERM')).toBe(0);

    const d = env.start([dir, '--resync', '* * * * * *', '--mode', 'observe']);
    const { url } = await d.ready({ result: 'planned' });
    const writesBefore = (await env.emulator.writes()).length;
    await editByHand('drift-observed', 1);
    const writesAfterEdit = (await env.emulator.writes()).length;
    expect(writesAfterEdit).toBe(writesBefore + 1);

    const mark = d.mark;
    const seen = await d.waitFor((l) => l.msg === 'reconcile' && l.trigger === 'resync' && Number(l.drift) >= 1, {
      from: mark,
      what: 'a resync that reports the drift',
    });
    expect(seen).toMatchObject({ result: 'planned', updated: 0, pending_drift: 1 });
    await quietPeriod(1200);
    expect((await env.emulator.writes()).length).toBe(writesAfterEdit);
    expect((await monitor('drift-observed')).threshold).toBe(1);

    const families = await scrapeMetrics(url);
    expect(sampleValue(families, 'wsync_drift_objects', { kind: 'Monitor' })).toBe(1);
    expect(sampleValue(families, 'wsync_api_requests_total', { method: 'PUT' })).toBeUndefined();
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toContain('<span id="drift-count">1</span>');
    expect(page).toContain('<td>drift-observed</td>');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await d.signal('SIGTERM')).toBe(0);
  });
});
