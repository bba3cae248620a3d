import { hostname } from 'node:os';
import { createWebhookSender } from '../../api/webhook.js';
import type { DaemonConfig } from '../config.js';
import type { DaemonMetrics } from '../metrics.js';
import { NotificationDispatcher } from './dispatcher.js';

/** The daemon's notification dispatcher and the webhook sender it posts through, closed together. */
export interface Notifications {
  dispatcher: NotificationDispatcher;
  close(): Promise<void>;
}

/** The notifications the configuration names; null when it names no target. */
export function startNotifications(config: DaemonConfig, metrics: DaemonMetrics): Notifications | null {
  const options = config.notifications;
  if (!options || options.targets.length === 0) return null;
  const webhooks = createWebhookSender({ timeoutMs: options.timeoutMs });
  const dispatcher = new NotificationDispatcher({
    targets: options.targets,
    send: (req) => webhooks.post(req),
    source: { host: hostname(), dir: config.dir },
    log: config.logger,
    timeoutMs: options.timeoutMs,
    onOutcome: (target, event, outcome) => metrics.notificationsTotal.inc({ target, event, outcome }),
  });
  return {
    dispatcher,
    close: async () => {
      await dispatcher.close();
      await webhooks.close().catch(() => undefined);
    },
  };
}
