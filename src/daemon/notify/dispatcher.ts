// Delivers the events the tracker decides on, off the reconcile's path: publish() only queues, one
// delivery runs at a time in the background, each bounded by a timeout, the queue by a size and
// each target by a rate. Nothing here can hold a reconcile up or take the daemon down.
import { randomUUID } from 'node:crypto';
import type { WebhookPost } from '../../api/webhook.js';
import { createRedactor } from '../../core/redact.js';
import { safeMessage } from '../../core/safe-text.js';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import type { Logger } from '../logger.js';
import { ProblemTracker, type NotificationEvent, type NotificationType, type ReconcileReport } from './events.js';
import { slackMessage, webhookMessage, type OutgoingMessage } from './messages.js';

export interface NotificationTarget {
  /** Names the target in logs and metric labels (never its URL: a Slack URL is a secret). */
  name: string;
  type: 'webhook' | 'slack';
  /** Read at each delivery, so a rotated secret file takes effect. */
  url: () => string;
  /** The generic webhook's HMAC key. */
  secret?: () => string;
  /** The events it gets; all when absent. */
  events?: readonly NotificationType[];
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'dropped' | 'rate_limited';

export interface DispatcherOptions {
  targets: readonly NotificationTarget[];
  send: (req: WebhookPost) => Promise<number>;
  source: { host: string; dir: string };
  log: Pick<Logger, 'warn' | 'info' | 'debug'>;
  clock?: Clock;
  /** Per delivery; the sender's own timeouts are a second bound. */
  timeoutMs?: number;
  /** Undelivered messages kept; beyond it the oldest is dropped. */
  queueSize?: number;
  /** Per target: `burst` messages at once, then one per `refillMs`. */
  rateLimit?: { burst: number; refillMs: number };
  onOutcome?: (target: string, type: NotificationType, outcome: DeliveryOutcome) => void;
  newId?: () => string;
}

interface Job {
  target: NotificationTarget;
  event: NotificationEvent;
}

/** A target's rate limit: the messages it may still be sent now, refilled one per interval from `at`. */
interface Bucket {
  messagesLeft: number;
  at: number;
}

export const DEFAULT_NOTIFY_TIMEOUT_MS = 5_000;
export const DEFAULT_NOTIFY_QUEUE = 100;
export const DEFAULT_RATE_LIMIT = { burst: 5, refillMs: 60_000 };

export class NotificationDispatcher {
  private readonly tracker = new ProblemTracker();
  private readonly opts: DispatcherOptions;
  private readonly clock: Clock;
  private readonly queue: Job[] = [];
  private readonly buckets = new Map<string, Bucket>();
  private inFlight: AbortController | null = null;
  private pumping: Promise<void> = Promise.resolve();
  private busy = false;
  private closed = false;

  constructor(opts: DispatcherOptions) {
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
  }

  get targets(): readonly NotificationTarget[] {
    return this.opts.targets;
  }

  /** Called once per reconcile; returns at once. */
  reconciled(report: ReconcileReport): void {
    for (const event of this.tracker.observe(report)) this.publish(event);
  }

  publish(event: NotificationEvent): void {
    if (this.closed) return;
    for (const target of this.opts.targets) {
      if (target.events && !target.events.includes(event.type)) continue;
      if (!this.take(target.name)) {
        this.outcome(target, event, 'rate_limited');
        this.opts.log.warn({ target: target.name, event: event.type }, 'notification not sent: rate limit');
        continue;
      }
      this.queue.push({ target, event });
      const size = this.opts.queueSize ?? DEFAULT_NOTIFY_QUEUE;
      while (this.queue.length > size) {
        const dropped = this.queue.shift() as Job;
        this.outcome(dropped.target, dropped.event, 'dropped');
        this.opts.log.warn({ target: dropped.target.name, event: dropped.event.type }, 'notification dropped: queue full');
      }
    }
    if (!this.busy && this.queue.length > 0) {
      this.busy = true;
      this.pumping = this.pump();
    }
  }

  /** Resolves once everything queued has been attempted. */
  idle(): Promise<void> {
    return this.pumping;
  }

  /** Stops: what is queued is dropped (and counted), the delivery in flight is cut off. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.outcome(job.target, job.event, 'dropped');
    this.inFlight?.abort();
    await this.pumping;
  }

  private async pump(): Promise<void> {
    try {
      for (let job = this.queue.shift(); job !== undefined && !this.closed; job = this.queue.shift()) await this.deliver(job);
    } finally {
      this.busy = false;
    }
  }

  private take(name: string): boolean {
    const { burst, refillMs } = this.opts.rateLimit ?? DEFAULT_RATE_LIMIT;
    const now = this.clock.now();
    const bucket = this.buckets.get(name) ?? { messagesLeft: burst, at: now };
    const refilled = Math.min(burst, bucket.messagesLeft + Math.floor((now - bucket.at) / refillMs));
    // Keep the remainder of a partly refilled interval.
    const at = refilled === burst ? now : bucket.at + Math.floor((now - bucket.at) / refillMs) * refillMs;
    if (refilled < 1) {
      this.buckets.set(name, { messagesLeft: refilled, at });
      return false;
    }
    this.buckets.set(name, { messagesLeft: refilled - 1, at });
    return true;
  }

  private async deliver(job: Job): Promise<void> {
    const { target, event } = job;
    const controller = new AbortController();
    this.inFlight = controller;
    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_NOTIFY_TIMEOUT_MS;
    const timer: TimerHandle = this.clock.setTimeout(() => controller.abort(), timeoutMs);
    const secrets: string[] = [];
    try {
      const url = target.url();
      secrets.push(url);
      const message = this.message(target, event, secrets);
      // The abort decides even when the sender ignores the signal: a dead receiver costs at most timeoutMs.
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(new Error(`no answer within ${timeoutMs} ms`)), { once: true });
      });
      const status = await Promise.race([this.opts.send({ url, body: message.body, headers: message.headers, signal: controller.signal }), aborted]);
      if (status >= 200 && status < 300) {
        this.outcome(target, event, 'delivered');
        this.opts.log.info({ target: target.name, event: event.type, status }, 'notification sent');
      } else {
        this.outcome(target, event, 'failed');
        this.opts.log.warn({ target: target.name, event: event.type, status }, 'notification failed');
      }
    } catch (err) {
      this.outcome(target, event, 'failed');
      const text = err instanceof Error ? err.message : String(err);
      this.opts.log.warn({ target: target.name, event: event.type, err: safeMessage(createRedactor(secrets)(text)) }, 'notification failed');
    } finally {
      this.clock.clearTimeout(timer);
      this.inFlight = null;
    }
  }

  private message(target: NotificationTarget, event: NotificationEvent, secrets: string[]): OutgoingMessage {
    const ctx = { source: this.opts.source, deliveryId: (this.opts.newId ?? randomUUID)(), timestamp: Math.floor(this.clock.now() / 1000) };
    if (target.type === 'slack') return slackMessage(event, ctx);
    const secret = target.secret?.();
    if (secret !== undefined) secrets.push(secret);
    return webhookMessage(event, ctx, secret);
  }

  private outcome(target: NotificationTarget, event: NotificationEvent, outcome: DeliveryOutcome): void {
    this.opts.onOutcome?.(target.name, event.type, outcome);
  }
}
