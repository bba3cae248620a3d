// Freeze windows (#27 item 7): what a window is, what is an error, and whether a time falls inside.
import { afterAll, describe, expect, it } from 'vitest';
import { FreezeWindowError, FreezeWindows, parseFreezeWindow } from '../../src/daemon/freeze.js';

const opened: FreezeWindows[] = [];
afterAll(() => {
  for (const w of opened) w.close();
});

function windows(...texts: string[]): FreezeWindows {
  const made = new FreezeWindows(texts.map((t) => parseFreezeWindow(t, '--freeze')));
  opened.push(made);
  return made;
}

const at = (iso: string): number => Date.parse(iso);

describe('parseFreezeWindow', () => {
  it('reads a cron of five fields, a duration and an optional time zone (UTC otherwise)', () => {
    expect(parseFreezeWindow('0 22 * * 5   60h', '--freeze')).toEqual({ text: '0 22 * * 5 60h', cron: '0 22 * * 5', durationMs: 60 * 3_600_000, timeZone: 'UTC' });
    expect(parseFreezeWindow('30 9 * * 1-5 1h30m Europe/Berlin', '--freeze')).toMatchObject({ durationMs: 90 * 60_000, timeZone: 'Europe/Berlin' });
    expect(parseFreezeWindow('@daily 2h', '--freeze')).toMatchObject({ cron: '0 0 * * *', durationMs: 7_200_000 });
  });

  it.each([
    ['0 22 * * 5', 'a cron of five fields (minute hour day-of-month month day-of-week), then a duration'],
    ['0 61 * * 5 1h', 'not a cron expression: 61 is not a valid expression for hour'],
    ['0 22 * * 5 soon', '"soon" is not a duration of at least a minute'],
    ['0 22 * * 5 30s', '"30s" is not a duration of at least a minute'],
    ['0 22 * * 5 40d', '40d is longer than 744h, the longest window'],
    ['0 22 * * 5 1h Mars/Olympus', '"Mars/Olympus" is not a time zone'],
    ['0 0 22 * * 5 1h', "six cron fields: a window's cron has five (minute hour day-of-month month day-of-week), no seconds"],
    ['@fortnightly 1h', 'unknown cron nickname @fortnightly'],
  ])('refuses "%s", naming where it came from', (text, why) => {
    expect(() => parseFreezeWindow(text, 'WSYNC_FREEZE')).toThrow(FreezeWindowError);
    expect(() => parseFreezeWindow(text, 'WSYNC_FREEZE')).toThrow(`WSYNC_FREEZE "${text}": ${why}`);
  });
});

