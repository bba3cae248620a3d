import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node } from 'yaml';
import type { Diagnostic, JsonObject, JsonValue, SourceLocation } from '../core/types.js';
import { escapePointerSegment } from '../core/json-paths.js';
import { interpolate, type SecretSources } from './interpolate.js';
import {
  MAX_ALIAS_EXPANSION,
  MAX_ALIASES,
  MAX_DEPTH,
  MAX_DOCUMENT_NODES,
  MAX_YAML_ERRORS_PER_FILE,
} from './limits.js';

/** One YAML document turned into plain data, with where every node sits and what was interpolated. */
export interface ParsedDocument {
  /** Undefined when the document could not be read (syntax error, limit reached): see diagnostics. */
  value: JsonValue | undefined;
  /** Where the document's content starts. */
  start: SourceLocation;
  /** JSON Pointer -> position: of the key for mapping members, of the item for sequence items. */
  locations: Record<string, SourceLocation>;
  /** Pointers of strings that came from `${env:}`/`${file:}`. */
  interpolated: string[];
  /** Pointer -> the string as written, for interpolated strings (to name a thing without its secret). */
  written: Map<string, string>;
  /** Pointers of values already reported (failed interpolation, non-finite numbers): schema errors would only repeat it. */
  reported: Set<string>;
  /** Problems of this document; kind and name are filled in by the caller once known. */
  diagnostics: Diagnostic[];
  /** For documents that could not be read: kind and metadata.name as far as they are legible. */
  peek?: { kind?: string; name?: string };
}

export interface ParsedFile {
  documents: ParsedDocument[];
  /** Problems of the file as a whole (beyond the per-file cap of YAML errors). */
  diagnostics: Diagnostic[];
}

class LimitReached extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** Dotted display form of a pointer's segments: `spec.notifiers[0]`. */
export function dottedPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out;
}

/** `spec.notifiers[0]: ` for messages, or nothing at the document root. */
function prefix(segments: readonly (string | number)[]): string {
  return segments.length === 0 ? '' : `${dottedPath(segments)}: `;
}

/** Pointer segment escaping (RFC 6901) without the regex work for the usual plain key. */
function pointerSegment(key: string): string {
  return key.includes('~') || key.includes('/') ? escapePointerSegment(key) : key;
}

/**
 * Offset -> line and column. Nodes come mostly in file order, so the line of the previous node is
 * checked first; anything else is a binary search over the line starts.
 */
class Positions {
  private line = 0;

  constructor(
    private readonly file: string,
    private readonly starts: readonly number[],
    /** 1 when the file starts with a byte order mark, which no editor counts as a column. */
    private readonly bom: number,
  ) {}

  at(offset: number): SourceLocation {
    const starts = this.starts;
    let i = this.line;
    if (starts.length === 0) return { file: this.file, line: 1, column: offset + 1 };
    if (starts[i]! <= offset && (i + 1 >= starts.length || starts[i + 1]! > offset)) {
      // same line as before
    } else if (i + 2 <= starts.length && starts[i + 1]! <= offset && (i + 2 >= starts.length || starts[i + 2]! > offset)) {
      i += 1;
    } else {
      let low = 0;
      let high = starts.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (starts[mid]! <= offset) low = mid + 1;
        else high = mid;
      }
      i = Math.max(0, low - 1);
    }
    this.line = i;
    const column = offset - starts[i]! + 1 - (i === 0 ? this.bom : 0);
    return { file: this.file, line: i + 1, column: column < 1 ? 1 : column };
  }
}

class Walker {
  readonly locations: Record<string, SourceLocation> = {};
  readonly interpolated: string[] = [];
  readonly written = new Map<string, string>();
  readonly reported = new Set<string>();
  readonly diagnostics: Diagnostic[] = [];
  private readonly anchors = new Map<string, Node>();
  private readonly expanding = new Set<Node>();
  /** The path of the node being converted; copied only when a message needs it. */
  private readonly path: (string | number)[] = [];
  private aliasDepth = 0;
  private aliases = 0;
  private expanded = 0;
  private nodes = 0;

  constructor(
    private readonly positions: Positions,
    /** Absent for documents that are not wsync resources: their `${...}` belong to another tool. */
    private readonly sources: SecretSources | undefined,
  ) {}

  at(offset: number): SourceLocation {
    return this.positions.at(offset);
  }

  private error(code: string, offset: number, segments: readonly (string | number)[], message: string): void {
    const d: Diagnostic = { severity: 'error', code, ...this.at(offset), message };
    if (segments.length > 0) d.field = dottedPath(segments);
    this.diagnostics.push(d);
  }

