import { describe, expect, it } from 'vitest';
import { isLogLevel, prettyMessage } from '../../src/daemon/logger.js';

describe('pretty log lines', () => {
  it('turns a reconcile summary into one sentence', () => {
    const line = prettyMessage({
      level: 'info',
      time: 't',
      msg: 'reconcile',
      result: 'applied',
      trigger: 'revision',
      revision: 'abc123',
      created: 1,
      updated: 2,
      deleted: 0,
      failed: 0,
      drift: 3,
      duration_ms: 412,
    });
    expect(line).toBe('reconcile applied (revision @abc123) created 1, updated 2, deleted 0, failed 0, drift 3, 412 ms');
  });

  it('turns a change into one line, and keeps other fields as key=value', () => {
    expect(
      prettyMessage({ msg: 'change', outcome: 'failed', action: 'update', kind: 'Monitor', key: 'm1', id: 'mon_1', message: 'PUT /v2/monitors/mon_1: 400' }),
    ).toBe('failed: update Monitor/m1 mon_1: PUT /v2/monitors/mon_1: 400');
    expect(prettyMessage({ msg: 'listening', pid: 1, url: 'http://127.0.0.1:9464' })).toBe('listening url=http://127.0.0.1:9464');
  });

  it('knows the pino levels', () => {
    expect(isLogLevel('debug')).toBe(true);
    expect(isLogLevel('verbose')).toBe(false);
  });
});
