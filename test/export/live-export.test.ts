import { describe, expect, it } from 'vitest';
import { EXPORT_SCHEMA_FOLDER, readScope, schemaBaseFor } from '../../src/export/live-export.js';

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
    expect(schemaBaseFor('/tmp/out', 'https://example.com/schemas')).toBe('https://example.com/schemas');
    expect(schemaBaseFor('/repo/config', '/repo/schemas')).toBe('../schemas');
    expect(schemaBaseFor('/repo', '/repo')).toBe('.');
  });

  it('without a base, points into the export itself (OUT/.schemas), never at where wsync is installed', () => {
    expect(schemaBaseFor('/tmp/out', undefined)).toBe(EXPORT_SCHEMA_FOLDER);
    expect(EXPORT_SCHEMA_FOLDER).toBe('.schemas');
  });
});