describe('FreezeWindows.stateAt', () => {
  it('is inside from the time the cron names until the duration has passed, and outside otherwise', () => {
    const friday = windows('0 22 * * 5 60h');
    // 2026-11-27 is a Friday.
    expect(friday.stateAt(at('2026-11-27T21:59:00Z'))).toBeUndefined();
    expect(friday.stateAt(at('2026-11-27T22:00:00Z'))).toEqual({ window: '0 22 * * 5 60h', since: at('2026-11-27T22:00:00Z'), until: at('2026-11-30T10:00:00Z') });
    expect(friday.stateAt(at('2026-11-30T09:59:59Z'))?.until).toBe(at('2026-11-30T10:00:00Z'));
    expect(friday.stateAt(at('2026-11-30T10:00:00Z'))).toBeUndefined();
  });

  it('reads the cron in the window\'s time zone', () => {
    const berlin = windows('0 9 * * * 1h Europe/Berlin');
    expect(berlin.stateAt(at('2026-11-28T08:30:00Z'))?.since).toBe(at('2026-11-28T08:00:00Z'));
    expect(berlin.stateAt(at('2026-11-28T09:30:00Z'))).toBeUndefined();
  });

  it('takes the window that ends last, and the day fields node-cron knows (the last day of the month)', () => {
    const both = windows('0 9 * * * 2h', '30 9 * * * 4h');
    expect(both.stateAt(at('2026-11-28T10:00:00Z'))).toMatchObject({ window: '30 9 * * * 4h', until: at('2026-11-28T13:30:00Z') });
    const monthEnd = windows('0 12 L * * 1d');
    expect(monthEnd.stateAt(at('2026-11-30T18:00:00Z'))?.since).toBe(at('2026-11-30T12:00:00Z'));
    expect(monthEnd.stateAt(at('2026-11-29T18:00:00Z'))).toBeUndefined();
  });

  it('finds a start a month back', () => {
    const christmas = windows('0 0 20 12 * 20d');
    expect(christmas.stateAt(at('2027-01-08T23:00:00Z'))?.since).toBe(at('2026-12-20T00:00:00Z'));
    expect(christmas.stateAt(at('2027-01-09T00:00:00Z'))).toBeUndefined();
  });

  describe('across a change of the zone\'s clock, as cron reads it', () => {
    it('starts a window whose time the clock skips at the jump (Berlin 02:00 -> 03:00 on 2027-03-28), not never', () => {
      const night = windows('30 2 * * * 2h Europe/Berlin');
      expect(night.stateAt(at('2027-03-28T00:59:00Z'))).toBeUndefined();
      expect(night.stateAt(at('2027-03-28T01:00:00Z'))).toEqual({ window: '30 2 * * * 2h Europe/Berlin', since: at('2027-03-28T01:00:00Z'), until: at('2027-03-28T03:00:00Z') });
      expect(night.stateAt(at('2027-03-28T02:59:00Z'))?.since).toBe(at('2027-03-28T01:00:00Z'));
      expect(night.stateAt(at('2027-03-28T03:00:00Z'))).toBeUndefined();
      // The days around it are as written: 02:30 CET and 02:30 CEST.
      expect(night.stateAt(at('2027-03-27T01:30:00Z'))?.since).toBe(at('2027-03-27T01:30:00Z'));
      expect(night.stateAt(at('2027-03-29T00:30:00Z'))?.since).toBe(at('2027-03-29T00:30:00Z'));
      // A time just before the jump, or at the new hour, is not moved.
      expect(windows('59 1 * * * 1h Europe/Berlin').stateAt(at('2027-03-28T01:30:00Z'))?.since).toBe(at('2027-03-28T00:59:00Z'));
      expect(windows('0 3 * * * 1h Europe/Berlin').stateAt(at('2027-03-28T01:30:00Z'))?.since).toBe(at('2027-03-28T01:00:00Z'));
    });

    it('reads the skipped time on the day the cron names (New York on a Sunday; Santiago, whose clock skips midnight)', () => {
      expect(windows('15 2 * * 0 90m America/New_York').stateAt(at('2027-03-14T07:10:00Z'))).toMatchObject({ since: at('2027-03-14T07:00:00Z'), until: at('2027-03-14T08:30:00Z') });
      expect(windows('15 2 * * 6 90m America/New_York').stateAt(at('2027-03-14T07:10:00Z'))).toBeUndefined();
      expect(windows('0 0 * * 0 1h America/Santiago').stateAt(at('2027-09-05T04:30:00Z'))).toMatchObject({ since: at('2027-09-05T04:00:00Z'), until: at('2027-09-05T05:00:00Z') });
      expect(windows('0 0 * * 6 1h America/Santiago').stateAt(at('2027-09-05T04:30:00Z'))).toBeUndefined();
    });

    it('starts a window whose time the clock repeats once, at its first occurrence (Berlin 03:00 -> 02:00 on 2027-10-31), unless the cron names every hour', () => {
      const night = windows('30 2 * * * 2h Europe/Berlin');
      expect(night.stateAt(at('2027-10-31T00:30:00Z'))).toMatchObject({ since: at('2027-10-31T00:30:00Z'), until: at('2027-10-31T02:30:00Z') });
      // 01:30Z is 02:30 again, on the clock turned back: the window goes on, it does not start again.
      expect(night.stateAt(at('2027-10-31T01:31:00Z'))?.since).toBe(at('2027-10-31T00:30:00Z'));
      expect(night.stateAt(at('2027-10-31T02:30:00Z'))).toBeUndefined();
      const hourly = windows('30 * * * * 10m Europe/Berlin');
      expect(hourly.stateAt(at('2027-10-31T00:35:00Z'))?.since).toBe(at('2027-10-31T00:30:00Z'));
      expect(hourly.stateAt(at('2027-10-31T01:35:00Z'))?.since).toBe(at('2027-10-31T01:30:00Z'));
    });
  });
});
