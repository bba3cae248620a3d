import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { KIND_NAMES, KINDS } from '../../src/kinds/index.js';
import { loadSchemas } from '../../src/source/schema-files.js';
import { validatorFor } from '../../src/source/validator.js';

describe('schemas', () => {
  // The validator skips the meta-schema check at start-up for speed; this is where it happens.
  it.each([...loadSchemas().keys()])('%s is a valid draft 2020-12 schema', (file) => {
    const ajv = new Ajv2020Module.default({ strict: true, strictRequired: false, allowUnionTypes: true });
    const schema = loadSchemas().get(file)!;
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it.each([...KIND_NAMES])('%s compiles in strict mode and has a schema file', (kind) => {
    expect(loadSchemas().has(KINDS[kind].schemaFile)).toBe(true);
    expect(typeof validatorFor(KINDS[kind].schemaFile)).toBe('function');
  });

  it('the envelope names exactly the kinds of the registry, and each kind schema pins its own kind', () => {
    const envelope = loadSchemas().get('envelope.json') as { properties: { kind: { enum: string[] } } };
    expect([...envelope.properties.kind.enum].sort()).toEqual([...KIND_NAMES].sort());
    for (const kind of KIND_NAMES) {
      const schema = loadSchemas().get(KINDS[kind].schemaFile) as { properties: { kind: { const: string } } };
      expect(schema.properties.kind.const, kind).toBe(kind);
    }
  });
});
