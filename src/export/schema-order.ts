import { asJsonObject, compareText, setOwn } from '../core/json.js';
import { getAt, pointerSegments } from '../core/json-paths.js';
import type { JsonObject, JsonValue } from '../core/types.js';

/** Parsed JSON Schemas by file name under schemas/ (`monitor.json`, `envelope.json`, ...). */
export type SchemaSet = Readonly<Record<string, JsonObject>>;

/** A schema node and the file it lives in (for resolving `#/...` references inside it). */
interface SchemaNode {
  node: JsonObject;
  file: string;
}

function followPointer(root: JsonObject, pointer: string): JsonObject | undefined {
  return asJsonObject(getAt(root, pointerSegments(pointer)));
}

/** The node with `$ref` followed and `allOf` flattened: every schema that constrains the same value. */
function expand(schemas: SchemaSet, start: SchemaNode, depth = 0): SchemaNode[] {
  if (depth > 32) return [];
  const out: SchemaNode[] = [];
  const ref = start.node.$ref;
  if (typeof ref === 'string') {
    const [filePart = '', pointer = ''] = ref.split('#');
    const file = filePart === '' ? start.file : filePart;
    const root = schemas[file];
    const target = root ? followPointer(root, pointer) : undefined;
    if (target) out.push(...expand(schemas, { node: target, file }, depth + 1));
  }
  out.push(start);
  const allOf = start.node.allOf;
  if (Array.isArray(allOf)) {
    for (const member of allOf) {
      const node = asJsonObject(member);
      if (node) out.push(...expand(schemas, { node, file: start.file }, depth + 1));
    }
  }
  return out;
}

/** Schemas of a value; empty when the value is not described (then keys are simply sorted). */
export type SchemaContext = readonly SchemaNode[];

export function documentSchema(schemas: SchemaSet, file: string): SchemaContext {
  const root = schemas[file];
  return root ? expand(schemas, { node: root, file }) : [];
}

export function childSchema(schemas: SchemaSet, context: SchemaContext, key: string): SchemaContext {
  const out: SchemaNode[] = [];
  for (const { node, file } of context) {
    const properties = asJsonObject(node.properties);
    const property = properties && Object.prototype.hasOwnProperty.call(properties, key) ? asJsonObject(properties[key]) : undefined;
    const additional = asJsonObject(node.additionalProperties);
    const child = property ?? additional;
    if (child) out.push(...expand(schemas, { node: child, file }));
  }
  return out;
}

function itemSchema(schemas: SchemaSet, context: SchemaContext): SchemaContext {
  const out: SchemaNode[] = [];
  for (const { node, file } of context) {
    const items = asJsonObject(node.items);
    if (items) out.push(...expand(schemas, { node: items, file }));
  }
  return out;
}

export function schemaAt(schemas: SchemaSet, file: string, segments: readonly string[]): SchemaContext {
  let context = documentSchema(schemas, file);
  for (const segment of segments) context = childSchema(schemas, context, segment);
  return context;
}

/**
 * Keys the schemas require of a value; with the value, also those an `if`/`then` requires when the
 * value meets the `if` (a Threshold monitor requires its threshold, even when it is 0).
 */
export function requiredKeys(context: SchemaContext, value?: JsonObject): Set<string> {
  const out = new Set<string>();
  const add = (node: JsonObject | undefined): void => {
    if (node && Array.isArray(node.required)) for (const key of node.required) if (typeof key === 'string') out.add(key);
  };
  for (const { node } of context) {
    add(node);
    const condition = asJsonObject(node.if);
    if (value !== undefined && condition && meets(condition, value)) add(asJsonObject(node.then));
  }
  return out;
}

/**
 * Whether `value` meets an `if` made of `properties` with `const` and `required`; any other
 * keyword counts as met (keeping a field a schema might require is harmless, dropping it is not).
 */
function meets(condition: JsonObject, value: JsonObject): boolean {
  const required = Array.isArray(condition.required) ? condition.required : [];
  if (!required.every((key) => typeof key !== 'string' || value[key] !== undefined)) return false;
  for (const [key, member] of Object.entries(asJsonObject(condition.properties) ?? {})) {
    const schema = asJsonObject(member);
    if (schema && 'const' in schema && value[key] !== undefined && value[key] !== schema.const) return false;
  }
  return true;
}

function declaredOrder(context: SchemaContext): string[] {
  const out: string[] = [];
  for (const { node } of context) {
    for (const key of Object.keys(asJsonObject(node.properties) ?? {})) if (!out.includes(key)) out.push(key);
  }
  return out;
}

/**
 * A copy of `value` whose object keys follow the schema: declared properties in the order the
 * schema lists them, then any other keys sorted. Arrays keep their order.
 */
export function orderBySchema(schemas: SchemaSet, context: SchemaContext, value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    const items = itemSchema(schemas, context);
    return value.map((item) => orderBySchema(schemas, items, item));
  }
  const object = asJsonObject(value);
  if (!object) return value;
  const declared = declaredOrder(context).filter((key) => key in object);
  const rest = Object.keys(object)
    .filter((key) => !declared.includes(key))
    .sort(compareText);
  const out: JsonObject = {};
  for (const key of [...declared, ...rest]) {
    setOwn(out, key, orderBySchema(schemas, childSchema(schemas, context, key), object[key] as JsonValue));
  }
  return out;
}
