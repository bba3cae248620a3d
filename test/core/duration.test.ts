// Durations in flags and annotations, as the Terraform provider (Go's time.ParseDuration) takes them too.
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/core/duration.js';

describe('parseDuration', () => {
  it('reads one part: a number and one of ms, s, m, h, d', () => {
    expect(parseDuration('48h')).toBe(48 * 3_600_000);
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('2d')).toBe(2 * 86_400_000);
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('500ms')).toBe(500);
  });

  it('reads several parts in a row and decimals, as Go and the provider do', () => {
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('2d12h')).toBe(60 * 3_600_000);
    expect(parseDuration('1h30m15s')).toBe(5_415_000);
    expect(parseDuration('1.5h')).toBe(90 * 60_000);
    expect(parseDuration(' 24h ')).toBe(24 * 3_600_000);
  });

  it('refuses what is not a duration', () => {
    for (const text of ['', 'a day', '24', 'h', '1h 30m', '-1h', '1w', '1h30', '1.h']) expect(parseDuration(text), text).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it('spells a duration in its largest exact unit', () => {
    expect(formatDuration(86_400_000)).toBe('24h');
    expect(formatDuration(5_400_000)).toBe('90m');
    expect(formatDuration(0)).toBe('0s');
  });
});
