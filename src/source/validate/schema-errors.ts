import { isJsonObject } from '../../core/json.js';
import { escapePointerSegment, pointerSegments } from '../../core/json-paths.js';
import { forbiddenNameCharacter, NAME_PATTERN } from '../../core/names.js';
import type { Diagnostic, JsonValue, Severity, SourceLocation } from '../../core/types.js';
import { dottedPath } from '../parse/document.js';
import { loadSchemas } from './schema-files.js';
import { suggestion } from '../../core/suggest.js';
import { UNKNOWN_FIELDS_KEYWORD, type ErrorObject } from './validator.js';

/** What a schema error needs to become a message about a place in a file. */
export interface ErrorContext {
  document: JsonValue;
  locations: Record<string, SourceLocation>;
  start: SourceLocation;
  /** Pointers whose problem is already reported (failed interpolation): their schema errors would only repeat it. */
  skip: ReadonlySet<string>;
}

interface Located {
  pointer: string;
  segments: (string | number)[];
}

type SchemaNode = Record<string, unknown>;

/** What one entry of a mapping is called, for messages about how many there may be. */
const ENTRY_NOUNS: Record<string, string> = { NotifierChannels: 'channel' };

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'empty',
};

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'must be an email address',
  'date-time': 'must be a date-time in RFC 3339 form, e.g. 2026-01-31T09:30:00Z',
  uri: 'must be an absolute URI, e.g. https://example.com/path',
};

function asNode(value: unknown): SchemaNode | undefined {
  return isJsonObject(value) ? (value as SchemaNode) : undefined;
}

/** The segments of a JSON Pointer, array indexes as numbers (known by walking the data). */
function locate(pointer: string, document: JsonValue): Located {
  const segments: (string | number)[] = [];
  let node: JsonValue | undefined = document;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) {
      segments.push(Number(segment));
      node = node[Number(segment)];
    } else {
      segments.push(segment);
      node = isJsonObject(node) ? node[segment] : undefined;
    }
  }
  return { pointer, segments };
}

function dataAt(document: JsonValue, segments: readonly (string | number)[]): JsonValue | undefined {
  let node: JsonValue | undefined = document;
  for (const s of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[s as number] : node[String(s)];
  }
  return node;
}

function child(at: Located, key: string): Located {
  return { pointer: `${at.pointer}/${escapePointerSegment(key)}`, segments: [...at.segments, key] };
}

function prefix(segments: readonly (string | number)[]): string {
  return segments.length === 0 ? '' : `${dottedPath(segments)}: `;
}

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

/** The text of an if-condition (`type is Threshold`) when it is a simple one. */
function conditionText(ifSchema: unknown): string | undefined {
  const properties = asNode(asNode(ifSchema)?.properties);
  if (!properties) return undefined;
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    const node = asNode(schema);
    if (node && 'const' in node) parts.push(`${name} is ${quoteList([node.const])}`);
    else if (node && Array.isArray(node.enum)) parts.push(`${name} is one of ${quoteList(node.enum)}`);
    else return undefined;
  }
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/** The schema's own reason for a rule (its description), as ` (reason)`, or nothing. */
function why(node: SchemaNode | undefined): string {
  return typeof node?.description === 'string' ? ` (${node.description.replace(/\.$/, '')})` : '';
}

function annotationNames(): string[] {
  const envelope = loadSchemas().get('envelope.json');
  const annotations = asNode(asNode(asNode(envelope?.definitions)?.annotations)?.properties);
  return annotations ? Object.keys(annotations) : [];
}

