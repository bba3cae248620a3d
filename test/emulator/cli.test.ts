// The CLI contract scripts rely on: first stdout line `listening on http://127.0.0.1:PORT`, --port 0
// picks a free port, flags reach the server, SIGTERM stops it cleanly (flushing --state).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './harness.js';

const entry = path.join(repoRoot, 'test/emulator/cli-entry.ts');

function startCli(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', entry, 'emulator', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
}

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(line));
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)} before printing: ${stderr}`)));
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('wsync emulator (CLI)', () => {
  it('prints the URL first, serves with the given token and rate limit, and stops on SIGTERM', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'wsync-emulator-cli-'));
    const stateFile = path.join(directory, 'state.json');
    const child = startCli(['--port', '0', '--token', 'cli-token', '--rate-limit', '50', '--seed', '3', '--state', stateFile]);
    try {
      const line = await firstLine(child);
      expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.replace('listening on ', '');
      expect(Number(new URL(url).port)).toBeGreaterThan(0);
      const answer = await fetch(`${url}/v2/notifiers`, {
        method: 'POST',
        headers: { authorization: 'Bearer cli-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'from-cli', properties: { slack: { slackUrl: 'https://x' } } }),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('50');
      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const state = JSON.parse(await readFile(stateFile, 'utf8')) as { notifiers: { name: string }[] };
      expect(state.notifiers.map((notifier) => notifier.name)).toEqual(['from-cli']);
    } finally {
      child.kill('SIGKILL');
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('takes the admin token from WSYNC_EMULATOR_TOKEN and the seed file from --seed-file', async () => {
    const child = startCli(['--seed-file', path.join(repoRoot, 'scripts/demo-seed.json')], { WSYNC_EMULATOR_TOKEN: 'env-token' });
    try {
      const url = (await firstLine(child)).replace('listening on ', '');
      const answer = await fetch(`${url}/v2/datasets`, { headers: { authorization: 'Bearer env-token' } });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as unknown[]).length).toBe(3);
      const exited = exitOf(child);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses bad flag values with a message', async () => {
    const child = startCli(['--fault-rate', '1.5']);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitOf(child)).not.toBe(0);
    expect(stderr).toMatch(/probability from 0 to 1/);
  });
});
