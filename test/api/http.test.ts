import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, httpRequest, type Agent } from '../../src/api/http.js';
import { assertBuilt, ROOT } from '../support/paths.js';
import { startScriptServer, type ScriptServer } from './script-server.js';

describe('the HTTP layer over undici modules', () => {
  let server: ScriptServer | undefined;
  let agent: Agent | undefined;
  afterEach(async () => {
    await agent?.destroy();
    await server?.close();
    agent = undefined;
    server = undefined;
  });

  it('sends method, path with query, headers and body, and reads status, headers and body', async () => {
    server = await startScriptServer(() => ({ status: 201, headers: { 'x-answer': 'yes' }, body: { ok: true } }));
    agent = createAgent({ connections: 1 });
    const res = await httpRequest(agent, `${server.url}/v2/monitors?limit=2&q=a%20b`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"name":"m"}',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-answer']).toBe('yes');
    expect(JSON.parse(await res.body.text())).toEqual({ ok: true });
    const [seen] = server.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/v2/monitors?limit=2&q=a%20b', body: '{"name":"m"}' });
    expect(seen?.headers.authorization).toBe('Bearer t');
  });

  it('honours an abort signal', async () => {
    server = await startScriptServer(() => ({ delayMs: 2_000, body: {} }));
    agent = createAgent({ connections: 1 });
    const controller = new AbortController();
    const pending = httpRequest(agent, new URL(`${server.url}/slow`), { method: 'GET', headers: {}, signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow();
  });

  it('never loads the whole of undici (its index costs about 100 ms at every start)', () => {
    assertBuilt();
    // A child process, so that what vitest itself loaded does not count.
    const script = `
      const { createRequire } = await import('node:module');
      await import(${JSON.stringify(`file://${join(ROOT, 'dist', 'api', 'client.js')}`)});
      await import(${JSON.stringify(`file://${join(ROOT, 'dist', 'api', 'webhook.js')}`)});
      const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
      const loaded = Object.keys(require.cache);
      console.log(JSON.stringify({
        index: loaded.some((f) => /node_modules[\\\\/]undici[\\\\/]index\\.js$/.test(f)),
        agent: loaded.some((f) => /undici[\\\\/]lib[\\\\/]dispatcher[\\\\/]agent\\.js$/.test(f)),
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ index: false, agent: true });
  });
});
