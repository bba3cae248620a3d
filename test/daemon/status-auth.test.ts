// --status-auth: the status page and /status show the tree's path, names and error texts, so they
// can be made to require the control token; health, readiness and metrics stay open for probes
// and scrapers (metrics carry no names, paths or error texts).
import { describe, expect, it } from 'vitest';
import { useInProcessDaemons } from '../support/daemon.js';
import { useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';
import { notifierYaml } from '../support/yaml.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-status-auth-');
const startDaemon = useInProcessDaemons(emulator);
const TOKEN = 'status-auth-control-token-0123456789';

describe('the daemon with --status-auth', () => {
  it('answers the status page and /status with 401 without the token, serves them with it; health, readiness and metrics stay open', async () => {
    const tree = scratch.tree({ 'team-secret-project/notifiers.yaml': notifierYaml('incident-room-7') });
    const { daemon, waitFor } = await startDaemon({ dir: tree, stateDir: `${tree}/.wsync`, controlToken: () => TOKEN, statusAuth: true });
    await waitFor((l) => l.msg === 'reconcile' && l.result === 'applied');
    const url = daemon.url;
    for (const path of ['/', '/status']) {
      for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', `Basic ${TOKEN}`]) {
        const res = await fetch(`${url}${path}`, authorization ? { headers: { authorization } } : {});
        const body = await res.text();
        expect(res.status, `${path} ${authorization}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(body).not.toContain(tree);
        expect(body).not.toContain('incident-room-7');
      }
      const ok = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status, path).toBe(200);
      expect(await ok.text()).toContain(path === '/status' ? JSON.stringify(tree) : 'reconcile');
    }
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${url}${path}`)).status, path).toBe(200);
  });

  it('without it, the status page and /status stay open as before', async () => {
    const tree = scratch.tree({ 'notifiers.yaml': notifierYaml('open-status') });
    const { daemon, waitFor } = await startDaemon({ dir: tree, stateDir: `${tree}/.wsync`, controlToken: () => TOKEN });
    await waitFor((l) => l.msg === 'reconcile');
    expect((await fetch(`${daemon.url}/status`)).status).toBe(200);
    expect((await fetch(`${daemon.url}/`)).status).toBe(200);
  });
});