  /** Converts a node (and what it contains) to plain data, recording positions on the way. */
  value(node: unknown, pointer: string): JsonValue {
    if (++this.nodes > MAX_DOCUMENT_NODES) {
      throw new LimitReached('yaml-limit', `the document has more than ${MAX_DOCUMENT_NODES} nodes`, offsetOf(node));
    }
    if (this.aliasDepth > 0 && ++this.expanded > MAX_ALIAS_EXPANSION) {
      throw new LimitReached(
        'alias-limit',
        `aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes (an alias bomb?)`,
        offsetOf(node),
      );
    }
    if (this.path.length > MAX_DEPTH) {
      throw new LimitReached('yaml-limit', `nested deeper than ${MAX_DEPTH} levels`, offsetOf(node));
    }
    if (node === null || node === undefined || typeof node !== 'object') return null;
    if (isScalar(node)) {
      if (node.anchor && this.aliasDepth === 0) this.anchors.set(node.anchor, node);
      return this.scalar(node.value, offsetOf(node), pointer);
    }
    if (isAlias(node)) return this.alias(node, pointer);
    const anchor = (node as { anchor?: string }).anchor;
    // Anchors met while expanding an alias were registered where they were written.
    if (anchor && this.aliasDepth === 0) this.anchors.set(anchor, node as Node);
    if (isMap(node)) return this.mapping(node.items, pointer);
    if (isSeq(node)) return this.sequence(node.items, pointer);
    return null;
  }

  private sequence(items: readonly unknown[], pointer: string): JsonValue[] {
    const out: JsonValue[] = [];
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      const childPointer = `${pointer}/${index}`;
      this.locations[childPointer] = this.at(offsetOf(item));
      this.path.push(index);
      out.push(this.value(item, childPointer));
      this.path.pop();
    }
    return out;
  }

  private alias(node: { source: string }, pointer: string): JsonValue {
    const offset = offsetOf(node);
    if (++this.aliases > MAX_ALIASES) {
      throw new LimitReached('alias-limit', `more than ${MAX_ALIASES} aliases in one document`, offset);
    }
    const target = this.anchors.get(node.source);
    if (target === undefined) {
      throw new LimitReached('yaml-syntax', `alias *${node.source} refers to no anchor defined before it`, offset);
    }
    if (this.expanding.has(target)) {
      throw new LimitReached('alias-limit', `alias *${node.source} refers to a node that contains it`, offset);
    }
    this.expanding.add(target);
    this.aliasDepth++;
    try {
      return this.value(target, pointer);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(target);
    }
  }

  private mapping(items: readonly unknown[], pointer: string): JsonObject {
    const out: JsonObject = {};
    for (const item of items) {
      const pair = item as { key: unknown; value: unknown };
      let keyNode = pair.key;
      const keyOffset = offsetOf(keyNode ?? pair.value);
      if (isAlias(keyNode)) keyNode = this.anchors.get(keyNode.source) ?? keyNode;
      if (keyNode !== null && keyNode !== undefined && !isScalar(keyNode)) {
        this.error('schema', keyOffset, this.path, `${prefix(this.path)}mapping keys must be plain text`);
        continue;
      }
      const raw = keyNode === null || keyNode === undefined ? null : keyNode.value;
      const key = raw === null || raw === undefined ? '' : String(raw);
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        this.error('duplicate-key', keyOffset, [...this.path, key], `${prefix(this.path)}duplicate key "${key}"`);
        continue;
      }
      const childPointer = `${pointer}/${pointerSegment(key)}`;
      this.locations[childPointer] = this.at(keyOffset);
      this.path.push(key);
      const child = this.value(pair.value, childPointer);
      this.path.pop();
      // Assigning "__proto__" through [] would set the prototype instead of a field.
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
      } else {
        out[key] = child;
      }
    }
    return out;
  }

  private scalar(value: unknown, offset: number, pointer: string): JsonValue {
    if (typeof value === 'string') {
      if (this.sources === undefined || !value.includes('${')) return value;
      const result = interpolate(value, this.sources);
      for (const message of result.errors) {
        this.error('interpolation', offset, this.path, `${prefix(this.path)}${message}`);
      }
      if (result.errors.length > 0) this.reported.add(pointer);
      if (result.secret) {
        this.interpolated.push(pointer);
        this.written.set(pointer, value);
      }
      return result.value;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        this.error('schema', offset, this.path, `${prefix(this.path)}must be a finite number`);
        this.reported.add(pointer);
        return null;
      }
      return value;
    }
    if (typeof value === 'boolean' || value === null || value === undefined) return value ?? null;
    if (typeof value === 'bigint') return Number(value);
    return String(value);
  }
}

