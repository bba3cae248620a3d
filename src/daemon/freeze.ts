// Freeze windows (#27 item 7, Argo CD's sync windows): `CRON DURATION [TIMEZONE]`; from each time
// the cron names, for DURATION, the daemon plans and reports but writes nothing. node-cron checks
// the expression and matches the day fields (L, W, #) in the time zone; the hour and minute lists
// it parses let the search skip what cannot match, so a month-long window costs a few ms.
import { createTask, parse as parseCron, validateDetailed, type ScheduledTask } from 'node-cron';
import { formatDuration, parseDuration } from '../core/duration.js';

/** The longest window: a holiday freeze, not a way to stop the daemon for good. */
export const MAX_FREEZE_MS = 31 * 86_400_000;
const MINUTE = 60_000;

const NICKNAMES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A window as written, made ready to ask. */
export interface FreezeWindow {
  /** As written (`0 22 * * 5 60h Europe/Berlin`). */
  text: string;
  cron: string;
  durationMs: number;
  timeZone: string;
}

export class FreezeWindowError extends Error {}

function checkTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `CRON DURATION [TIMEZONE]` (five cron fields or an @nickname; UTC unless a zone is named); throws FreezeWindowError naming `where`. */
export function parseFreezeWindow(text: string, where: string): FreezeWindow {
  const words = text.trim().split(/\s+/).filter((w) => w !== '');
  const fail = (why: string): never => {
    throw new FreezeWindowError(`${where} "${text}": ${why}; expected "CRON DURATION [TIMEZONE]", e.g. "0 22 * * 5 60h" (Friday 22:00 UTC for 60 hours)`);
  };
  const nickname = words[0]?.startsWith('@') === true;
  const cronWords = nickname ? 1 : 5;
  if (words.length < cronWords + 1) fail(nickname ? 'no duration after the cron' : 'a cron of five fields (minute hour day-of-month month day-of-week), then a duration');
  if (words.length > cronWords + 2) fail(`${words.length - cronWords} words after the cron (a duration and at most a time zone; seconds are not a field of a window's cron)`);
  const cron = nickname ? (NICKNAMES[words[0] ?? ''] ?? fail(`unknown cron nickname ${words[0] ?? ''}`)) : words.slice(0, 5).join(' ');
  const checked = validateDetailed(cron);
  if (!checked.valid) fail(`not a cron expression: ${checked.errors.map((e) => e.message.replace(' a invalid ', ' not a valid ')).join('; ')}`);
  const durationText = words[cronWords] ?? '';
  const durationMs = parseDuration(durationText);
  if (durationMs === undefined && !nickname && parseDuration(words[cronWords + 1] ?? '') !== undefined) {
    fail('six cron fields: a window\'s cron has five (minute hour day-of-month month day-of-week), no seconds');
  }
  if (durationMs === undefined || durationMs < MINUTE) fail(`"${durationText}" is not a duration of at least a minute (90m, 2h, 1d12h)`);
  if ((durationMs ?? 0) > MAX_FREEZE_MS) fail(`${durationText} is longer than ${formatDuration(MAX_FREEZE_MS)}, the longest window`);
  const timeZone = words[cronWords + 1] ?? 'UTC';
  if (!checkTimeZone(timeZone)) fail(`"${timeZone}" is not a time zone (an IANA name such as Europe/Berlin, or UTC)`);
  return { text: text.trim().split(/\s+/).join(' '), cron, durationMs: durationMs ?? 0, timeZone };
}

/** Where now falls: inside a window (which, and until when), or outside all of them. */
export interface FreezeState {
  window: string;
  /** Epoch ms the window began and ends. */
  since: number;
  until: number;
}

/** The longest change of a zone's clock (Lord Howe's is 30 minutes, most are an hour). */
const MAX_CLOCK_CHANGE = 3 * 3_600_000;
/** How far apart two samples of a zone's offset are: no zone changes its clock twice within it. */
const OFFSET_STEP = 6 * 3_600_000;

/** A zone's offset from UTC at a time, and the times its clock jumps forward. */
class ZoneOffsets {
  private readonly parts: Intl.DateTimeFormat;

  constructor(timeZone: string) {
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
  }

  /** Minutes the zone's wall clock is ahead of UTC at `t`. */
  offsetMinutes(t: number): number {
    const f: Record<string, number> = {};
    for (const part of this.parts.formatToParts(t)) if (part.type !== 'literal') f[part.type] = Number(part.value);
    const wall = Date.UTC(f.year ?? 1970, (f.month ?? 1) - 1, f.day ?? 1, f.hour ?? 0, f.minute ?? 0);
    return Math.round((wall - (t - (t % MINUTE))) / MINUTE);
  }

  /** Each minute in (after, at] at which the clock jumped forward, and by how many minutes. */
  forwardJumps(after: number, at: number): { at: number; skippedMinutes: number }[] {
    const jumps: { at: number; skippedMinutes: number }[] = [];
    let from = after - (after % MINUTE);
    let before = this.offsetMinutes(from);
    while (from < at) {
      const to = Math.min(from + OFFSET_STEP, at - (at % MINUTE));
      const later = this.offsetMinutes(to);
      if (later > before) {
        // The first minute with the new offset, by halving (from has the old one, to the new).
        let lo = from;
        let hi = to;
        while (hi - lo > MINUTE) {
          const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
          if (this.offsetMinutes(mid) > before) hi = mid;
          else lo = mid;
        }
        if (hi > after && hi <= at) jumps.push({ at: hi, skippedMinutes: later - before });
      }
      if (to <= from) break;
      from = to;
      before = later;
    }
    return jumps;
  }
}

