// A daemon that syncs one environment of a tree names it on every log line and every series.
import { describe, expect, it } from 'vitest';
import { createLogger, prettyMessage } from '../../src/daemon/logger.js';
import { DaemonMetrics } from '../../src/daemon/metrics.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus.js';

describe('the environment of a daemon', () => {
  it('is the env field of every JSON log line and leads every pretty one', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', pretty: false, destination: { write: (text: string) => lines.push(text) }, bindings: { env: 'prod' } });
    log.info({ result: 'applied' }, 'reconcile');
    log.warn('something');
    expect(lines.map((line) => (JSON.parse(line) as { env?: string }).env)).toEqual(['prod', 'prod']);
    expect(prettyMessage({ msg: 'started', env: 'prod', dir: '/tree' })).toBe('[prod] started dir=/tree');
    expect(prettyMessage({ msg: 'started', dir: '/tree' })).toBe('started dir=/tree');
  });

  it('is the env label of every metric', async () => {
    const metrics = new DaemonMetrics({ defaultMetrics: false, environment: 'staging' });
    metrics.reconcileTotal.inc({ result: 'applied', trigger: 'start' });
    const samples = parsePrometheusText(await metrics.text());
    expect(sampleValue(samples, 'wsync_reconcile_total', { result: 'applied', env: 'staging' })).toBe(1);
    const plain = new DaemonMetrics({ defaultMetrics: false });
    expect(await plain.text()).not.toContain('env=');
  });
});