function offsetOf(node: unknown): number {
  const range = (node as { range?: [number, number, number] | null } | null | undefined)?.range;
  return range ? range[0] : 0;
}

/**
 * Only documents that say `apiVersion: wsync...` are interpolated: a GitHub workflow's `${{ }}`
 * or a manifest's `${VAR}` in the same tree are another tool's syntax, not ours to resolve.
 */
function declaresWsyncApiVersion(contents: unknown): boolean {
  if (!isMap(contents)) return false;
  const apiVersion = contents.get('apiVersion');
  return typeof apiVersion === 'string' && apiVersion.toLowerCase().startsWith('wsync');
}

function peekDocument(contents: unknown): { kind?: string; name?: string } {
  const peek: { kind?: string; name?: string } = {};
  if (!isMap(contents)) return peek;
  const kind = contents.get('kind');
  if (typeof kind === 'string') peek.kind = kind;
  const metadata = contents.get('metadata');
  if (isMap(metadata)) {
    const name = metadata.get('name');
    if (typeof name === 'string' && !name.includes('${')) peek.name = name;
  }
  return peek;
}

/**
 * yaml looks up process.env.LOG_TOKENS for every token it reads; process.env is a getenv call on
 * each access, which makes up a quarter of the parse. For the (synchronous) parse a plain object
 * with yaml's two debug switches stands in for it; the real one is back before anything else runs.
 */
function withPlainEnv<T>(run: () => T): T {
  const real = process.env;
  const plain: NodeJS.ProcessEnv = {};
  if (real.LOG_TOKENS !== undefined) plain.LOG_TOKENS = real.LOG_TOKENS;
  if (real.LOG_STREAM !== undefined) plain.LOG_STREAM = real.LOG_STREAM;
  process.env = plain;
  try {
    return run();
  } finally {
    process.env = real;
  }
}

/** Splits a file into documents and turns each into data. Never throws for any input text. */
export function parseFile(text: string, file: string, sources: SecretSources): ParsedFile {
  const lines = new LineCounter();
  const result: ParsedFile = { documents: [], diagnostics: [] };
  // uniqueKeys is off because yaml checks it in quadratic time; the walker finds duplicates instead.
  const docs = withPlainEnv(() =>
    parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: true }),
  );
  let yamlErrors = 0;
  const positions = new Positions(file, lines.lineStarts, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  for (const doc of docs) {
    const contents: unknown = doc.contents;
    const walker = new Walker(positions, declaresWsyncApiVersion(contents) ? sources : undefined);
    const parsed: ParsedDocument = {
      value: undefined,
      start: walker.at(offsetOf(contents)),
      locations: walker.locations,
      interpolated: walker.interpolated,
      written: walker.written,
      reported: walker.reported,
      diagnostics: walker.diagnostics,
    };
    if (doc.errors.length > 0) {
      parsed.peek = peekDocument(contents);
      for (const error of doc.errors) {
        if (++yamlErrors > MAX_YAML_ERRORS_PER_FILE) continue;
        const code =
          error.code === 'RESOURCE_EXHAUSTION' ? 'yaml-limit' : error.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax';
        parsed.diagnostics.push({ severity: 'error', code, ...walker.at(error.pos[0]), message: yamlMessage(error.message) });
      }
      result.documents.push(parsed);
      continue;
    }
    // An empty document (a trailing ---, only comments) holds nothing to count.
    if (contents === null || contents === undefined || (isScalar(contents) && contents.value === null)) continue;
    walker.locations[''] = parsed.start;
    try {
      parsed.value = walker.value(contents, '');
    } catch (err) {
      if (!(err instanceof LimitReached)) throw err;
      parsed.value = undefined;
      parsed.peek = peekDocument(contents);
      parsed.diagnostics.push({ severity: 'error', code: err.code, ...walker.at(err.at), message: err.message });
    }
    result.documents.push(parsed);
  }
  if (yamlErrors > MAX_YAML_ERRORS_PER_FILE) {
    result.diagnostics.push({
      severity: 'error',
      code: 'yaml-syntax',
      file,
      line: 1,
      column: 1,
      message: `${yamlErrors - MAX_YAML_ERRORS_PER_FILE} more YAML errors in this file are not shown`,
    });
  }
  return result;
}

function yamlMessage(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? message;
  return firstLine.length > 200 ? `${firstLine.slice(0, 197)}...` : firstLine;
}
