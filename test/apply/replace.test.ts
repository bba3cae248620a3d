// A kind replaced rather than updated, without a secret in the answer (today only API tokens are
// replaced, and they carry one): the replacement's answer is the new object, recorded as owned
// under its new id. The registry is given such a kind here.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { applyPlan } from '../../src/apply/index.js';
import type { Change, Plan } from '../../src/core/types.js';
import { openState } from '../../src/state/index.js';
import { startScriptServer, type ScriptServer } from '../api/script-server.js';
import { desiredOf, liveOf, obj, resource } from '../plan/builders.js';
import { removeDir, tempDir } from '../support/tree.js';

vi.mock('../../src/kinds/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/kinds/index.js')>();
  const { update: _inPlace, ...virtualField } = original.KINDS.VirtualField;
  const replace = {
    reason: 'replaced',
    request: (id: string, body: Record<string, unknown>) => ({ endpoint: { method: 'POST' as const, path: `/v2/vfields/${id}/replace` }, body }),
  };
  return { ...original, KINDS: { ...original.KINDS, VirtualField: { ...virtualField, replace } } };
});

let server: ScriptServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await removeDir(dir);
});

describe('replace without an issued secret', () => {
  it('posts the replacement and owns the new object under its new id', async () => {
    server = await startScriptServer(() => ({ body: { id: 'vfld_2', name: 'dur', dataset: 'http', expression: 'd / 1e3' } }));
    const client = createApiClient({ url: server.url, token: () => 'test-token', maxRetries: 0 });
    dir = await tempDir('wsync-replace-');
    const state = await openState(join(dir, 'state'), { lock: true });
    const declared = resource('VirtualField', 'dur', { dataset: 'http', expression: 'd / 1e3' });
    const live = liveOf([obj('VirtualField', { id: 'vfld_1', name: 'dur', dataset: 'http', expression: 'd / 1000' })]);
    const change: Change = { kind: 'VirtualField', key: 'http/dur', name: 'dur', action: 'replace', id: 'vfld_1', diffs: [], dependsOn: [], level: 2, owned: true };
    const plan = { version: 1, changes: [change], diagnostics: [], refusals: [] } as unknown as Plan;
    try {
      const result = await applyPlan({ plan, desired: desiredOf(declared), live, client, state, concurrency: 1 });
      expect(result).toMatchObject({ replaced: 1, failed: 0, writes: 1 });
      expect(result.events[0]).toMatchObject({ outcome: 'done', id: 'vfld_2' });
      expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v2/vfields/vfld_1/replace']);
      expect(state.inventory.entries).toEqual([{ kind: 'VirtualField', key: 'http/dur', id: 'vfld_2' }]);
    } finally {
      await state.close();
      await client.close();
    }
  });
});
