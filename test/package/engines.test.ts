// Node versions, honestly: the README names the versions the suite runs on, `engines` says the
// same, and no locked package asks for more, so `npm ci` on a Node the README names warns of
// nothing (EBADENGINE).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean; minVersion(range: string): { version: string } | null };
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};
/** The lowest release of each major `engines` allows. */
const lowest = manifest.engines.node.split('||').map((part) => semver.minVersion(part.trim())!.version);

describe('Node versions', () => {
  it('engines names exactly the majors the README says are tested, and CI runs each', () => {
    expect(manifest.engines.node).toBe('^20.19.0 || ^22.13.0 || ^24.0.0');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('Node 20 (20.19 or later), 22 (22.13 or later) or 24: the whole test suite runs green on each');
    const ci = readFileSync(join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8');
    expect(ci).toContain('node: ["20", "22", "24"]');
    expect(lowest).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
  });

  it('no locked package asks for a Node the README names as working (npm ci warns of nothing)', () => {
    for (const version of lowest) {
      const refused = Object.entries(lock.packages)
        .filter(([path, entry]) => path !== '' && !entry.optional && !Array.isArray(entry.engines) && entry.engines?.node !== undefined)
        .filter(([, entry]) => !semver.satisfies(version, (entry.engines as { node: string }).node))
        .map(([path, entry]) => `${path}: ${(entry.engines as { node: string }).node}`);
      expect(refused, version).toEqual([]);
    }
  });
});
