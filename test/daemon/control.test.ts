import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerMatches, handleControl, type ControlAction } from '../../src/daemon/control.js';
import { parseListen, startHttpServer, type HttpServer } from '../../src/daemon/http.js';
import { ROOT } from '../support/paths.js';

const servers: HttpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('bearerMatches', () => {
  it('accepts exactly the configured token', () => {
    expect(bearerMatches('Bearer s3cret-token', 's3cret-token')).toBe(true);
    expect(bearerMatches('bearer s3cret-token', 's3cret-token')).toBe(true);
    expect(bearerMatches('Bearer s3cret-tokem', 's3cret-token')).toBe(false);
    expect(bearerMatches('Bearer s3cret-token-longer', 's3cret-token')).toBe(false);
    expect(bearerMatches('Bearer s3cret', 's3cret-token')).toBe(false);
    expect(bearerMatches('s3cret-token', 's3cret-token')).toBe(false);
    expect(bearerMatches(undefined, 's3cret-token')).toBe(false);
    expect(bearerMatches('Bearer ', '')).toBe(false);
  });

  it('compares in constant time: hashed to equal lengths, then crypto.timingSafeEqual, never === on the token', () => {
    const source = readFileSync(join(ROOT, 'src', 'daemon', 'control.ts'), 'utf8');
    const body = source.slice(source.indexOf('export function bearerMatches'), source.indexOf('export function handleControl'));
    expect(body).toContain('timingSafeEqual(digest(presented), digest(expected))');
    expect(body).not.toMatch(/presented\s*===?\s*expected|expected\s*===?\s*presented/);
  });
});

describe('handleControl', () => {
  const acted: ControlAction[] = [];
  const act = (a: ControlAction): Record<string, unknown> => {
    acted.push(a);
    return { ok: true };
  };

  it('is off without a token, 401 with a wrong one, acts only with the right one', () => {
    acted.length = 0;
    expect(handleControl({ token: null, act }, 'suspend', 'Bearer anything').status).toBe(403);
    const on = { token: () => 'the-control-token', act };
    expect(handleControl(on, 'suspend', 'Bearer wrong').status).toBe(401);
    expect(handleControl(on, 'suspend', undefined).status).toBe(401);
    expect(acted).toEqual([]);
    expect(handleControl(on, 'resume', 'Bearer the-control-token')).toEqual({ status: 200, body: { ok: true } });
    expect(acted).toEqual(['resume']);
    const unreadable = { token: () => { throw new Error('ENOENT /run/secrets/x'); }, act };
    expect(handleControl(unreadable, 'reconcile', 'Bearer x')).toEqual({ status: 503, body: { error: 'the control token cannot be read' } });
  });

  it('routes POST /suspend, /resume and /reconcile over HTTP, with WWW-Authenticate on a 401', async () => {
    acted.length = 0;
    const server = await startHttpServer(parseListen('127.0.0.1:0'), {
      healthz: () => ({ ok: true, body: 'ok\n' }),
      readyz: () => ({ ok: true, body: 'ready\n' }),
      metrics: async () => ({ contentType: 'text/plain', body: '' }),
      statusPage: () => '',
      statusJson: () => ({}),
      control: (action, authorization) => handleControl({ token: () => 'tok-123456', act }, action, authorization),
    });
    servers.push(server);
    const wrong = await fetch(`${server.url}/suspend`, { method: 'POST', headers: { authorization: 'Bearer tok-654321' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(JSON.stringify(await wrong.json())).not.toContain('tok-');
    for (const action of ['suspend', 'resume', 'reconcile']) {
      const res = await fetch(`${server.url}/${action}`, { method: 'POST', headers: { authorization: 'Bearer tok-123456' } });
      expect(res.status).toBe(200);
    }
    expect(acted).toEqual(['suspend', 'resume', 'reconcile']);
  });
});
