// A webhook receiver on loopback for the daemon's notifications: every body it got, in order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface WebhookReceiver {
  /** The bodies received so far. */
  readonly received: string[];
  /** The receiver's URL (set once the suite started). */
  url(): string;
}

/** Starts a receiver before the suite's tests and closes it after them. */
export function useWebhookReceiver(): WebhookReceiver {
  const received: string[] = [];
  let server: Server | undefined;
  let url = '';
  beforeAll(async () => {
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(body);
        res.end('ok');
      });
    });
    server = receiver;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return { received, url: () => url };
}