class Translator {
  readonly out: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly ctx: ErrorContext) {}

  private locationOf(pointer: string): SourceLocation {
    let p = pointer;
    for (;;) {
      const found = this.ctx.locations[p];
      if (found) return found;
      if (p === '') return this.ctx.start;
      p = p.slice(0, p.lastIndexOf('/'));
    }
  }

  emit(code: string, at: Located, field: Located | undefined, message: string, severity: Severity = 'error'): void {
    const dedupe = `${at.pointer}\n${message}`;
    if (this.seen.has(dedupe)) return;
    this.seen.add(dedupe);
    const d: Diagnostic = { severity, code, ...this.locationOf(at.pointer), message };
    const named = field ?? at;
    if (named.segments.length > 0) d.field = dottedPath(named.segments);
    this.out.push(d);
  }

  /** One message for one ajv error; `condition` is the if-clause it depends on, if any. */
  one(e: ErrorObject, condition: string | undefined): void {
    const at = locate(e.instancePath, this.ctx.document);
    const p = prefix(at.segments);
    const params = e.params as Record<string, unknown>;
    const parent = asNode(e.parentSchema);
    const when = condition ? ` (when ${condition})` : '';
    switch (e.keyword) {
      case 'required': {
        const name = String(params.missingProperty);
        const reason = condition ? ` (required when ${condition})` : '';
        this.emit('schema', at, child(at, name), `${p}missing required field "${name}"${reason}`);
        return;
      }
      case 'additionalProperties': {
        const name = String(params.additionalProperty);
        const allowed = Object.keys(asNode(parent?.properties) ?? {});
        const field = child(at, name);
        const hint = suggestion(name, allowed);
        // An object the service knows more fields of than the schema: only a likely typo is an error.
        if (parent?.[UNKNOWN_FIELDS_KEYWORD] === 'warning' && hint === '') {
          const of = typeof parent.title === 'string' ? ` of a ${parent.title} chart` : '';
          const message = `${p}unknown field "${name}" (not in the API's description${of}; sent as written)`;
          this.emit('unknown-field', field, field, message, 'warning');
          return;
        }
        this.emit('unknown-field', field, field, `${p}unknown field "${name}"${hint}`);
        return;
      }
      case 'false schema': {
        const parentAt = locate(e.instancePath.slice(0, e.instancePath.lastIndexOf('/')), this.ctx.document);
        const name = String(at.segments[at.segments.length - 1] ?? '');
        const annotation = dottedPath(parentAt.segments) === 'metadata.annotations' && name.startsWith('wsync/');
        const message = annotation
          ? `${prefix(parentAt.segments)}unknown wsync annotation "${name}"${suggestion(name, annotationNames())}`
          : `${prefix(parentAt.segments)}field "${name}" is not allowed here`;
        this.emit('unknown-field', at, at, message);
        return;
      }
      case 'enum': {
        const allowed = Array.isArray(params.allowedValues) ? (params.allowedValues as unknown[]) : [];
        const data = dataAt(this.ctx.document, at.segments);
        const hint =
          typeof data === 'string' ? suggestion(data, allowed.filter((v): v is string => typeof v === 'string')) : '';
        this.emit('schema', at, undefined, `${p}must be one of ${quoteList(allowed)}${hint}${when}`);
        return;
      }
      case 'const':
        this.emit('schema', at, undefined, `${p}must be ${quoteList([params.allowedValue])}${why(parent)}${when}`);
        return;
      case 'uniqueItems': {
        const first = Math.min(Number(params.i), Number(params.j));
        const second = Math.max(Number(params.i), Number(params.j));
        const item = { pointer: `${at.pointer}/${second}`, segments: [...at.segments, second] };
        this.emit('schema', item, item, `${p}items [${first}] and [${second}] are the same; each may appear only once`);
        return;
      }
      case 'minProperties':
      case 'maxProperties':
        this.properties(e, at, parent);
        return;
      case 'pattern': {
        const pattern = String(params.pattern);
        if (pattern === NAME_PATTERN) {
          const data = dataAt(this.ctx.document, at.segments);
          const why = typeof data === 'string' ? forbiddenNameCharacter(data) : undefined;
          this.emit('schema', at, undefined, `${p}must not contain ${why ?? 'control, bidi or invisible characters'}${when}`);
          return;
        }
        this.emit('schema', at, undefined, `${p}must match the pattern ${pattern}${why(parent)}${when}`);
        return;
      }
      case 'format': {
        const format = String(params.format);
        this.emit('schema', at, undefined, `${p}${FORMAT_MESSAGES[format] ?? `must be a valid ${format}`}${when}`);
        return;
      }
      default:
        this.emit('schema', at, undefined, `${p}${boundMessage(e.keyword, params) ?? e.message ?? 'is not valid'}${when}`);
    }
  }

  private properties(e: ErrorObject, at: Located, parent: SchemaNode | undefined): void {
    const p = prefix(at.segments);
    const data = dataAt(this.ctx.document, at.segments);
    const present = isJsonObject(data) ? Object.keys(data) : [];
    const noun = ENTRY_NOUNS[typeof parent?.title === 'string' ? parent.title : ''] ?? 'field';
    const exactlyOne = parent?.minProperties === 1 && parent.maxProperties === 1;
    if (exactlyOne && present.length === 0) {
      const allowed = Object.keys(asNode(parent.properties) ?? {});
      const options = allowed.length > 0 ? ` (one of ${allowed.join(', ')})` : '';
      this.emit('schema', at, undefined, `${p}exactly one ${noun} is required, found none${options}`);
    } else if (exactlyOne) {
      this.emit(
        'schema',
        at,
        undefined,
        `${p}exactly one ${noun} is allowed, found ${present.length} (${present.join(', ')})`,
      );
    } else {
      const limit = Number((e.params as Record<string, unknown>).limit);
      const bound = e.keyword === 'minProperties' ? 'at least' : 'at most';
      this.emit('schema', at, undefined, `${p}must have ${bound} ${limit} ${noun}${limit === 1 ? '' : 's'}`);
    }
  }

  /** anyOf/oneOf: one message instead of every failing branch's errors. */
  alternatives(e: ErrorObject, branchErrors: ErrorObject[], condition: string | undefined): void {
    const at = locate(e.instancePath, this.ctx.document);
    const byBranch = new Map<string, ErrorObject[]>();
    for (const b of branchErrors) {
      const rest = b.schemaPath.slice(e.schemaPath.length + 1);
      const branch = rest.slice(0, rest.indexOf('/') < 0 ? rest.length : rest.indexOf('/'));
      const list = byBranch.get(branch) ?? [];
      list.push(b);
      byBranch.set(branch, list);
    }
    const branches = [...byBranch.values()];
    const onlyRequired =
      branches.length > 1 &&
      branches.every((list) => list.length === 1 && list[0]!.keyword === 'required' && list[0]!.instancePath === e.instancePath);
    if (onlyRequired) {
      const names = branches.map((list) => String((list[0]!.params as Record<string, unknown>).missingProperty));
      const reason = condition ? ` (required when ${condition})` : '';
      this.emit(
        'schema',
        at,
        child(at, names[0]!),
        `${prefix(at.segments)}missing required field ${names.map((n) => `"${n}"`).join(' or ')}${reason}`,
      );
      return;
    }
    if (e.keyword === 'oneOf' && branchErrors.length === 0) {
      // Branches that each require one field: the fields exclude each other (aplQuery, mplQuery).
      const exclusive = requiredAlternatives(asNode(e.parentSchema)?.oneOf);
      const message = exclusive
        ? `give only one of ${exclusive.map((n) => `"${n}"`).join(' and ')}, not both`
        : 'matches more than one of the allowed forms';
      const second = exclusive ? child(at, exclusive[exclusive.length - 1]!) : undefined;
      this.emit('schema', second ?? at, second, `${prefix(at.segments)}${message}`);
      return;
    }
    // Otherwise the branch that came closest says best what is wrong.
    const closest = branches.sort((a, b) => a.length - b.length)[0];
    if (!closest) {
      this.emit('schema', at, undefined, `${prefix(at.segments)}does not match any of the allowed forms`);
      return;
    }
    for (const b of closest) this.one(b, condition);
  }
}

