import jsYaml from 'js-yaml';
import { isJsonObject, setOwn } from '../../core/json.js';
import type { JsonObject, JsonValue, SourceLocation } from '../../core/types.js';
import { CORE_SCHEMA_12 } from './core-schema.js';
import { declinedText, Guard, GuardStop } from './fast-guard.js';
import { simpleDocumentStarts, type DocumentStart } from './simple-yaml.js';
import { readSimpleValues } from './simple-values.js';
import { hasOwn, MERGE_KEY } from './field-path.js';
import { declaresWsyncApiVersion, interpolateDocument } from '../interpolate/interpolate-document.js';
import type { SecretSources } from '../interpolate/interpolate.js';
import { locationsOnDemand, type LocationSource } from './lazy-locations.js';
import { MAX_ALIAS_EXPANSION, MAX_DEPTH, MAX_DOCUMENT_NODES } from '../limits.js';
import { readWithYaml } from './yaml-document.js';

// The fast path: js-yaml (several times faster than `yaml`) reads the values of a file that has
// nothing to report. It declines (returns undefined) whatever it cannot vouch for, and the `yaml`
// path then reads the file as before, so every diagnostic still comes from there, with its exact
// position. What it takes, it must read exactly as the `yaml` path does: test/source/fast-path
// checks that on generated documents. Positions are computed on demand, by the `yaml` path.

/**
 * The location maps of a file's documents, computed by the `yaml` path on first use, all at once:
 * from the text kept, or (a one-shot read, which keeps no text) from the file read again, which
 * must be the text read (the same length and stamp); a file changed since gives each document's
 * start only, never another text's lines.
 */
class FileLocations implements LocationSource {
  private byStart: Map<number, Record<string, SourceLocation>> | undefined;
  private readonly length: number;

  /** `reread` and the length of the text it must give: the text is not kept. */
  constructor(
    private text: string,
    private readonly file: string,
    private readonly reread?: { text: () => string | undefined; length: number },
  ) {
    this.length = reread?.length ?? text.length;
    if (reread) this.text = '';
  }

  locationsAt(startOffset: number, start: SourceLocation): Record<string, SourceLocation> {
    if (this.byStart === undefined) {
      this.byStart = new Map();
      const text = this.reread ? this.reread.text() : this.text;
      if (text !== undefined && text.length === this.length) {
        for (const doc of readWithYaml(text, this.file).documents) this.byStart.set(doc.startOffset, doc.locations);
      }
      this.text = '';
    }
    return this.byStart.get(startOffset) ?? { '': start };
  }
}

/** Texts shorter than this are copies of their own in V8; longer ones point into the file's text. */
const SLICED_FROM = 13;

/**
 * Gives each long text of `values` a copy of its own, so that nothing keeps the file's text: the
 * texts js-yaml reads are slices of it. One JSON round trip per file: a copy at a time cost more.
 */
function ownTexts(documents: FastDocument[]): void {
  const holders: (JsonObject | JsonValue[])[] = [];
  const keys: (string | number)[] = [];
  const texts: string[] = [];
  const visit = (holder: JsonObject | JsonValue[], key: string | number, value: JsonValue): void => {
    if (typeof value === 'string') {
      if (value.length < SLICED_FROM) return;
      holders.push(holder);
      keys.push(key);
      texts.push(value);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value, i, value[i] as JsonValue);
    } else if (value !== null && typeof value === 'object') {
      for (const k of Object.keys(value)) visit(value, k, value[k] as JsonValue);
    }
  };
  for (const doc of documents) visit(doc as unknown as JsonObject, 'value', doc.value);
  if (texts.length === 0) return;
  const copies = JSON.parse(JSON.stringify(texts)) as string[];
  for (let i = 0; i < copies.length; i++) {
    const holder = holders[i] as JsonObject | JsonValue[];
    const key = keys[i] as string | number;
    if (Array.isArray(holder)) holder[key as number] = copies[i] as string;
    else setOwn(holder, key as string, copies[i] as string);
  }
}

/** Thrown inside the fast path to decline a file; never escapes it. */
class Declined extends Error {}

/**
 * Makes js-yaml's output a tree as the `yaml` path builds it: an alias becomes a copy (js-yaml
 * shares the node), merge keys are applied. Declines what the `yaml` path would report: non-finite
 * numbers, null keys, merges of anything but mappings, documents near the node, alias or depth
 * limits. Without aliases in the file nothing is shared, and the output is changed in place.
 */
class Copier {
  private nodes = 0;

