import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('generated spec types', () => {
  it('are up to date with schemas/', () => {
    const root = join(import.meta.dirname, '..');
    const out = execFileSync(process.execPath, [join(root, 'scripts', 'gen-types.mjs'), '--check'], { encoding: 'utf8' });
    expect(out).toContain('up to date');
  });
});
