// The CLI contract scripts rely on: first stdout line `listening on http://127.0.0.1:PORT`, --port 0
// picks a free port, flags reach the server, SIGTERM stops it cleanly (flushing --state).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startEmulatorProcess } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { useScratch } from '../support/tree.js';

const scratch = useScratch('wsync-emulator-cli-');

describe('wsync emulator (CLI)', () => {
  it('prints the URL first, serves with the given token and rate limit, and stops on SIGTERM', async () => {
    const stateFile = path.join(await scratch.dir(), 'state.json');
    const emulator = await startEmulatorProcess(['--token', 'cli-token', '--rate-limit', '50', '--seed', '3', '--state', stateFile]);
    try {
      expect(await emulator.cli.firstLine()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = emulator.url;
      expect(Number(new URL(url).port)).toBeGreaterThan(0);
      const answer = await fetch(`${url}/v2/notifiers`, {
        method: 'POST',
        headers: { authorization: 'Bearer cli-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'from-cli', properties: { slack: { slackUrl: 'https://x' } } }),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('50');
      expect(await emulator.stop('SIGTERM')).toBe(0);
      const state = JSON.parse(await readFile(stateFile, 'utf8')) as { notifiers: { name: string }[] };
      expect(state.notifiers.map((notifier) => notifier.name)).toEqual(['from-cli']);
    } finally {
      emulator.cli.child.kill('SIGKILL');
    }
  });

  it('takes the admin token from WSYNC_EMULATOR_TOKEN and the seed file from --seed-file', async () => {
    const emulator = await startEmulatorProcess(['--seed-file', DEMO_SEED_FILE], { env: { WSYNC_EMULATOR_TOKEN: 'env-token' } });
    try {
      const answer = await fetch(`${emulator.url}/v2/datasets`, { headers: { authorization: 'Bearer env-token' } });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as unknown[]).length).toBe(3);
      expect(await emulator.stop('SIGINT')).toBe(0);
    } finally {
      emulator.cli.child.kill('SIGKILL');
    }
  });

  it('refuses bad flag values with a message', async () => {
    const result = await runCli(['emulator', '--fault-rate', '1.5']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/probability from 0 to 1/);
  });
});
