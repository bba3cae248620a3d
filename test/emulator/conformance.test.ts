// Conformance (#13.10): every answer the emulator gives in these scenarios (successes and errors,
// lists and single objects, of every operation) is checked against the OpenAPI response schema of
// its operation and status; error statuses an operation does not document follow the error
// contract. Deliberate differences are listed in docs/wire-contract.md.
import { describe, expect, it } from 'vitest';
import { startTestEmulator, useTestEmulator, type Answer, type TestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { conformanceProblems, operationOf } from './conformance.js';
import { bodies, createFixtures, methodOf, OPERATIONS, unique, type Fixtures } from './fixtures.js';
import { requiredCapability } from './openapi.js';

const statusesSeen = new Set<number>();
const operationsSeen = new Set<string>();

/** A harness whose every answer to a /v2 request is checked; problems are collected, not thrown. */
function checked(inner: TestEmulator, problems: string[]): TestEmulator {
  const call: TestEmulator['call'] = async (method, path, options) => {
    const answer = await inner.call(method, path, options);
    statusesSeen.add(answer.status);
    const op = operationOf(method, path);
    if (op) operationsSeen.add(`${op} ${answer.status}`);
    problems.push(...conformanceProblems(method, path, answer));
    return answer;
  };
  const ok: TestEmulator['ok'] = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await call(method, path, { body });
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body as T;
  };
  return { ...inner, call, ok };
}

const inner = useTestEmulator({ seedFile: DEMO_SEED_FILE });

/** Runs a scenario against a checked harness and returns what did not conform. */
async function scenario(run: (h: TestEmulator) => Promise<void>, on: TestEmulator = inner): Promise<string[]> {
  const problems: string[] = [];
  await run(checked(on, problems));
  return problems;
}

const idOf = (answer: Answer): string => String((answer.body as { id: string }).id);

