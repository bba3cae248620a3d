// Checks one answer of the emulator against the OpenAPI document: the operation is found from the
// method and path, and the body is validated against that operation's response schema for the
// status. Error statuses the operation does not declare (most of them) must follow the emulator's
// error contract; the deliberate differences are listed in docs/wire-contract.md.
import type { ValidateFunction } from 'ajv';
import type { Answer } from '../support/emulator.js';
import { compileSchema, doc, type Node } from './openapi.js';

const ERROR_CORE = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'integer' }, message: { type: 'string', minLength: 1 } },
};

/** `{code, message}` with `code` the HTTP status as a number: docs/wire-contract.md "Conventions". */
const errorContract = compileSchema({ ...ERROR_CORE, additionalProperties: false });
/** The same where the document declares the error with more fields (a dashboard's `currentVersion`, `uid`). */
const declaredErrorContract = compileSchema(ERROR_CORE);

interface Template {
  op: string;
  segments: string[];
}

const templates: Template[] = Object.entries(doc.paths).flatMap(([template, methods]) =>
  Object.keys(methods)
    .filter((method) => method !== 'parameters')
    .map((method) => ({ op: `${method.toUpperCase()} ${template}`, segments: template.split('/').slice(1) })),
);

/** `METHOD /template` of the OpenAPI operation a request goes to, e.g. `GET /monitors/{id}`. */
export function operationOf(method: string, requestPath: string): string | undefined {
  const pathname = requestPath.split('?')[0] ?? '';
  if (!pathname.startsWith('/v2/')) return undefined;
  const parts = pathname.slice(3).split('/').slice(1);
  const matches = templates.filter(
    (template) =>
      template.op.startsWith(`${method} `) &&
      template.segments.length === parts.length &&
      template.segments.every((segment, index) => segment.startsWith('{') || segment === parts[index]),
  );
  // A literal segment beats a parameter (`/users/{id}/role` and `/user` style overlaps).
  const literals = (template: Template) => template.segments.filter((segment) => !segment.startsWith('{')).length;
  return matches.sort((a, b) => literals(b) - literals(a))[0]?.op;
}

const validators = new Map<string, ValidateFunction | null>();

/** The validator of the JSON body the document gives for `op` answering `status`; null for none. */
function declaredValidator(op: string, status: number): ValidateFunction | null | undefined {
  const [method = '', template = ''] = op.split(' ');
  const responses = doc.paths[template]?.[method.toLowerCase()]?.responses as Node | undefined;
  const response = responses?.[String(status)] as Node | undefined;
  if (!response) return undefined;
  const key = `${op} ${status}`;
  if (!validators.has(key)) {
    const content = response.content as Node | undefined;
    const schema = (content?.['application/json'] as Node | undefined)?.schema;
    validators.set(key, schema === undefined ? null : compileSchema(schema));
  }
  return validators.get(key);
}

const describe = (validate: ValidateFunction): string => JSON.stringify(validate.errors?.slice(0, 3));

/** What is wrong with one answer, or [] when it conforms. */
export function conformanceProblems(method: string, requestPath: string, answer: Answer): string[] {
  const where = `${method} ${requestPath} -> ${answer.status}`;
  const op = operationOf(method, requestPath);
  const declared = op === undefined ? undefined : declaredValidator(op, answer.status);
  const problems: string[] = [];
  if (answer.status >= 400) {
    const contract = declared ? declaredErrorContract : errorContract;
    if (!contract(answer.body)) problems.push(`${where}: error body ${answer.text} breaks {code, message}: ${describe(contract)}`);
    else if ((answer.body as { code: number }).code !== answer.status) problems.push(`${where}: code is not the status: ${answer.text}`);
    // The document types `code` as a string but shows a number in its examples: see wire-contract.md.
    if (declared) {
      const asDocumented = { ...(answer.body as Node), code: String((answer.body as Node).code) };
      if (!declared(asDocumented)) problems.push(`${where}: ${answer.text} breaks the documented error schema: ${describe(declared)}`);
    }
    return problems;
  }
  if (op === undefined) return [`${where}: no operation of the OpenAPI document answers this`];
  if (declared === undefined) return [`${where}: ${op} does not document status ${answer.status}`];
  if (declared === null) return answer.text === '' ? [] : [`${where}: documented without a body, answered ${answer.text}`];
  if (!declared(answer.body)) return [`${where}: ${answer.text.slice(0, 300)} breaks the response schema: ${describe(declared)}`];
  if (!/^application\/json/.test(answer.headers.get('content-type') ?? '')) return [`${where}: content-type is not JSON`];
  return [];
}
