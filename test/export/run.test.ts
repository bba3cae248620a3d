import { describe, expect, it } from 'vitest';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { ExportUsageError, parseKinds, readScope, schemaBaseFor } from '../../src/export/run.js';

describe('parseKinds', () => {
  it('accepts kind names, lower case and plurals, in any order; returns them in dependency order', () => {
    expect(parseKinds('monitors, Notifier,role')).toEqual(['Role', 'Notifier', 'Monitor']);
    expect(parseKinds(undefined)).toEqual([...KIND_NAMES]);
  });

  it('names the known kinds when one is unknown', () => {
    expect(() => parseKinds('Monitor,Dashboards')).toThrow(ExportUsageError);
    expect(() => parseKinds('Monitor,Dashboards')).toThrow(/unknown kind "Dashboards" \(kinds: Role, Notifier/);
    expect(() => parseKinds(' , ')).toThrow(/at least one kind/);
  });
});

describe('readScope', () => {
  it('reads the kinds whose names the exported ones use, and every dataset for dataset-scoped kinds', () => {
    expect(readScope(['Monitor']).kinds).toEqual(['Notifier', 'Monitor']);
    expect(readScope(['Role']).kinds).toEqual(['Role', 'User']);
    expect(readScope(['StarredQuery']).kinds).toEqual(['User', 'StarredQuery']);
    const fields = readScope(['VirtualField', 'DatasetField']);
    expect(fields.allDatasets).toEqual(['VirtualField', 'DatasetField']);
    expect(readScope(['Notifier']).allDatasets).toBeUndefined();
  });
});

describe('schemaBaseFor', () => {
  it('keeps a URL, and makes a path relative to the output directory', () => {
    expect(schemaBaseFor('/tmp/out', 'https://example.com/schemas', '/opt/wsync/schemas')).toBe('https://example.com/schemas');
    expect(schemaBaseFor('/tmp/out', undefined, '/opt/wsync/schemas')).toBe('../../opt/wsync/schemas');
    expect(schemaBaseFor('/repo/config', '/repo/schemas', '/opt/wsync/schemas')).toBe('../schemas');
    expect(schemaBaseFor('/repo', '/repo', '/opt/wsync/schemas')).toBe('.');
  });
});
