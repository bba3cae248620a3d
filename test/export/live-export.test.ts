import { describe, expect, it } from 'vitest';
import { readScope, schemaBaseFor } from '../../src/export/live-export.js';

describe('readScope', () => {
  it('reads the kinds whose names the exported ones use, and every dataset for dataset-scoped kinds', () => {
    expect(readScope(['Monitor']).kinds).toEqual(['Notifier', 'Monitor']);
    expect(readScope(['Role']).kinds).toEqual(['Dataset', 'Role', 'User']);
    expect(readScope(['StarredQuery']).kinds).toEqual(['Dataset', 'User', 'StarredQuery']);
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
