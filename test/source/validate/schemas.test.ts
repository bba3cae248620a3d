import AjvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import { KIND_NAMES, KINDS } from '../../../src/kinds/index.js';
import { loadSchemas } from '../../../src/source/validate/schema-files.js';
import { validatorFor } from '../../../src/source/validate/validator.js';

// Keywords of drafts after 07: the YAML language server in editors and our Ajv (draft-07) would
// each read them differently, so none may appear.
const LATER_KEYWORDS = new Set([
  '$defs',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  'unevaluatedProperties',
  'unevaluatedItems',
  'prefixItems',
  'dependentRequired',
  'dependentSchemas',
  'minContains',
  'maxContains',
]);

/** Every object node of a schema with its JSON pointer. */
function* nodes(node: unknown, pointer = ''): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* nodes(item, `${pointer}/${i}`);
  } else if (node !== null && typeof node === 'object') {
    const object = node as Record<string, unknown>;
    yield [pointer, object];
    for (const [key, value] of Object.entries(object)) yield* nodes(value, `${pointer}/${key}`);
  }
}

describe('schemas', () => {
  // The validator skips the meta-schema check at start-up for speed; this is where it happens.
  it.each([...loadSchemas().keys()])('%s is a valid draft-07 schema whose $id is its file name', (file) => {
    const ajv = new AjvModule.default({ strict: true, strictRequired: false, allowUnionTypes: true });
    const schema = loadSchemas().get(file)!;
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    // A relative $id: editors resolve `envelope.json#/...` next to the file they loaded, wherever
    // `wsync schema --write` put the folder (an absolute one sends some editors to fetch it).
    expect(schema.$id).toBe(file);
  });

  it.each([...loadSchemas().keys()])('%s uses only draft-07 keywords and no keyword beside a $ref', (file) => {
    for (const [pointer, node] of nodes(loadSchemas().get(file))) {
      // Inside `properties` and `definitions` the keys are names, not keywords.
      if (/\/(properties|definitions|patternProperties)$/.test(pointer)) continue;
      for (const key of Object.keys(node)) expect(LATER_KEYWORDS.has(key), `${file}#${pointer}/${key}`).toBe(false);
      // Draft-07 ignores the siblings of $ref; Ajv applies them. Neither may matter.
      if ('$ref' in node) expect(Object.keys(node), `${file}#${pointer}`).toEqual(['$ref']);
    }
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
