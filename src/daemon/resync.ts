import { schedule, type ScheduledTask } from 'node-cron';
import type { Logger } from './logger.js';

/** The drift-correcting resync on a cron schedule (node-cron), its own chatter at debug. */
export class ResyncSchedule {
  private task: ScheduledTask | null = null;

  constructor(
    private readonly expression: string | null,
    private readonly log: Logger,
    /** Asks for a resync; false when it was not taken (a retry is already armed). */
    private readonly resync: () => boolean,
  ) {}

  start(): void {
    if (this.expression === null) return;
    const log = this.log;
    const text = (m: string | Error): string => (m instanceof Error ? m.message : String(m));
    const cronLog = {
      info: (m: string) => log.debug({ cron: m }, 'schedule'),
      warn: (m: string) => log.debug({ cron: m }, 'schedule'),
      error: (m: string | Error) => log.warn({ cron: text(m) }, 'schedule error'),
      debug: (m: string | Error) => log.debug({ cron: text(m) }, 'schedule'),
    };
    const tick = (): void => {
      if (!this.resync()) log.debug('scheduled resync skipped: a retry is already armed');
    };
    this.task = schedule(this.expression, tick, { name: 'wsync-resync', logger: cronLog });
  }

  async stop(): Promise<void> {
    const task = this.task;
    this.task = null;
    if (task) await Promise.resolve(task.destroy()).catch(() => undefined);
  }
}
