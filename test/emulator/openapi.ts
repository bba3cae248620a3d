// Reads the published OpenAPI document (the checked-in copy in reference/) and compiles its schemas with
// ajv, independently of the emulator's generated copy, so the contract tests check the source.
import { Ajv, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/paths.js';

export type Node = Record<string, unknown>;

export const openapiPath = path.resolve(ROOT, 'reference/openapi-v2.json');
export const doc = JSON.parse(readFileSync(openapiPath, 'utf8')) as { paths: Record<string, Record<string, Node>>; components: Node };

/** OpenAPI 3.0 `nullable` and `exclusiveMinimum` -> JSON Schema; `#/components/...` refs into the added doc. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/', 'openapi#/');
    else if (key === 'example' || key === 'examples') continue;
    else out[key] = toJsonSchema(value);
  }
  if ((node as Node).nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  // OpenAPI 3.0's boolean exclusiveMinimum (the dashboard schemas use it) is a number in JSON Schema.
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum ?? 0;
    delete out.minimum;
  }
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true });
formatsPlugin.default(ajv);
ajv.addFormat('uint64', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= 0 });
ajv.addSchema({ $id: 'openapi', components: toJsonSchema(doc.components) });

/** Compiles an OpenAPI schema (refs into the document allowed) into a validator. */
export function compileSchema(schema: unknown): ValidateFunction {
  return ajv.compile(toJsonSchema(schema) as Node);
}

export function operation(op: string): Node {
  const [method = '', template = ''] = op.split(' ');
  const found = doc.paths[template]?.[method.toLowerCase()];
  if (!found) throw new Error(`the OpenAPI document has no operation ${op}`);
  return found;
}

/** The success status the document gives (the first 2xx response). */
export function successStatus(op: string): number {
  const codes = Object.keys(operation(op).responses as Node).filter((code) => code.startsWith('2'));
  return Number(codes[0]);
}

function jsonSchemaAt(content: unknown): unknown {
  return ((content as Node | undefined)?.['application/json'] as Node | undefined)?.schema;
}

export function responseValidator(op: string): ValidateFunction | undefined {
  const response = (operation(op).responses as Node)[String(successStatus(op))] as Node;
  const schema = jsonSchemaAt(response.content);
  return schema === undefined ? undefined : compileSchema(schema);
}

export function requestValidator(op: string): ValidateFunction | undefined {
  let body = operation(op).requestBody as Node | undefined;
  if (typeof body?.$ref === 'string') {
    body = (doc.components.requestBodies as Node)[body.$ref.split('/').pop() ?? ''] as Node;
  }
  const schema = jsonSchemaAt(body?.content);
  return schema === undefined ? undefined : compileSchema(schema);
}

/** The capability the operation's security entry names, e.g. `monitors|read`, or undefined. */
export function requiredCapability(op: string): string | undefined {
  const security = operation(op).security as Record<string, string[]>[] | undefined;
  return security?.flatMap((entry) => entry.Auth ?? [])[0];
}

/** Every org capability resource with its allowed actions, from the orgCapabilities schema. */
export function orgCapabilityActions(): Record<string, string[]> {
  const properties = ((doc.components.schemas as Node).orgCapabilities as Node).properties as Node;
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, ((schema as Node).items as Node).enum as string[]]),
  );
}

/** Every dataset capability resource with its actions, from the datasetCapabilities schema. */
export function datasetCapabilityActions(): Record<string, string[]> {
  const entry = ((doc.components.schemas as Node).datasetCapabilities as Node).additionalProperties as Node;
  return Object.fromEntries(
    Object.entries(entry.properties as Node).map(([name, schema]) => [name, ((schema as Node).items as Node).enum as string[]]),
  );
}

/** The operations of the document in the emulator's scope (docs/design.md kinds table + GET-one). */
export function inScopeOperations(): string[] {
  const prefixes = [
    '/annotations',
    '/dashboards',
    '/datasets',
    '/monitors',
    '/notifiers',
    '/orgs',
    '/rbac/roles',
    '/rbac/groups',
    '/apl-starred-queries',
    '/tokens',
    '/user',
    '/users',
    '/vfields',
    '/views',
  ];
  // docs/wire-contract.md "Every configuration path of the OpenAPI document" says why each is out.
  const outOfScope = new Set([
    // One chart's merge patch: wsync writes the whole document with its version (docs/wire-contract.md "Dashboards").
    'PATCH /dashboards/uid/{uid}/charts/{chartId}',
    'POST /datasets/{dataset_id}/trim',
    'POST /datasets/{dataset_id}/vacuum',
    'GET /monitors/{id}/history',
    'POST /orgs/provision',
    'PUT /user',
  ]);
  const out: string[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    if (!prefixes.some((prefix) => template === prefix || template.startsWith(`${prefix}/`))) continue;
    for (const method of Object.keys(methods)) {
      const op = `${method.toUpperCase()} ${template}`;
      if (method !== 'parameters' && !outOfScope.has(op)) out.push(op);
    }
  }
  return out.sort();
}