/** `[a, b]` when every branch is `{required: [one field]}`, else undefined. */
function requiredAlternatives(branches: unknown): string[] | undefined {
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  const names: string[] = [];
  for (const branch of branches) {
    const node = asNode(branch);
    const required = node?.required;
    if (!node || Object.keys(node).length !== 1 || !Array.isArray(required) || required.length !== 1) return undefined;
    names.push(String(required[0]));
  }
  return names;
}

function isUnder(schemaPath: string, base: string): boolean {
  return schemaPath.startsWith(`${base}/`);
}

/** Turns ajv's errors for one document into one clear diagnostic per problem. */
export function translateErrors(errors: readonly ErrorObject[], ctx: ErrorContext): Diagnostic[] {
  // An empty string fails its pattern and format too; "must not be empty" says it all.
  const empty = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  const relevant = errors.filter((e) => {
    if ((e.keyword === 'pattern' || e.keyword === 'format') && empty.has(e.instancePath)) return false;
    for (const skipped of ctx.skip) {
      if (e.instancePath === skipped || e.instancePath.startsWith(`${skipped}/`)) return false;
    }
    return true;
  });
  // if/then: ajv reports the `then` errors plus an `if` error; keep the former, worded with the condition.
  const conditions: { base: string; instancePath: string; text: string | undefined }[] = [];
  for (const e of relevant) {
    if (e.keyword === 'if') {
      conditions.push({
        base: e.schemaPath.slice(0, -'/if'.length),
        instancePath: e.instancePath,
        text: conditionText(asNode(e.parentSchema)?.if),
      });
    }
  }
  const conditionOf = (e: ErrorObject): string | undefined =>
    conditions.find((c) => isUnder(e.schemaPath, `${c.base}/then`) && e.instancePath.startsWith(c.instancePath))?.text;

  const alternatives = relevant.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const consumed = new Set<ErrorObject>();
  const translator = new Translator(ctx);
  for (const alt of alternatives) {
    const branchErrors = relevant.filter(
      (b) => b !== alt && !consumed.has(b) && isUnder(b.schemaPath, alt.schemaPath) && b.instancePath.startsWith(alt.instancePath),
    );
    for (const b of branchErrors) consumed.add(b);
    consumed.add(alt);
    translator.alternatives(
      alt,
      branchErrors.filter((b) => b.keyword !== 'if'),
      conditionOf(alt),
    );
  }
  for (const e of relevant) {
    if (consumed.has(e) || e.keyword === 'if') continue;
    translator.one(e, conditionOf(e));
  }
  return translator.out;
}

/** What a value of the wrong type, or out of a bound (size, length, count), must be instead. */
function boundMessage(keyword: string, params: Record<string, unknown>): string | undefined {
  const limit = String(params.limit);
  switch (keyword) {
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return `must be ${types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ')}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(params.comparison)} ${limit}`;
    case 'minLength':
      return Number(params.limit) === 1 ? 'must not be empty' : `must be at least ${limit} characters long`;
    case 'maxLength':
      return `must be at most ${limit} characters long`;
    case 'minItems':
      return Number(params.limit) === 1 ? 'must list at least one item' : `must list at least ${limit} items`;
    case 'maxItems':
      return `must list at most ${limit} items`;
    default:
      return undefined;
  }
}
