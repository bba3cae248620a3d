// `wsync run --env A --env B` (or --all-environments): one process, one port, one workspace each.
// Each environment is a Daemon of its own (connection, state directory and writer lease, schedule,
// retries and backoff, suspend/resume, metrics, status): one that fails (its server down, its
// token refused) retries on its own and never holds the others back.
import { safeMessage } from '../../core/safe-text.js';
import { Daemon, type DaemonConfig } from '../daemon.js';
import { startHttpServer, type HttpServer, type ListenAddress } from '../http.js';
import type { Logger } from '../logger.js';
import { multiRoutes, type Workspace } from './routes.js';

export interface MultiDaemonConfig {
  listen: ListenAddress;
  /** Each environment's daemon, without a port of its own. */
  workspaces: readonly { name: string; config: DaemonConfig }[];
  controlToken?: () => string;
  statusAuth?: boolean;
  logger: Logger;
}

export class MultiDaemon {
  private server: HttpServer | null = null;
  private stopping: Promise<void> | null = null;

  private constructor(
    private readonly daemons: readonly { name: string; daemon: Daemon }[],
    private readonly log: Logger,
  ) {}

  /**
   * Starts every environment's daemon, then serves the port. One that cannot start is logged and
   * left out; none starting is an error.
   */
  static async start(config: MultiDaemonConfig): Promise<MultiDaemon> {
    const started = await Promise.allSettled(
      config.workspaces.map(({ config: c }, i) => Daemon.start({ ...c, serve: false, processMetrics: i === 0 })),
    );
    const daemons: { name: string; daemon: Daemon }[] = [];
    started.forEach((result, i) => {
      const name = config.workspaces[i]?.name ?? '';
      if (result.status === 'fulfilled') daemons.push({ name, daemon: result.value });
      else config.logger.error({ env: name, err: safeMessage(result.reason instanceof Error ? result.reason.message : String(result.reason)) }, 'environment could not start');
    });
    if (daemons.length === 0) throw new Error('no environment could start');
    const multi = new MultiDaemon(daemons, config.logger);
    const workspaces: Workspace[] = daemons.map(({ name, daemon }) => ({ name, view: daemon.view() }));
    multi.server = await startHttpServer(
      config.listen,
      multiRoutes({ workspaces, controlToken: config.controlToken, statusAuth: config.statusAuth, stopping: () => multi.stopping !== null }),
    );
    config.logger.info({ url: multi.server.url, environments: daemons.map((d) => d.name), control: config.controlToken !== undefined }, 'listening');
    return multi;
  }

  get url(): string {
    return this.server?.url ?? '';
  }

  /** The daemon of one environment (tests, and whatever needs one workspace's view). */
  environment(name: string): Daemon | undefined {
    return this.daemons.find((d) => d.name === name)?.daemon;
  }

  /** SIGHUP: every environment re-reads its configuration and reconciles. */
  reload(): void {
    for (const { daemon } of this.daemons) daemon.reload();
  }

  /** Stops every environment at once (each lets its write in flight finish), then closes the port. */
  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      await Promise.all(this.daemons.map(({ daemon }) => daemon.stop(reason)));
      await this.server?.close();
      this.log.info('stopped');
    })();
    return this.stopping;
  }
}
