// A pull request's author controls DIR/wsync.yaml: the real CLI must never send the workspace token
// to a server that only the tree names. A trap server on 127.0.0.1 records every request it gets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli as runWith } from '../support/cli.js';
import { startTestEmulator, TEST_TOKEN as TOKEN, type TestEmulator } from '../support/emulator.js';
import { removeDir, tempDir } from '../support/tree.js';

/** The CLI with `env` added to its clean environment. */
const runCli = (args: string[], env: Record<string, string | undefined>) => runWith(args, { env });

const ROLE = `apiVersion: wsync/v1
kind: Role
metadata:
  name: readers
spec:
  description: Read monitors.
  orgCapabilities:
    monitors: [read]
`;

interface Trap {
  url: string;
  /** Authorization headers of every request received. */
  seen: string[];
  close(): Promise<void>;
}

async function startTrap(): Promise<Trap> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '(none)');
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('a wsync.yaml in the tree cannot decide where the token goes', () => {
  let emulator: TestEmulator;
  let trap: Trap;
  let root: string;

  async function treeWith(name: string, config: string): Promise<string> {
    const dir = join(root, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'roles.yaml'), ROLE);
    await writeFile(join(dir, 'wsync.yaml'), config);
    return dir;
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    trap = await startTrap();
    root = await tempDir();
  });
  afterAll(async () => {
    await Promise.all([emulator.close(), trap.close(), removeDir(root)]);
  });
  beforeEach(async () => {
    trap.seen.length = 0;
    await emulator.clearRequests();
  });

  it('plan, apply and run refuse a URL only the tree names, and send nothing anywhere', async () => {
    const dir = await treeWith('url-only', `# a pull request's change\nurl: ${trap.url}\n`);
    const env = { WSYNC_TOKEN: TOKEN };
    const state = join(root, 'state-url-only');
    for (const args of [['plan', dir], ['apply', dir], ['run', dir, '--listen', '127.0.0.1:0']]) {
      const result = await runCli([...args, '--state-dir', state], env);
      expect(result.code, args[0]).toBe(1);
      expect(result.stderr).toMatch(/wsync\.yaml:2:1: url: the API URL is named only by wsync\.yaml, which is part of the tree/);
      expect(result.stderr).toContain('set --url or WSYNC_URL');
      expect(result.stderr + result.stdout).not.toContain(TOKEN);
    }
    expect(trap.seen).toEqual([]);
    expect(await emulator.requests()).toEqual([]);
    // validate sends nothing and needs no trust: it still passes.
    expect((await runCli(['validate', dir], env)).code).toBe(0);
  });

  it('sends the token only to the URL the environment names when the tree names another', async () => {
    const dir = await treeWith('url-differs', `url: ${trap.url}\n`);
    const result = await runCli(['plan', dir, '--state-dir', join(root, 'state-differs'), '--detailed-exitcode'], emulator.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/\+ create\s+Role\/readers/);
    expect(trap.seen).toEqual([]);
    expect((await emulator.requests()).length).toBeGreaterThan(0);
  });

  it('reads no token from a token file only the tree names, nor uses an organization or plain http only it allows', async () => {
    const secret = join(root, 'another-token');
    await writeFile(secret, 'a-token-the-pr-should-not-pick\n');
    const dir = await treeWith('routing', `tokenFile: ${secret}\norgId: someone-else\ninsecure: true\n`);
    const result = await runCli(['plan', dir, '--state-dir', join(root, 'state-routing')], { WSYNC_URL: emulator.url });
    expect(result.code).toBe(1);
    expect([...result.stderr.matchAll(/wsync\.yaml:\d+:1: (\w+): /g)].map((m) => m[1])).toEqual(['tokenFile', 'orgId', 'insecure']);
    expect(result.stderr).not.toContain('a-token-the-pr-should-not-pick');
    expect(await emulator.requests()).toEqual([]);
  });

  it('reads ${file:} secrets from a directory outside the tree only on the word of a flag, the environment or trust', async () => {
    const outside = join(root, 'outside-secrets');
    await mkdir(outside, { recursive: true });
    const dir = await treeWith('secrets-outside', `# a pull request's change\nsecretsDir: ${outside}\n`);
    const refused = await runCli(['plan', dir, '--state-dir', join(root, 'state-secrets')], emulator.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/wsync\.yaml:2:1: secretsDir: a secrets directory outside the tree is named only by wsync\.yaml/);
    expect(refused.stderr).toContain('set --secrets-dir or WSYNC_SECRETS_DIR');
    expect(await emulator.requests()).toEqual([]);
    for (const settled of [{ WSYNC_SECRETS_DIR: outside }, { WSYNC_TRUST_CONFIG: '1' }]) {
      const result = await runCli(['plan', dir, '--state-dir', join(root, 'state-secrets')], { ...emulator.env, ...settled });
      expect(result.stderr, JSON.stringify(settled)).toBe('');
      expect(result.code).toBe(0);
    }
    // Inside the tree, the files are the change's own, shown to its reviewer: no trust needed.
    const inside = await treeWith('secrets-inside', 'secretsDir: secrets\n');
    await mkdir(join(inside, 'secrets'));
    const plan = await runCli(['plan', inside, '--state-dir', join(root, 'state-secrets-inside')], emulator.env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
  });

  it("run refuses notification targets only the tree names (where events go, which files it reads); plan ignores them", async () => {
    const hmac = join(root, 'operator-hmac-key');
    await writeFile(hmac, 'an-operator-hmac-key\n');
    const config = `notifications:\n  targets:\n    - type: webhook\n      url: ${trap.url}/events\n      secretFile: ${hmac}\n`;
    const dir = await treeWith('notify-untrusted', config);
    const run = await runCli(['run', dir, '--listen', '127.0.0.1:0', '--state-dir', join(root, 'state-notify')], emulator.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/wsync\.yaml:1:1: notifications: targets named only by wsync\.yaml, which is part of the tree/);
    expect(run.stderr).toContain('--notify-webhook');
    expect(run.stderr).not.toContain('an-operator-hmac-key');
    expect(trap.seen).toEqual([]);
    const plan = await runCli(['plan', dir, '--state-dir', join(root, 'state-notify')], emulator.env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
  });

  it('uses the file where the operator says the tree is trusted (--trust-config, WSYNC_TRUST_CONFIG=1)', async () => {
    const dir = await treeWith('trusted', `url: ${emulator.url}\n`);
    const flag = await runCli(['plan', dir, '--state-dir', join(root, 'state-trusted'), '--trust-config'], { WSYNC_TOKEN: TOKEN });
    expect(flag.stderr).toBe('');
    expect(flag.code).toBe(0);
    expect(flag.stdout).toMatch(/\+ create\s+Role\/readers/);
    const env = await runCli(['plan', dir, '--state-dir', join(root, 'state-trusted')], { WSYNC_TOKEN: TOKEN, WSYNC_TRUST_CONFIG: '1' });
    expect(env.code).toBe(0);
    expect(trap.seen).toEqual([]);
  });
});
