import type * as YamlModule from 'yaml';
import { isJsonObject, setOwn } from '../../core/json.js';
import type { Diagnostic, JsonObject, JsonValue, SourceLocation } from '../../core/types.js';
import { dottedPath, fieldPrefix, hasOwn, MERGE_KEY, pointerSegment } from './field-path.js';
import {
  MAX_ALIAS_EXPANSION,
  MAX_ALIAS_EXPANSION_BYTES,
  MAX_ALIASES,
  MAX_DEPTH,
  MAX_DOCUMENT_NODES,
  MAX_YAML_ERRORS_PER_FILE,
} from '../limits.js';
import { Positions } from './positions.js';
import { prescanDiagnostic } from './prescan.js';
import { syntaxHintsIn, yamlHints, type YamlHint } from './yaml-hints.js';
import { withPlainEnv, yamlLibrary } from './yaml-lib.js';

// The exact reader: the `yaml` library's parse, which knows where every node sits. It reads files
// the fast path declines (anything with a problem to report, or a construct it does not take) and
// supplies positions on demand.
const yaml = yamlLibrary;

/** What is recorded per pointer while a document is converted. */
interface Recorded {
  /** JSON Pointer -> position: of the key for mapping members, of the item for sequence items. */
  locations: Record<string, SourceLocation>;
  /** Pointer -> offset of a string that holds `${`, where a failed interpolation is reported. */
  strings: Map<string, number>;
  /** Pointers of values already reported (non-finite numbers): schema errors would only repeat it. */
  reported: Set<string>;
}

/** One document as the `yaml` path read it; interpolation comes after, on the plain value. */
export interface YamlDocument extends Recorded {
  /** Undefined when the document could not be read (syntax error, limit reached): see diagnostics. */
  value: JsonValue | undefined;
  /** Where the document's content starts, as an offset into the text and as a location. */
  startOffset: number;
  start: SourceLocation;
  diagnostics: Diagnostic[];
  /** For documents that could not be read: kind and metadata.name as far as they are legible. */
  peek?: { kind?: string; name?: string };
  /** Offset -> location in this file. */
  at(offset: number): SourceLocation;
  /** Bytes its aliases expand to (limits.ts, MAX_ALIAS_EXPANSION_BYTES). */
  aliasBytes: number;
}

export interface YamlFile {
  documents: YamlDocument[];
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

function recorded(): Recorded {
  return { locations: {}, strings: new Map(), reported: new Set() };
}

function under(pointer: string, base: string): boolean {
  return pointer === base || (pointer.startsWith(base) && pointer.charCodeAt(base.length) === 47 /* / */);
}

/** Moves what `from` recorded at `fromBase` and below to `to` at `toBase`. */
function moveRecorded(from: Recorded, fromBase: string, to: Recorded, toBase: string): void {
  for (const pointer of Object.keys(from.locations)) {
    if (under(pointer, fromBase)) to.locations[toBase + pointer.slice(fromBase.length)] = from.locations[pointer]!;
  }
  for (const [pointer, offset] of from.strings) {
    if (under(pointer, fromBase)) to.strings.set(toBase + pointer.slice(fromBase.length), offset);
  }
  for (const pointer of from.reported) {
    if (under(pointer, fromBase)) to.reported.add(toBase + pointer.slice(fromBase.length));
  }
}

/** Drops what was recorded at `base` and below (a merged value that an explicit key overrides). */
function forgetRecorded(rec: Recorded, base: string): void {
  for (const pointer of Object.keys(rec.locations)) if (under(pointer, base)) delete rec.locations[pointer];
  for (const pointer of [...rec.strings.keys()]) if (under(pointer, base)) rec.strings.delete(pointer);
  for (const pointer of [...rec.reported]) if (under(pointer, base)) rec.reported.delete(pointer);
}

function offsetOf(node: unknown): number {
  const range = (node as { range?: [number, number, number] | null } | null | undefined)?.range;
  return range ? range[0] : 0;
}

class Walker {
  rec: Recorded = recorded();
  readonly diagnostics: Diagnostic[] = [];
  private readonly anchors = new Map<string, YamlModule.Node>();
  private readonly expanding = new Set<YamlModule.Node>();
  /** The path of the node being converted; copied only when a message needs it. */
  private readonly path: (string | number)[] = [];
  private aliasDepth = 0;
  private aliasAt = 0; // offset of the outermost alias being expanded
  private aliases = 0;
  private expanded = 0;
  /** Bytes of the strings and keys aliases have repeated (fast-guard.ts, expandedBytes). */
  expandedBytes = 0;
  private nodes = 0;

