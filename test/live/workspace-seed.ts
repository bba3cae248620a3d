// A small workspace for the live-state readers' tests, in the emulator's seed-file format.

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
