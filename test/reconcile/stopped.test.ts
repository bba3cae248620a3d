// A reconcile stopped (SIGTERM) before its changes were made is its own result, not "applied".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { reconcile } from '../../src/reconcile/index.js';

const TOKEN = 'reconcile-stopped-token';
let emulator: RunningEmulator;
let work: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, token: TOKEN });
  work = mkdtempSync(join(tmpdir(), 'wsync-stopped-'));
  writeFileSync(join(work, 'orgs.yaml'), 'apiVersion: wsync/v1\nkind: Org\nmetadata:\n  name: acme\n');
});
afterAll(async () => {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a stopped reconcile', () => {
  it('ends as "stopped" when the stop came before its writes, with nothing written', async () => {
    const client = createApiClient({ url: emulator.url, token: () => TOKEN });
    const stop = new AbortController();
    stop.abort();
    try {
      const outcome = await reconcile({
        dir: work,
        env: {},
        client,
        stateDir: join(work, '.wsync'),
        policy: DEFAULT_POLICY,
        mode: 'apply',
        signal: stop.signal,
      });
      expect(outcome.status).toBe('stopped');
      expect(outcome.result).toMatchObject({ aborted: true, created: 0, failed: 0, skipped: 1, writes: 0 });
    } finally {
      await client.close();
    }
  });
});