  constructor(private readonly positions: Positions) {}

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
    const { isAlias, isMap, isScalar, isSeq } = yaml();
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
      if (this.aliasDepth > 0 && typeof node.value === 'string') this.expand(node.value.length);
      return this.scalar(node.value, offsetOf(node), pointer);
    }
    if (isAlias(node)) return this.alias(node, pointer);
    const anchor = (node as { anchor?: string }).anchor;
    // Anchors met while expanding an alias were registered where they were written.
    if (anchor && this.aliasDepth === 0) this.anchors.set(anchor, node as YamlModule.Node);
    if (isMap(node)) return this.mapping(node.items, pointer);
    if (isSeq(node)) return this.sequence(node.items, pointer);
    return null;
  }

  /** Counts bytes an alias repeats; past the budget, the error is at the alias (the outermost one). */
  private expand(bytes: number): void {
    if ((this.expandedBytes += bytes) <= MAX_ALIAS_EXPANSION_BYTES) return;
    throw new LimitReached('alias-limit', `aliases expand to more than ${MAX_ALIAS_EXPANSION_BYTES} bytes (an alias bomb?)`, this.aliasAt);
  }

  private sequence(items: readonly unknown[], pointer: string): JsonValue[] {
    const out: JsonValue[] = [];
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      const childPointer = `${pointer}/${index}`;
      this.rec.locations[childPointer] = this.at(offsetOf(item));
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
    if (this.aliasDepth === 0) this.aliasAt = offset;
    this.aliasDepth++;
    try {
      return this.value(target, pointer);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(target);
    }
  }

  private isMergeKey(node: unknown): boolean {
    return yaml().isScalar(node) && node.value === MERGE_KEY && node.type === 'PLAIN' && !node.tag;
  }

  private mapping(items: readonly unknown[], pointer: string): JsonObject {
    const { isAlias, isScalar } = yaml();
    const out: JsonObject = {};
    /** Keys a merge brought in: an explicit key may still override them, once. */
    let merged: Set<string> | undefined;
    for (const item of items) {
      const pair = item as { key: unknown; value: unknown };
      let keyNode = pair.key;
      const keyOffset = offsetOf(keyNode ?? pair.value);
      if (this.isMergeKey(keyNode)) {
        if (merged !== undefined) {
          this.error('duplicate-key', keyOffset, [...this.path, MERGE_KEY], `${fieldPrefix(this.path)}duplicate key "${MERGE_KEY}"`);
          continue;
        }
        merged = this.merge(pair.value, out, pointer, keyOffset);
        continue;
      }
      if (isAlias(keyNode)) keyNode = this.anchors.get(keyNode.source) ?? keyNode;
      if (keyNode !== null && keyNode !== undefined && !isScalar(keyNode)) {
        this.error('schema', keyOffset, this.path, `${fieldPrefix(this.path)}mapping keys must be plain text`);
        continue;
      }
      const raw = keyNode === null || keyNode === undefined ? null : keyNode.value;
      const key = raw === null || raw === undefined ? '' : String(raw);
      const childPointer = `${pointer}/${pointerSegment(key)}`;
      if (this.aliasDepth > 0) this.expand(key.length);
      if (hasOwn(out, key)) {
        if (merged?.delete(key) !== true) {
          this.error('duplicate-key', keyOffset, [...this.path, key], `${fieldPrefix(this.path)}duplicate key "${key}"`);
          continue;
        }
        // An explicit key overrides what a merge brought in, wherever it stands in the mapping.
        forgetRecorded(this.rec, childPointer);
      }
      this.rec.locations[childPointer] = this.at(keyOffset);
      this.path.push(key);
      const child = this.value(pair.value, childPointer);
      this.path.pop();
      setOwn(out, key, child);
    }
    return out;
  }

  /**
   * `<<: *defaults` or `<<: [*a, *b]`: the keys of each mapping that `out` does not have yet, the
   * earlier mapping first. Positions are where the merged keys are written.
   */
  private merge(valueNode: unknown, out: JsonObject, pointer: string, keyOffset: number): Set<string> {
    const added = new Set<string>();
    const own = this.rec;
    const scratch = recorded();
    this.rec = scratch;
    this.path.push(MERGE_KEY);
    let value: JsonValue;
    try {
      value = this.value(valueNode, '');
    } finally {
      this.rec = own;
      this.path.pop();
    }
    const sources: [JsonValue, string][] = Array.isArray(value) ? value.map((v, i) => [v, `/${i}`]) : [[value, '']];
    if (!sources.every(([source]) => isJsonObject(source))) {
      this.error(
        'merge-key',
        keyOffset,
        [...this.path, MERGE_KEY],
        `${fieldPrefix(this.path)}the merge key "<<" takes a mapping or a list of mappings, e.g. <<: *defaults or <<: [*a, *b]`,
      );
      return added;
    }
    for (const [source, base] of sources as [JsonObject, string][]) {
      for (const key of Object.keys(source)) {
        if (hasOwn(out, key)) continue;
        setOwn(out, key, source[key]!);
        added.add(key);
        const segment = pointerSegment(key);
        moveRecorded(scratch, `${base}/${segment}`, own, `${pointer}/${segment}`);
      }
    }
    return added;
  }

  private scalar(value: unknown, offset: number, pointer: string): JsonValue {
    if (typeof value === 'string') {
      if (value.includes('${')) this.rec.strings.set(pointer, offset);
      return value;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        this.error('schema', offset, this.path, `${fieldPrefix(this.path)}must be a finite number`);
        this.rec.reported.add(pointer);
        return null;
      }
      return value;
    }
    if (typeof value === 'boolean' || value === null || value === undefined) return value ?? null;
    if (typeof value === 'bigint') return Number(value);
    return String(value);
  }
}