/** A window's cron, matched in its zone: the whole expression, and its day fields alone. */
class WindowMatcher {
  readonly hours: ReadonlySet<number>;
  readonly minutes: readonly number[];
  private readonly task: ScheduledTask;
  private readonly day: ScheduledTask;
  private readonly clockParts: Intl.DateTimeFormat;
  private readonly offsets: ZoneOffsets;
  /** The cron names every hour: each hour a clock turned back repeats is a start of its own. */
  private readonly everyHour: boolean;

  constructor(readonly window: FreezeWindow) {
    const fields = parseCron(window.cron);
    this.hours = new Set(fields.hour);
    this.minutes = [...fields.minute].sort((a, b) => b - a);
    const [, , dom, month, dow] = window.cron.split(' ');
    const options = { timezone: window.timeZone, name: `wsync-freeze ${window.text}` };
    this.task = createTask(window.cron, () => undefined, options);
    this.day = createTask(`* * ${dom ?? '*'} ${month ?? '*'} ${dow ?? '*'}`, () => undefined, { ...options, name: `${options.name} (days)` });
    this.clockParts = new Intl.DateTimeFormat('en-US', { timeZone: window.timeZone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric' });
    this.offsets = new ZoneOffsets(window.timeZone);
    this.everyHour = this.hours.size === 24;
  }

  /** The wall-clock hour and minute in the window's zone. */
  private local(at: number): { hour: number; minute: number } {
    let hour = 0;
    let minute = 0;
    for (const part of this.clockParts.formatToParts(at)) {
      if (part.type === 'hour') hour = Number(part.value);
      else if (part.type === 'minute') minute = Number(part.value);
    }
    return { hour, minute };
  }

  /**
   * The latest start in (after, at], to the minute; undefined when none. Across a change of the
   * zone's clock it reads as cron does: a time the clock skips (02:30 when it jumps from 02:00 to
   * 03:00) starts the window at the jump, and a time it repeats (turned back an hour) starts it
   * once, at its first occurrence, unless the cron names every hour.
   */
  latestStart(after: number, at: number): number | undefined {
    const wallStart = this.latestWallStart(after, at);
    const skipped = this.latestSkippedStart(after, at);
    if (skipped === undefined) return wallStart;
    return wallStart === undefined || skipped > wallStart ? skipped : wallStart;
  }

  /** The latest time in (after, at] whose wall clock the cron names. */
  private latestWallStart(after: number, at: number): number | undefined {
    let t = at - (at % MINUTE);
    while (t > after) {
      const { hour, minute } = this.local(t);
      const sinceDayStart = (hour * 60 + minute) * MINUTE;
      if (!this.day.match(new Date(t))) {
        t -= sinceDayStart + MINUTE;
        continue;
      }
      if (!this.hours.has(hour)) {
        t -= (minute + 1) * MINUTE;
        continue;
      }
      const candidate = this.minutes.find((m) => m <= minute);
      if (candidate === undefined) {
        t -= (minute + 1) * MINUTE;
        continue;
      }
      t -= (minute - candidate) * MINUTE;
      if (t > after && this.task.match(new Date(t)) && !this.repeated(t)) return t;
      t -= MINUTE;
    }
    return undefined;
  }

  /** The wall-clock time of `t` was shown before, the clock having been turned back since. */
  private repeated(t: number): boolean {
    if (this.everyHour) return false;
    const earlier = this.offsets.offsetMinutes(t - MAX_CLOCK_CHANGE) - this.offsets.offsetMinutes(t);
    if (earlier <= 0) return false;
    const first = t - earlier * MINUTE;
    return this.offsets.offsetMinutes(first) - this.offsets.offsetMinutes(t) === earlier;
  }

  /** The latest jump of the clock in (after, at] that skipped a time the cron names: the window starts at the jump. */
  private latestSkippedStart(after: number, at: number): number | undefined {
    const jumps = this.offsets.forwardJumps(after, at);
    for (let i = jumps.length - 1; i >= 0; i--) {
      const { at: jump, skippedMinutes } = jumps[i]!;
      const { hour, minute } = this.local(jump);
      for (let back = 1; back <= skippedMinutes; back++) {
        const ofDay = hour * 60 + minute - back;
        const wall = ((ofDay % 1440) + 1440) % 1440;
        // A skipped time before midnight belongs to the day before the jump.
        const dayOf = ofDay < 0 ? jump - MINUTE : jump;
        if (!this.hours.has(Math.floor(wall / 60)) || !this.minutes.includes(wall % 60)) continue;
        if (this.day.match(new Date(dayOf))) return jump;
      }
    }
    return undefined;
  }

  destroy(): void {
    void this.task.destroy();
    void this.day.destroy();
  }
}

/** The daemon's freeze windows: whether a time falls inside one, and until when. */
export class FreezeWindows {
  private readonly matchers: WindowMatcher[];

  constructor(windows: readonly FreezeWindow[]) {
    this.matchers = windows.map((w) => new WindowMatcher(w));
  }

  get windows(): string[] {
    return this.matchers.map((m) => m.window.text);
  }

  /** The window `at` falls in, the one that ends last when several do; undefined outside them all. */
  stateAt(at: number): FreezeState | undefined {
    let found: FreezeState | undefined;
    for (const matcher of this.matchers) {
      const start = matcher.latestStart(at - matcher.window.durationMs, at);
      if (start === undefined) continue;
      const until = start + matcher.window.durationMs;
      if (found === undefined || until > found.until) found = { window: matcher.window.text, since: start, until };
    }
    return found;
  }

  close(): void {
    for (const matcher of this.matchers) matcher.destroy();
  }
}
