// The real emulator, in-process on 127.0.0.1, plus its test hooks (docs/wire-contract.md).
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';

export const ADMIN_TOKEN = 'emulator-admin-token-for-api-tests';

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  at: string;
}

export interface TestEmulator {
  url: string;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  seed(seed: unknown): Promise<void>;
  faults(faults: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ port: 0, token: ADMIN_TOKEN, seed: 42, ...options });
  const hook = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text === '' ? null : (JSON.parse(text) as unknown);
  };
  return {
    url: emulator.url,
    requests: async () => (await hook('GET', '/_emulator/requests')) as LoggedRequest[],
    clearRequests: async () => {
      await hook('DELETE', '/_emulator/requests');
    },
    seed: async (seed) => {
      await hook('POST', '/_emulator/seed', seed);
    },
    faults: async (faults) => {
      await hook('POST', '/_emulator/faults', faults);
    },
    close: () => emulator.close(),
  };
}

/** A workspace with some of every kind: 3 datasets with fields, users, vfields, and `queries` starred queries. */
export function workspaceSeed(queries: number): Record<string, unknown> {
  const users = [
    { id: 'usr_00000000000000a1', name: 'Ada', email: 'ada@example.com', role: 'user' },
    { id: 'usr_00000000000000b2', name: 'Bob', email: 'bob@example.com', role: 'read-only' },
  ];
  return {
    datasets: [
      { name: 'checkout', fields: [{ name: 'status', type: 'integer' }, { name: 'duration_ms', type: 'float', unit: 'ms' }] },
      { name: 'payments', fields: [{ name: 'amount', type: 'float', unit: 'EUR' }] },
      { name: 'http-logs', fields: [{ name: 'path', type: 'string' }] },
    ],
    users,
    notifiers: [
      { name: 'oncall-slack', properties: { slack: { slackUrl: 'https://hooks.slack.com/services/T/B/X' } } },
      { name: 'ops-email', properties: { email: { emails: ['ops@example.com'] } } },
    ],
    vfields: [
      { dataset: 'checkout', name: 'is_error', expression: 'status >= 500' },
      { dataset: 'checkout', name: 'slow', expression: 'duration_ms > 1000' },
      { dataset: 'payments', name: 'big', expression: 'amount > 100' },
    ],
    starredQueries: Array.from({ length: queries }, (_, i) => ({
      kind: 'apl',
      name: `query-${String(i).padStart(4, '0')}`,
      who: users[i % 2]!.id,
      query: { apl: "['checkout'] | count" },
      metadata: {},
    })),
  };
}
