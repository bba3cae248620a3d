// How one event is written for each kind of target.
import { createHmac } from 'node:crypto';
import type { NotificationEvent } from './events.js';

export const SIGNATURE_HEADER = 'x-wsync-signature-256';
export const TIMESTAMP_HEADER = 'x-wsync-timestamp';
export const EVENT_HEADER = 'x-wsync-event';
export const DELIVERY_HEADER = 'x-wsync-delivery';

export interface OutgoingMessage {
  body: string;
  headers: Record<string, string>;
}

export interface MessageContext {
  /** Names this daemon in messages: host and directory. */
  source: { host: string; dir: string };
  /** Unique per delivery (receivers use it to drop a duplicate). */
  deliveryId: string;
  /** Unix seconds, signed with the body so an old message cannot be replayed as new. */
  timestamp: number;
}

/**
 * `sha256=HEX`: HMAC-SHA256 with the shared secret over `TIMESTAMP.BODY`. The receiver recomputes
 * it from the x-wsync-timestamp header and the raw body, compares in constant time, and refuses a
 * timestamp too far from its own clock.
 */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The generic webhook: the event as JSON (version 1), signed when a secret is configured. */
export function webhookMessage(event: NotificationEvent, ctx: MessageContext, secret: string | undefined): OutgoingMessage {
  const body = JSON.stringify({ version: 1, id: ctx.deliveryId, ...event, source: ctx.source });
  const headers: Record<string, string> = {
    [EVENT_HEADER]: event.type,
    [DELIVERY_HEADER]: ctx.deliveryId,
    [TIMESTAMP_HEADER]: String(ctx.timestamp),
  };
  if (secret !== undefined) headers[SIGNATURE_HEADER] = signature(secret, ctx.timestamp, body);
  return { body, headers };
}

const SLACK_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Slack reads `<...>` as links and mentions: text from files or the API must not make any. */
function slackText(text: string): string {
  return text.replace(/[&<>]/g, (c) => SLACK_ESCAPES[c] ?? c);
}

const ICONS: Record<NotificationEvent['severity'], string> = { error: ':red_circle:', warning: ':warning:', info: ':large_green_circle:' };
const MAX_SLACK_DRIFT_LINES = 10;

/** A Slack incoming webhook: one `text` message (mrkdwn), escaped. */
export function slackMessage(event: NotificationEvent, ctx: MessageContext): OutgoingMessage {
  const lines = [`${ICONS[event.severity]} *${slackText(event.summary)}*`];
  lines.push(`${slackText(ctx.source.host)} · \`${slackText(ctx.source.dir)}\` · ${event.type} · ${event.at}`);
  for (const refusal of event.refusals ?? []) lines.push(`• ${slackText(refusal)}`);
  const drift = event.drift ?? [];
  for (const d of drift.slice(0, MAX_SLACK_DRIFT_LINES)) lines.push(`• ${slackText(`${d.action} ${d.kind}/${d.key}`)}`);
  if (drift.length > MAX_SLACK_DRIFT_LINES) lines.push(`… and ${drift.length - MAX_SLACK_DRIFT_LINES} more`);
  const overwritten = event.overwritten ?? [];
  for (const o of overwritten.slice(0, MAX_SLACK_DRIFT_LINES)) {
    lines.push(`• ${slackText(`${o.kind}/${o.key} (id ${o.id}): version ${o.replacedVersion} written over`)}`);
  }
  if (overwritten.length > MAX_SLACK_DRIFT_LINES) lines.push(`… and ${overwritten.length - MAX_SLACK_DRIFT_LINES} more`);
  return { body: JSON.stringify({ text: lines.join('\n') }), headers: {} };
}
