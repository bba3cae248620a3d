import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FormatName } from 'ajv-formats';
import { loadSchemas } from './schema-files.js';

// Both packages are CommonJS whose module object is also the default export.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
type Ajv = InstanceType<typeof Ajv2020>;

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function collectFormats(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectFormats(item, into);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string') into.add(value);
      else collectFormats(value, into);
    }
  }
}

function instance(): Ajv {
  if (ajv) return ajv;
  const schemas = loadSchemas();
  const created = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    // parentSchema on each error: the allowed fields for "did you mean", the condition of an if/then.
    verbose: true,
    // Start-up time: the schemas are checked against the meta-schema by a test, not on every run,
    // and the generated code is small enough that optimising it costs more than it saves.
    validateSchema: false,
    code: { optimize: false },
    // Shared definitions (capabilities) compiled once, not into every kind that uses them.
    inlineRefs: false,
  });
  const formats = new Set<string>();
  for (const schema of schemas.values()) collectFormats(schema, formats);
  // Only the formats the schemas use: adding all of them costs start-up time for nothing.
  addFormats(created, [...formats] as FormatName[]);
  // Registered under their file names so `envelope.json#/$defs/...` resolves.
  for (const [file, schema] of schemas) created.addSchema(schema, file);
  ajv = created;
  return created;
}

/** The compiled validator of a schema file, compiled on first use. */
export function validatorFor(schemaFile: string): ValidateFunction {
  let validate = validators.get(schemaFile);
  if (!validate) {
    const compiled = instance().getSchema(schemaFile);
    if (!compiled) throw new Error(`wsync: no schema ${schemaFile} in the schemas directory`);
    validate = compiled;
    validators.set(schemaFile, validate);
  }
  return validate;
}

export type { ErrorObject };