describe('every answer conforms to openapi-v2.json', () => {
  it('the success answer of every operation', async () => {
    const problems = await scenario(async (h) => {
      for (const operation of OPERATIONS) {
        const fx = await createFixtures(h);
        await h.call(methodOf(operation), `/v2${operation.path(fx)}`, { body: operation.body?.(fx) });
      }
    });
    expect(problems).toEqual([]);
  });

  it('lists and single objects of every kind, in every shape the emulator stores', async () => {
    const problems = await scenario(async (h) => {
      const fx = await createFixtures(h);
      await createFixtures(h);
      const soon = new Date(Date.now() + 3600_000).toISOString();
      const later = new Date(Date.now() + 7200_000).toISOString();
      const created = {
        pagerduty: await h.call('POST', '/v2/notifiers', {
          body: { name: unique('pd'), properties: { pagerduty: { routingKey: 'rk', token: 'tk' } }, disabledUntil: soon },
        }),
        webhook: await h.call('POST', '/v2/notifiers', {
          body: { name: unique('hook'), properties: { customWebhook: { url: 'https://example.com', body: '{}', headers: { a: 'b' } } } },
        }),
        mpl: await h.call('POST', '/v2/monitors', {
          body: { name: unique('mpl'), type: 'Threshold', mplQuery: 'checkout:requests | align to 5m using sum', threshold: 1 },
        }),
        anomaly: await h.call('POST', '/v2/monitors', {
          body: {
            ...bodies.monitor(fx),
            type: 'AnomalyDetection',
            tolerance: 10,
            compareDays: 7,
            disabled: true,
            disabledUntil: soon,
            secondDelay: 60,
          },
        }),
        annotation: await h.call('POST', '/v2/annotations', {
          body: { ...bodies.annotation(), endTime: later, description: 'd', url: 'https://example.com/pr/2' },
        }),
        token: await h.call('POST', '/v2/tokens', {
          body: {
            name: unique('token'),
            description: 'scoped',
            expiresAt: later,
            datasetCapabilities: { checkout: { query: ['read'], ingest: ['create'] } },
            viewCapabilities: { v: { query: ['read'] } },
          },
        }),
        role: await h.call('POST', '/v2/rbac/roles', {
          body: { ...bodies.role(fx), datasetCapabilities: { '*': { query: ['read'] } }, viewCapabilities: { v: { query: ['read'] } } },
        }),
        customRoleUser: await h.call('POST', '/v2/users', { body: { ...bodies.user(), role: fx.roleId } }),
      };
      await h.call('POST', `/v2/tokens/${idOf(created.token)}/regenerate`, {
        body: { existingTokenExpiresAt: soon, newToken: { name: unique('rotated'), orgCapabilities: { users: ['read'] } } },
      });
      const logs = await h.call('POST', '/v2/datasets', {
        body: { name: unique('ds'), kind: 'otel:logs:v1', retentionDays: 30, useRetentionPeriod: true },
      });
      await h.call('PUT', `/v2/datasets/${idOf(logs)}/mapfields`, { body: ['attributes', 'resource.labels'] });
      // A group directory sync made, as the service would answer it.
      const managedName = unique('managed');
      await inner.ok('POST', '/_emulator/seed', { groups: [{ name: managedName, isManaged: true, members: [fx.userId] }] });
      const emptyGroup = await h.call('POST', '/v2/rbac/groups', { body: { name: unique('empty') } });
      const bareView = await h.call('POST', '/v2/views', { body: { name: unique('bare'), aplQuery: "['checkout']" } });
      for (const path of [
        '/annotations',
        '/datasets',
        '/datasets/checkout',
        '/datasets/checkout/fields',
        '/monitors',
        '/notifiers',
        '/orgs',
        '/rbac/roles',
        '/rbac/groups',
        `/datasets/${idOf(logs)}`,
        `/datasets/${idOf(logs)}/mapfields`,
        `/datasets/${fx.datasetId}/mapfields`,
        '/views',
        `/views/${String((bareView.body as { name: string }).name)}`,
        `/views/${fx.viewId}`,
        '/apl-starred-queries?who=all',
        '/apl-starred-queries?dataset=checkout&who=all&limit=2&offset=1',
        '/tokens',
        '/user',
        '/users',
        '/vfields?dataset=checkout',
      ]) {
        await h.call('GET', `/v2${path}`);
      }
      const single: [string, Answer][] = [
        ['/notifiers', created.pagerduty],
        ['/notifiers', created.webhook],
        ['/monitors', created.mpl],
        ['/monitors', created.anomaly],
        ['/annotations', created.annotation],
        ['/tokens', created.token],
        ['/rbac/roles', created.role],
        ['/users', created.customRoleUser],
        ['/rbac/groups', emptyGroup],
      ];
      for (const [base, answer] of single) await h.call('GET', `/v2${base}/${idOf(answer)}`);
    });
    expect(problems).toEqual([]);
  });

  it('the error answers: unknown ids, bad bodies, missing or short tokens, conflicts, wrong methods', async () => {
    const problems = await scenario(async (h) => {
      const fx = await createFixtures(h);
      const unknown = Object.fromEntries(Object.keys(fx).map((key) => [key, 'unknown-0000'])) as unknown as Fixtures;
      const noCapabilities = await h.ok<{ token: string }>('POST', '/v2/tokens', { name: unique('powerless') });
      for (const operation of OPERATIONS) {
        const method = methodOf(operation);
        const path = `/v2${operation.path(fx)}`;
        if (operation.path(unknown) !== operation.path(fx)) {
          await h.call(method, `/v2${operation.path(unknown)}`, { body: operation.body?.(fx) });
        }
        if (operation.invalidBody) await h.call(method, path, { body: operation.invalidBody(fx) });
        if (operation.body) {
          await h.call(method, path);
          await h.call(method, path, { rawBody: '{"name": ' });
        }
        await h.call(method, path, { token: null });
        await h.call(method, path, { token: 'not-a-token' });
        if (requiredCapability(operation.op)) await h.call(method, path, { token: noCapabilities.token, body: operation.body?.(fx) });
      }
      await h.call('POST', '/v2/datasets', { body: { name: 'checkout' } });
      await h.call('POST', `/v2/datasets/${fx.datasetId}/mapfields`, { body: { name: 'attributes' } });
      await h.call('PUT', `/v2/datasets/${fx.datasetId}/mapfields`, { body: ['a', 'a'] });
      await h.call('DELETE', `/v2/datasets/${fx.datasetId}/mapfields/nothing-here`);
      await h.call('POST', '/v2/rbac/groups', { body: { name: 'g', roles: ['role_unknown'] } });
      await h.call('POST', '/v2/views', { body: { name: fx.viewId, aplQuery: "['checkout']" } });
      await h.call('PUT', `/v2/views/${fx.viewId}`, { body: { name: 'renamed', aplQuery: "['checkout']" } });
      const user = await h.ok<{ email: string }>('GET', `/v2/users/${fx.userId}`);
      await h.call('POST', '/v2/users', { body: { name: 'Twin', email: user.email, role: 'admin' } });
      const holder = await h.ok<{ id: string }>('POST', '/v2/users', { ...bodies.user(), role: fx.roleId });
      await h.call('DELETE', `/v2/rbac/roles/${fx.roleId}`);
      await h.call('DELETE', `/v2/users/${holder.id}`);
      await h.call('PATCH', '/v2/monitors');
      await h.call('GET', '/v2/no-such-endpoint');
      await h.call('GET', '/v2/vfields');
      await h.call('GET', '/v2/apl-starred-queries?limit=0');
      await h.call('POST', '/v2/notifiers', { rawBody: `{"name":"${'x'.repeat(11 * 1024 * 1024)}"}` });
    });
    expect(problems).toEqual([]);
    for (const status of [400, 401, 403, 404, 405, 409, 413]) expect(statusesSeen, `status ${status}`).toContain(status);
  });

  it('the answers of injected faults and of the rate limit', async () => {
    const limited = await startTestEmulator({ seedFile: DEMO_SEED_FILE, rateLimit: 1 });
    try {
      const problems = await scenario(async (h) => {
        const answers = await Promise.all([1, 2, 3].map(() => h.call('GET', '/v2/monitors')));
        expect(answers.map((answer) => answer.status)).toContain(429);
        await limited.ok('POST', '/_emulator/faults', { rateLimit: null, faultRate: 1, seed: 3 });
        for (let round = 0; round < 6; round += 1) await h.call('GET', '/v2/notifiers');
      }, limited);
      expect(problems).toEqual([]);
    } finally {
      await limited.close();
    }
    expect([...statusesSeen].filter((status) => status >= 500)).not.toEqual([]);
  });

  it('saw the documented success status of every operation', () => {
    const missing = OPERATIONS.map((operation) => operation.op).filter(
      (op) => ![...operationsSeen].some((seen) => seen.startsWith(`${op} 2`)),
    );
    expect(missing).toEqual([]);
  });
});