function peekDocument(contents: unknown): { kind?: string; name?: string } {
  const { isMap } = yaml();
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

function yamlMessage(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? message;
  return firstLine.length > 200 ? `${firstLine.slice(0, 197)}...` : firstLine;
}

/** Splits a file into documents and turns each into data with `yaml`. Never throws for any input text. */
export function readWithYaml(text: string, file: string): YamlFile {
  const { LineCounter, parseAllDocuments, isScalar } = yaml();
  const lines = new LineCounter();
  const refused = prescanDiagnostic(text, file);
  if (refused !== undefined) return { documents: [], diagnostics: [refused] };
  const result: YamlFile = { documents: [], diagnostics: [] };
  // uniqueKeys is off because yaml checks it in quadratic time; the walker finds duplicates instead.
  const docs = withPlainEnv(() =>
    parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: true }),
  );
  let yamlErrors = 0;
  let hints: YamlHint[] | undefined;
  const positions = new Positions(file, lines.lineStarts, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  const at = (offset: number): SourceLocation => positions.at(offset);
  for (const doc of docs) {
    const contents: unknown = doc.contents;
    const walker = new Walker(positions);
    const startOffset = offsetOf(contents);
    const start = at(startOffset);
    const parsed: YamlDocument = { value: undefined, startOffset, start, ...walker.rec, diagnostics: walker.diagnostics, at, aliasBytes: 0 };
    if (doc.errors.length > 0) {
      parsed.peek = peekDocument(contents);
      hints ??= yamlHints(text);
      // A mistake the hints explain stands in for the parser's messages about it (often several).
      const explained = syntaxHintsIn(hints, doc.range, new Set(doc.errors.map((e) => lines.linePos(e.pos[0]).line)));
      for (const hint of explained) {
        if (++yamlErrors > MAX_YAML_ERRORS_PER_FILE) continue;
        parsed.diagnostics.push({ severity: 'error', code: 'yaml-syntax', ...at(hint.offset), message: hint.message });
      }
      let lastLine = 0;
      for (const error of explained.length > 0 ? [] : doc.errors) {
        // The parser's later messages about a line are about the same mistake.
        const line = lines.linePos(error.pos[0]).line;
        if (line === lastLine) continue;
        lastLine = line;
        if (++yamlErrors > MAX_YAML_ERRORS_PER_FILE) continue;
        const code =
          error.code === 'RESOURCE_EXHAUSTION' ? 'yaml-limit' : error.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax';
        parsed.diagnostics.push({ severity: 'error', code, ...at(error.pos[0]), message: yamlMessage(error.message) });
      }
      result.documents.push(parsed);
      continue;
    }
    // An empty document (a trailing ---, only comments) holds nothing to count.
    if (contents === null || contents === undefined || (isScalar(contents) && contents.value === null)) continue;
    walker.rec.locations[''] = start;
    try {
      parsed.value = walker.value(contents, '');
      parsed.aliasBytes = walker.expandedBytes;
    } catch (err) {
      if (!(err instanceof LimitReached)) throw err;
      parsed.value = undefined;
      parsed.peek = peekDocument(contents);
      hints ??= yamlHints(text);
      const hint = err.code === 'yaml-syntax' ? syntaxHintsIn(hints, doc.range, new Set())[0] : undefined;
      parsed.diagnostics.push({ severity: 'error', code: err.code, ...at(hint?.offset ?? err.at), message: hint?.message ?? err.message });
    }
    Object.assign(parsed, walker.rec);
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