  constructor(
    private readonly budget: number,
    private readonly inPlace: boolean,
  ) {}

  reset(): void {
    this.nodes = 0;
  }

  copy(value: unknown, depth: number): JsonValue {
    if (++this.nodes > this.budget) throw new Declined('a document near the node or alias limits');
    if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Declined('a number that is not finite');
      return value;
    }
    if (depth >= MAX_DEPTH - 1) throw new Declined('a document near the depth limit');
    if (Array.isArray(value)) {
      const out: JsonValue[] = this.inPlace ? (value as JsonValue[]) : new Array<JsonValue>(value.length);
      for (let i = 0; i < value.length; i++) out[i] = this.copy(value[i], depth + 1);
      return out;
    }
    if (typeof value === 'object') return this.mapping(value as Record<string, unknown>, depth);
    throw new Declined('a value of an unexpected type');
  }

  private mapping(raw: Record<string, unknown>, depth: number): JsonObject {
    // js-yaml turns a null key into "null"; the `yaml` path into "".
    if (hasOwn(raw, 'null')) throw new Declined('a null key');
    if (!hasOwn(raw, MERGE_KEY)) {
      const out = this.inPlace ? (raw as JsonObject) : {};
      for (const key of Object.keys(raw)) {
        const value = raw[key];
        const copied = this.copy(value, depth + 1);
        if (!this.inPlace || copied !== value) setOwn(out, key, copied);
      }
      return out;
    }
    const out: JsonObject = {};
    let merged: Set<string> | undefined;
    for (const key of Object.keys(raw)) {
      if (key === MERGE_KEY) {
        merged = this.merge(this.copy(raw[key], depth + 1), out);
        continue;
      }
      // An explicit key overrides a merged one; js-yaml has already refused a repeated key.
      if (hasOwn(out, key) && merged?.delete(key) !== true) throw new Declined('a key merged and repeated');
      setOwn(out, key, this.copy(raw[key], depth + 1));
    }
    return out;
  }

  private merge(value: JsonValue, out: JsonObject): Set<string> {
    const added = new Set<string>();
    const sources = Array.isArray(value) ? value : [value];
    for (const source of sources) {
      if (!isJsonObject(source)) throw new Declined('a merge of something other than mappings');
      for (const key of Object.keys(source)) {
        if (hasOwn(out, key)) continue;
        setOwn(out, key, source[key]!);
        added.add(key);
      }
    }
    return added;
  }
}

/** No interpolated strings (most documents): one empty map for them all. */
export const NO_STRINGS: ReadonlyMap<string, string> = new Map();

export interface FastDocument {
  value: JsonValue;
  start: SourceLocation;
  interpolated: string[];
  written: ReadonlyMap<string, string>;
  /** Dotted field -> the string as written, for strings that held `${var:}`. */
  variables?: ReadonlyMap<string, string>;
  /** The document's location map, computed on first use (see lazy-locations.ts). */
  locations: Record<string, SourceLocation>;
  /** Bytes its aliases expand to (limits.ts, MAX_ALIAS_EXPANSION_BYTES). */
  aliasBytes: number;
}

/** What js-yaml (or the reader of vouched files) read of a file, and what the fast path needs besides the values. */
interface Parsed {
  raws: unknown[];
  /** The text the values' strings are slices of: js-yaml's copy (a terminator appended), or the text itself when the reader of vouched files read it. */
  input: string;
  starts: readonly (DocumentStart | undefined)[];
  /** The guard's findings: merge keys to apply, bytes aliases expand to per document. */
  guard?: Guard;
}

/**
 * A listener that takes js-yaml's copy of the text at the first node and then takes itself off
 * (js-yaml looks for a listener on its state at every node): a file the scan vouches for costs no
 * call per node.
 */
function inputTaker(): { listener: (event: 'open' | 'close', state: unknown) => void; input: string } {
  const taker = {
    input: '',
    listener: (_event: 'open' | 'close', state: unknown): void => {
      const s = state as { input: string; listener: unknown };
      taker.input = s.input;
      s.listener = null;
    },
  };
  return taker;
}

/** js-yaml's documents of `text`, `listener` called on its nodes; or why it refused the text. */
function loadAll(text: string, listener: (event: 'open' | 'close', state: unknown) => void): unknown[] | { declined: string } {
  try {
    const options: jsYaml.LoadOptions & { maxDepth: number } = {
      schema: CORE_SCHEMA_12,
      // Deeper documents are the `yaml` path's to report; this only bounds js-yaml's recursion.
      maxDepth: MAX_DEPTH + 8,
      listener,
    };
    return jsYaml.loadAll(text, null, options);
  } catch (err) {
    if (err instanceof GuardStop) return { declined: err.message };
    return { declined: `js-yaml: ${err instanceof Error ? (err.message.split('\n', 1)[0] ?? '') : String(err)}` };
  }
}