describe('the conformance check itself', () => {
  const answer = (status: number, body: unknown): Answer => ({
    status,
    headers: new Headers({ 'content-type': 'application/json' }),
    text: body === undefined ? '' : JSON.stringify(body),
    body,
  });

  it('finds the operation of a request, literal segments first', () => {
    expect(operationOf('GET', '/v2/monitors/mon_1')).toBe('GET /monitors/{id}');
    expect(operationOf('PUT', '/v2/users/usr_1/role')).toBe('PUT /users/{id}/role');
    expect(operationOf('GET', '/v2/user')).toBe('GET /user');
    expect(operationOf('GET', '/v2/vfields?dataset=a')).toBe('GET /vfields');
    expect(operationOf('PATCH', '/v2/monitors')).toBeUndefined();
  });

  it('flags a body that breaks the response schema, and accepts one that keeps it', () => {
    const monitor = { id: 'mon_1', name: 'm', type: 'Threshold' };
    expect(conformanceProblems('GET', '/v2/monitors/mon_1', answer(200, monitor))).toEqual([]);
    expect(conformanceProblems('GET', '/v2/monitors/mon_1', answer(200, { ...monitor, type: 'Sideways' }))).toHaveLength(1);
    expect(conformanceProblems('GET', '/v2/monitors', answer(200, [{ name: 'no id', type: 'Threshold' }]))).toHaveLength(1);
  });

  it('flags an undocumented success status, a body on a 204, and an error outside {code, message}', () => {
    expect(conformanceProblems('GET', '/v2/monitors', answer(201, []))).toHaveLength(1);
    expect(conformanceProblems('DELETE', '/v2/monitors/mon_1', answer(204, { deleted: true }))).toHaveLength(1);
    expect(conformanceProblems('GET', '/v2/monitors/x', answer(404, { message: 'gone' }))).toHaveLength(1);
    expect(conformanceProblems('GET', '/v2/monitors/x', answer(404, { code: 400, message: 'gone' }))).toHaveLength(1);
    expect(conformanceProblems('GET', '/v2/monitors/x', answer(404, { code: 404, message: 'gone' }))).toEqual([]);
  });
});
