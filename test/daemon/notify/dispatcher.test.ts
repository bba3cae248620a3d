import { describe, expect, it } from 'vitest';
import type { WebhookPost } from '../../../src/api/webhook.js';
import { signature } from '../../../src/daemon/notify/messages.js';
import { NotificationDispatcher, type DeliveryOutcome, type NotificationTarget } from '../../../src/daemon/notify/dispatcher.js';
import { Scheduler } from '../../../src/daemon/scheduler.js';
import { FakeClock, flush } from '../../support/fake-clock.js';

interface LogEntry {
  level: string;
  fields: unknown;
  msg: string;
}

function setup(send: (req: WebhookPost) => Promise<number>, opts: { targets?: NotificationTarget[]; queueSize?: number; rateLimit?: { burst: number; refillMs: number } } = {}) {
  const clock = new FakeClock();
  const logs: LogEntry[] = [];
  const outcomes: string[] = [];
  const log = {
    info: (fields: unknown, msg: string) => logs.push({ level: 'info', fields, msg }),
    warn: (fields: unknown, msg: string) => logs.push({ level: 'warn', fields, msg }),
    debug: (fields: unknown, msg: string) => logs.push({ level: 'debug', fields, msg }),
  } as unknown as ConstructorParameters<typeof NotificationDispatcher>[0]['log'];
  const dispatcher = new NotificationDispatcher({
    targets: opts.targets ?? [{ name: 'hook', type: 'webhook', url: () => 'https://hooks.example/secret-path-123', secret: () => 'hmac-secret-xyz' }],
    send,
    source: { host: 'h', dir: '/ws' },
    log,
    clock,
    timeoutMs: 5000,
    queueSize: opts.queueSize,
    rateLimit: opts.rateLimit,
    onOutcome: (target, event, outcome: DeliveryOutcome) => outcomes.push(`${target} ${event} ${outcome}`),
    newId: () => 'delivery-1',
  });
  return { clock, logs, outcomes, dispatcher };
}

const failed = { result: 'failed' as const, revision: null, at: '2026-01-01T00:00:00.000Z', trigger: 'retry', message: 'boom', refusals: [], drift: [], observing: false };

describe('NotificationDispatcher', () => {
  it('posts the event signed with HMAC-SHA256 over timestamp and body', async () => {
    const posts: WebhookPost[] = [];
    const { dispatcher, outcomes, clock } = setup(async (req) => {
      posts.push(req);
      return 204;
    });
    await clock.advance(1_700_000_000_000);
    dispatcher.reconciled(failed);
    await dispatcher.idle();
    expect(posts).toHaveLength(1);
    const post = posts[0] as WebhookPost;
    const body = JSON.parse(post.body) as Record<string, unknown>;
    expect(body).toMatchObject({ version: 1, id: 'delivery-1', type: 'reconcile.failed', result: 'failed', message: 'boom', source: { host: 'h', dir: '/ws' } });
    expect(post.headers['x-wsync-timestamp']).toBe('1700000000');
    expect(post.headers['x-wsync-signature-256']).toBe(signature('hmac-secret-xyz', 1700000000, post.body));
    expect(post.body).not.toContain('hmac-secret-xyz');
    expect(outcomes).toEqual(['hook reconcile.failed delivered']);
  });

  it('a dead receiver never holds a reconcile up: deliveries time out on the clock, reconciles go on', async () => {
    const { dispatcher, outcomes, logs, clock } = setup(() => new Promise<number>(() => undefined));
    let runs = 0;
    let n = 0;
    const scheduler = new Scheduler({
      clock,
      debounceMs: 10,
      backoffInitialMs: 1000,
      backoffMaxMs: 1000,
      run: async () => {
        runs++;
        dispatcher.reconciled({ ...failed, message: `problem ${String.fromCharCode(97 + n++)}` });
        return 'failure';
      },
    });
    scheduler.request('start');
    await flush();
    // Every reconcile ran at its retry time although no delivery has ever been answered.
    await clock.advance(3000);
    expect(runs).toBe(4);
    expect(outcomes.filter((o) => o.endsWith('failed'))).toEqual([]);
    await clock.advance(5000);
    expect(outcomes.filter((o) => o.endsWith('failed'))).toHaveLength(1);
    expect(runs).toBe(9);
    const failure = logs.find((l) => l.msg === 'notification failed');
    expect(JSON.stringify(failure)).toContain('no answer within 5000 ms');
    expect(JSON.stringify(logs)).not.toMatch(/secret-path-123|hmac-secret-xyz/);
    await scheduler.stop();
    await dispatcher.close();
  });

  it('rate-limits per target and drops the oldest beyond the queue, counting both', async () => {
    const { dispatcher, outcomes, clock } = setup(() => new Promise<number>(() => undefined), { queueSize: 2, rateLimit: { burst: 4, refillMs: 60_000 } });
    for (const m of ['a', 'b', 'c', 'd', 'e']) dispatcher.reconciled({ ...failed, message: m });
    // One in flight, two queued, one dropped for room, one over the rate.
    expect(outcomes).toEqual(['hook reconcile.failed dropped', 'hook reconcile.failed rate_limited']);
    await clock.advance(60_000);
    dispatcher.reconciled({ ...failed, message: 'f' });
    expect(outcomes.at(-1)).not.toBe('hook reconcile.failed rate_limited');
    await dispatcher.close();
  });

  it('an error answer and an error thrown are counted as failed, with secrets out of the log', async () => {
    let answer: () => Promise<number> = async () => 500;
    const { dispatcher, outcomes, logs } = setup(() => answer());
    dispatcher.reconciled(failed);
    await dispatcher.idle();
    answer = async () => {
      throw new Error('connect ECONNREFUSED for https://hooks.example/secret-path-123');
    };
    dispatcher.reconciled({ ...failed, message: 'other' });
    await dispatcher.idle();
    expect(outcomes).toEqual(['hook reconcile.failed failed', 'hook reconcile.failed failed']);
    const text = JSON.stringify(logs);
    expect(text).toContain('(sensitive)');
    expect(text).not.toContain('secret-path-123');
  });

  it('sends Slack a text message with what the files hold escaped, only the events a target asks for', async () => {
    const posts: WebhookPost[] = [];
    const { dispatcher } = setup(
      async (req) => {
        posts.push(req);
        return 200;
      },
      { targets: [{ name: 'slack', type: 'slack', url: () => 'https://hooks.slack.example/T/B/x', events: ['reconcile.failed'] }] },
    );
    dispatcher.reconciled({ ...failed, message: 'bad <!channel> & co' });
    dispatcher.reconciled({ ...failed, result: 'applied' });
    await dispatcher.idle();
    expect(posts).toHaveLength(1);
    const text = (JSON.parse((posts[0] as WebhookPost).body) as { text: string }).text;
    expect(text).toContain('bad &lt;!channel&gt; &amp; co');
    expect(text).not.toContain('<!channel>');
    expect(posts[0]?.headers['x-wsync-signature-256']).toBeUndefined();
  });
});