/**
 * js-yaml's read of a file: watched by the guard node by node, unless the scan of its text
 * (simple-yaml.ts) vouches that the guard would find nothing in it.
 */
function parse(text: string, budget: number): Parsed | { declined: string } {
  const starts = simpleDocumentStarts(text, { nodes: budget, depth: MAX_DEPTH - 1 });
  if (starts !== undefined) {
    const values = readSimpleValues(text, starts);
    if (values !== undefined) return { raws: values, input: text, starts };
    const taker = inputTaker();
    const raws = loadAll(text, taker.listener);
    return Array.isArray(raws) ? { raws, input: taker.input, starts } : raws;
  }
  const guard = new Guard(budget);
  const raws = loadAll(text, guard.listener);
  if (!Array.isArray(raws)) return raws;
  if (guard.unusual !== undefined) return { declined: guard.unusual };
  return { raws, input: guard.input, starts: guard.starts, guard };
}

/**
 * The documents of a file that has nothing to report, or why the `yaml` path must read it: each
 * reason stands for something the fast path would read differently or not report.
 * `reread` (a one-shot read): the file's text read again. Given, the documents keep no hold on the
 * text (their long texts are copies, positions come from the file read again when asked).
 */
export function readFastOrDecline(text: string, file: string, sources: SecretSources, reread?: () => string | undefined): FastDocument[] | { declined: string } {
  const textReason = declinedText(text);
  if (textReason !== undefined) return { declined: textReason };
  // Without aliases nothing is shared or expanded, and the node limit is the only bound.
  const aliases = text.includes('*');
  const budget = (aliases ? MAX_ALIAS_EXPANSION : MAX_DOCUMENT_NODES) / 2;
  const parsed = parse(text, budget);
  if (!('raws' in parsed)) return parsed;
  const { raws, input, starts, guard } = parsed;
  // The guard has checked every node (or the scan has shown there is no alias or merge key, nothing
  // the guard would find): only aliases (shared nodes) and merge keys need a copy.
  const copier = guard !== undefined && (aliases || guard.merges) ? new Copier(budget, !aliases) : undefined;
  const placeholders = text.includes('${');
  // Positions come from the `yaml` path reading the same text: js-yaml's copy of it, which its
  // strings keep alive anyway, rather than a second one (it only has a NUL, maybe a line break, added).
  const lazy = new FileLocations(input.endsWith('\0') ? input.slice(0, -1) : text, file, reread && { text: reread, length: text.length });
  const out: FastDocument[] = [];
  try {
    for (let i = 0; i < raws.length; i++) {
      const raw = raws[i];
      // An empty document (a trailing ---, only comments) holds nothing to count.
      if (raw === null || raw === undefined) continue;
      const at = starts[i];
      if (at === undefined) return { declined: 'a document without a start' };
      let value = raw as JsonValue;
      if (copier !== undefined) {
        copier.reset();
        value = copier.copy(raw, 0);
      }
      let interpolated: string[] = [];
      let written: ReadonlyMap<string, string> = NO_STRINGS;
      let variables: ReadonlyMap<string, string> | undefined;
      if (placeholders && declaresWsyncApiVersion(value)) {
        const secrets = interpolateDocument(value, sources);
        if (secrets.problems.length > 0) return { declined: 'a placeholder that cannot be resolved' };
        ({ interpolated, written } = secrets);
        if (secrets.variables.size > 0) variables = secrets.variables;
      }
      const start = { file, line: at.line + 1, column: at.column + 1 };
      const aliasBytes = guard?.aliasBytes[i] ?? 0;
      const doc: FastDocument = { value, start, interpolated, written, locations: locationsOnDemand(lazy, at.offset, start), aliasBytes };
      if (variables) doc.variables = variables;
      out.push(doc);
    }
  } catch (err) {
    if (err instanceof Declined) return { declined: err.message };
    throw err;
  }
  if (reread) ownTexts(out);
  return out;
}

/** The documents of a file that has nothing to report, or undefined when the `yaml` path must read it. */
export function readFast(text: string, file: string, sources: SecretSources, reread?: () => string | undefined): FastDocument[] | undefined {
  const read = readFastOrDecline(text, file, sources, reread);
  return Array.isArray(read) ? read : undefined;
}
