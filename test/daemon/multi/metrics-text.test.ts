// Several registries on one /metrics: each family once, every environment's series under it.
import { describe, expect, it } from 'vitest';
import { DaemonMetrics } from '../../../src/daemon/metrics.js';
import { mergeExpositions } from '../../../src/daemon/multi/metrics-text.js';
import { parsePrometheusText, sampleValue } from '../../support/prometheus.js';

describe('the metrics of a daemon of several environments', () => {
  it('name each family once, with each environment as label env, histograms whole', async () => {
    const staging = new DaemonMetrics({ defaultMetrics: false, environment: 'staging' });
    const prod = new DaemonMetrics({ defaultMetrics: false, environment: 'prod' });
    staging.reconcileTotal.inc({ result: 'applied', trigger: 'start' });
    prod.reconcileTotal.inc({ result: 'error', trigger: 'start' }, 2);
    prod.reconcileDuration.observe({ result: 'error' }, 0.3);
    const text = mergeExpositions([await staging.text(), await prod.text()]);
    expect(text.match(/^# TYPE wsync_reconcile_total counter$/gm)).toHaveLength(1);
    expect(text.match(/^# HELP wsync_reconcile_duration_seconds /gm)).toHaveLength(1);
    // The parser refuses a TYPE after samples, histograms without +Inf or with a wrong count.
    const families = parsePrometheusText(text);
    expect(sampleValue(families, 'wsync_reconcile_total', { env: 'staging', result: 'applied' })).toBe(1);
    expect(sampleValue(families, 'wsync_reconcile_total', { env: 'prod', result: 'error' })).toBe(2);
    expect(sampleValue(families, 'wsync_reconcile_duration_seconds_count', { env: 'prod', result: 'error' })).toBe(1);
    expect(sampleValue(families, 'wsync_ready', { env: 'staging' })).toBe(0);
    expect(sampleValue(families, 'wsync_ready', { env: 'prod' })).toBe(0);
  });
});
