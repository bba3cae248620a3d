// `npm run demo` (after its build): plan, apply and plan again of config-examples/ against the
// emulator it starts itself, empty (nothing seeded), ending with "no changes"; no demo secret is
// ever printed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnNode } from '../support/cli.js';
import { ROOT } from '../support/paths.js';

describe('npm run demo', () => {
  it('plans, applies, plans again with no changes, prints where to look next and stops everything', async () => {
    const result = await spawnNode([join(ROOT, 'scripts', 'demo.mjs')]).done;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/Emulator listening on http:\/\/127\.0\.0\.1:\d+/);
    // An empty workspace: nothing seeded, the examples' datasets are created first.
    expect(out).toMatch(/Emulator listening on http:\/\/127\.0\.0\.1:\d+ \(in memory, an empty workspace\)/);
    expect(out).toContain('Plan: 22 to create, 0 to update, 0 to delete, 0 to adopt.');
    expect(out).toContain('Apply complete: 22 created, 0 updated, 0 deleted, 0 adopted, 0 failed, 0 skipped');
    expect(out.slice(out.lastIndexOf('$ wsync plan'))).toContain('No changes.');
    expect(out).toContain('Where to look next');
    expect(out).toContain('wsync run');
    for (const secret of ['demo-not-a-real-secret', 'demo-pagerduty-routing-key-not-real', 'demo-incident-webhook-token-not-real']) {
      expect(out + result.stderr).not.toContain(secret);
    }
    // It stopped the emulator and left nothing running: the process exited on its own.
    expect(result.signal).toBeNull();
  });
});
