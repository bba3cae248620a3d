// A reconcile stopped (SIGTERM) before its changes were made is its own result, not "applied".
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/types.js';
import { reconcile } from '../../src/reconcile/index.js';
import { apiClientFor, useTestEmulator } from '../support/emulator.js';
import { useScratch } from '../support/tree.js';

const emulator = useTestEmulator();
const scratch = useScratch('wsync-stopped-');
const work = scratch.tree({ 'orgs.yaml': 'apiVersion: wsync/v1\nkind: Org\nmetadata:\n  name: acme\n' });

describe('a stopped reconcile', () => {
  it('ends as "stopped" when the stop came before its writes, with nothing written', async () => {
    const client = apiClientFor(emulator);
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
