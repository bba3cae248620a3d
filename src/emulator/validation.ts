// Request-body validation against the OpenAPI request schemas (generated into wire-schemas.ts).
// Validators are compiled once at load. Messages name the field and the problem, e.g.
// `monitors: field "intervalMinutes" must be >= 1`.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { badRequest } from './errors.js';
import { isJsonObject, type Json, type JsonObject } from './json.js';
import { wireSchemaNames, wireSchemas, type WireSchemaName } from './wire-schemas.js';

const ajv = new Ajv({ strict: false, allErrors: false, verbose: true });
// ajv-formats is CommonJS whose module object is also its `default`; `.default` works in every loader.
formatsPlugin.default(ajv, ['date-time', 'int32', 'int64', 'float', 'double']);
ajv.addSchema(wireSchemas);

const validators = new Map<WireSchemaName, ValidateFunction>();
function validatorFor(name: WireSchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile({ $ref: `wire#/definitions/${name}` });
    validators.set(name, validate);
  }
  return validate;
}

/**
 * Checks `body` against the named request schema and returns it as an object with fields unknown to
 * an open schema removed (the service ignores them). Unknown fields where the schema is closed
 * (additionalProperties: false) are refused. Throws a 400 ApiError naming the field.
 */
export function validateBody(name: WireSchemaName, label: string, body: unknown): JsonObject {
  if (body === undefined) throw badRequest(`${label}: a JSON request body is required`);
  const validate = validatorFor(name);
  if (!validate(body)) throw badRequest(`${label}: ${describeError(validate.errors?.[0])}`);
  if (!isJsonObject(body)) throw badRequest(`${label}: the request body must be a JSON object`);
  dropUnknownFields(body, { $ref: `wire#/definitions/${name}` });
  return body;
}

/** Like validateBody, for the request schemas that are arrays of strings (MapFields). */
export function validateStringArrayBody(name: WireSchemaName, label: string, body: unknown): string[] {
  if (body === undefined) throw badRequest(`${label}: a JSON request body is required`);
  const validate = validatorFor(name);
  if (!validate(body)) throw badRequest(`${label}: ${describeError(validate.errors?.[0])}`);
  if (!Array.isArray(body) || !body.every((item): item is string => typeof item === 'string')) {
    throw badRequest(`${label}: the request body must be an array of strings`);
  }
  return body;
}

/** Compiles every validator now, so the first request of each kind does not pay for it. */
export function warmValidators(): void {
  for (const name of wireSchemaNames) validatorFor(name);
}

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
}

const definitions = (wireSchemas as { definitions: Record<string, SchemaNode> }).definitions;

function resolve(node: SchemaNode): SchemaNode {
  let current = node;
  while (current.$ref) {
    const target = definitions[current.$ref.replace('wire#/definitions/', '')];
    if (!target) return {};
    current = target;
  }
  return current;
}

function dropUnknownFields(value: Json, schemaNode: SchemaNode): void {
  const schema = resolve(schemaNode);
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) dropUnknownFields(item, schema.items);
    return;
  }
  if (!isJsonObject(value)) return;
  const { properties, additionalProperties } = schema;
  for (const key of Object.keys(value)) {
    const known = properties?.[key];
    const child = value[key] as Json;
    if (known) dropUnknownFields(child, known);
    else if (typeof additionalProperties === 'object') dropUnknownFields(child, additionalProperties);
    else if (properties && additionalProperties === undefined) delete value[key];
  }
}

function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1);
  if (child !== undefined) parts.push(child);
  let out = '';
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return TYPE_NAMES[typeof value] ?? typeof value;
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'the request body is invalid';
  const params = error.params as Record<string, unknown>;
  const field = `field "${fieldPath(error.instancePath)}"`;
  switch (error.keyword) {
    case 'required':
      return `field "${fieldPath(error.instancePath, String(params.missingProperty))}" is required`;
    case 'additionalProperties':
      return `unknown field "${fieldPath(error.instancePath, String(params.additionalProperty))}"`;
    case 'type': {
      const expected = String(params.type)
        .split(',')
        .map((name) => TYPE_NAMES[name] ?? name)
        .join(' or ');
      if (error.instancePath === '') return `the request body must be ${expected}, got ${jsonTypeOf(error.data)}`;
      return `${field} must be ${expected}, got ${jsonTypeOf(error.data)}`;
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((value) => String(value)).join(', ');
      const got = typeof error.data === 'string' ? `"${error.data}"` : jsonTypeOf(error.data);
      return `${field} must be one of: ${allowed} (got ${got})`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field} must be ${String(params.comparison)} ${String(params.limit)}`;
    case 'minLength':
      return `${field} must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `${field} must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return `${field} must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `${field} must have at most ${String(params.limit)} items`;
    case 'pattern':
      return `${field} must match the pattern ${String(params.pattern)}`;
    case 'format':
      if (params.format === 'date-time') return `${field} must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z`;
      if (params.format === 'int64' || params.format === 'int32') return `${field} must be an integer`;
      return `${field} must be a valid ${String(params.format)}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}
