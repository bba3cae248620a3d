import type AjvModule from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';
import type { FormatName } from 'ajv-formats';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../util/package-root.js';
import { loadSchemas } from './schema-files.js';

// Both packages are CommonJS. They are required only when a validator must be compiled at run
// time: a built wsync uses the validators compiled ahead of time and never loads Ajv itself.
const require = createRequire(import.meta.url);
type Ajv = InstanceType<(typeof AjvModule)['default']>;

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

/** Marks an object whose unknown fields are warnings unless close to a known field (schemas/dashboard-document.json). */
export const UNKNOWN_FIELDS_KEYWORD = 'x-wsync-unknown-fields';

/** The export name of a schema file in the precompiled module: `monitor.json` -> `monitor`. */
export function exportNameOf(schemaFile: string): string {
  return schemaFile.replace(/\.json$/, '').replace(/[^A-Za-z0-9_]/g, '_');
}

/** Where `npm run build` writes the validators compiled ahead of time, from the package root: NAME.cjs exports NAME (exportNameOf). */
export const PRECOMPILED_PATH = join('dist', 'source', 'validate', 'validators');

let precompiledDir: string | null | undefined;

/**
 * The folder of the validators compiled ahead of time when this code runs from dist/: tsc's
 * output, or the CLI's bundle (dist/bundle/), whose modules are not beside the folder. Null when it
 * runs from the TypeScript sources (tests), whose validators compile at run time from the schemas:
 * a dist/ built earlier may be stale.
 */
function builtValidatorsDir(): string | null {
  if (precompiledDir === undefined) {
    const here = import.meta.url.startsWith('file:') ? fileURLToPath(import.meta.url) : '';
    const root = packageRoot();
    precompiledDir = here.startsWith(join(root, 'dist') + sep) ? join(root, PRECOMPILED_PATH) : null;
  }
  return precompiledDir;
}

/**
 * The Ajv instance every validator comes from. `source: true` keeps the generated code, so that
 * `npm run build` can write it out into PRECOMPILED_PATH (scripts/gen-validators.mjs).
 */
export function createAjv(options: { source?: boolean } = {}): Ajv {
  const schemas = loadSchemas();
  // Draft-07: the dialect the YAML language server in most editors fully supports.
  const AjvDraft07 = (require('ajv') as typeof AjvModule).default;
  const addFormats = (require('ajv-formats') as typeof addFormatsModule).default;
  const created = new AjvDraft07({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    // parentSchema on each error: the allowed fields for "did you mean", the condition of an if/then.
    verbose: true,
    // Start-up time: the schemas are checked against the meta-schema by a test, not on every run,
    // and the generated code is small enough that optimising it costs more than it saves.
    validateSchema: false,
    code: { optimize: false, source: options.source === true },
    // Shared definitions (capabilities) compiled once, not into every kind that uses them.
    inlineRefs: false,
  });
  // An annotation, read by the error translator: unknown fields of this object are warnings unless
  // they look like a typo of a known one (dashboard charts, which the service knows more of).
  created.addKeyword({ keyword: UNKNOWN_FIELDS_KEYWORD, schemaType: 'string' });
  const formats = new Set<string>();
  for (const schema of schemas.values()) collectFormats(schema, formats);
  // Only the formats the schemas use: adding all of them costs start-up time for nothing.
  addFormats(created, [...formats] as FormatName[]);
  // Each `$id` is the file name, so `envelope.json#/definitions/...` resolves here as in an editor.
  for (const [file, schema] of schemas) created.addSchema(schema, file);
  return created;
}

function instance(): Ajv {
  ajv ??= createAjv();
  return ajv;
}

/**
 * The validator of `schemaFile` that `npm run build` compiled ahead of time (start-up time:
 * compiling a schema costs more than reading it; one module per schema, so a tree loads only its
 * kinds'). Absent when running from the TypeScript sources (tests).
 */
function precompiledValidator(schemaFile: string): ValidateFunction | undefined {
  const dir = builtValidatorsDir();
  if (dir === null) return undefined;
  const name = exportNameOf(schemaFile);
  const file = join(dir, `${name}.cjs`);
  return existsSync(file) ? (require(file) as Record<string, ValidateFunction | undefined>)[name] : undefined;
}

/** The compiled validator of a schema file, compiled on first use. */
export function validatorFor(schemaFile: string): ValidateFunction {
  let validate = validators.get(schemaFile);
  if (!validate) {
    const compiled = precompiledValidator(schemaFile) ?? instance().getSchema(schemaFile);
    if (!compiled) throw new Error(`wsync: no schema ${schemaFile} in the schemas directory`);
    validate = compiled;
    validators.set(schemaFile, validate);
  }
  return validate;
}

export type { ErrorObject };
