// The emulator ships its own trimmed copy of the OpenAPI request schemas; this keeps the copy equal
// to what the published document gives.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

describe('src/emulator/wire-schemas.ts', () => {
  it('is what scripts/gen-emulator-schemas.mjs makes from openapi-v2.json', () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/gen-emulator-schemas.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
