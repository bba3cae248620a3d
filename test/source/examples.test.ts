import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KindName } from '../../src/core/types.js';
import { isKindName, KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { checkReferences, readDesired } from '../../src/source/index.js';
import { packageRoot } from '../../src/util/package-root.js';
import { yamlFilesUnder } from '../support/tree.js';

const root = packageRoot();
const examples = join(root, 'config-examples');
const ENV = {
  WSYNC_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/example',
  WSYNC_PAGERDUTY_ROUTING_KEY: 'example-routing-key',
  WSYNC_INCIDENT_WEBHOOK_TOKEN: 'example-token',
};

// A demo should not create organizations; the end-to-end tests declare one of their own. Dataset
// fields come from ingest: on the empty workspace the examples converge from, one would wait for
// data for ever (config-examples/README.md shows one). A UserRole never creates its user, who is
// not in that empty workspace (the README shows one too).
const WITHOUT_EXAMPLE: readonly KindName[] = ['Org', 'DatasetField', 'UserRole'];

const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)$/;

describe('config-examples', () => {
  it('every example validates: no errors, no warnings', async () => {
    const desired = await readDesired(examples, { env: ENV });
    expect(desired.diagnostics).toEqual([]);
    expect(checkReferences(desired.resources)).toEqual([]);
    expect(desired.resources.length).toBeGreaterThanOrEqual(9);
    // Whatever else lives there (deployment manifests) is skipped, not mistaken for resources.
    expect(desired.resources.length + desired.stats.skipped).toBe(desired.stats.documents);
    // Every kind has its example: the demo and the end-to-end tests run them against the emulator.
    for (const kind of KIND_NAMES.filter((k) => !WITHOUT_EXAMPLE.includes(k))) {
      expect(desired.resources.some((r) => r.kind === kind), kind).toBe(true);
    }
  });

  const resourceFiles = yamlFilesUnder(examples).filter((f) => readFileSync(f, 'utf8').includes('apiVersion: wsync/v1'));

  it('has resource files', () => {
    expect(resourceFiles.length).toBeGreaterThan(5);
  });

  it.each(resourceFiles.map((f) => [relative(examples, f), f]))(
    '%s starts every document with a yaml-language-server line naming its kind\'s schema',
    (_name, file) => {
      const text = readFileSync(file, 'utf8');
      expect(text.split('\n')[0]).toMatch(SCHEMA_LINE);
      for (const document of text.split(/^---$/m)) {
        const first = document.replace(/^\n/, '').split('\n')[0] ?? '';
        const schemaPath = SCHEMA_LINE.exec(first)?.[1];
        expect(schemaPath, first).toBeDefined();
        const kind = /^kind: (\w+)$/m.exec(document)?.[1] ?? '';
        expect(isKindName(kind)).toBe(true);
        const target = resolve(dirname(file), schemaPath!);
        expect(target).toBe(join(root, 'schemas', KINDS[kind as keyof typeof KINDS].schemaFile));
        expect(statSync(target).isFile()).toBe(true);
      }
    },
  );
});
