// The overlay documents of one environment, by kind and name: merged over the base document of the
// same kind and name as the base files are processed; those no base declares are resources of
// that environment alone.
import { createHash } from 'node:crypto';
import { isJsonObject } from '../../core/json.js';
import type { Diagnostic } from '../../core/types.js';
import { isKindName } from '../../kinds/index.js';
import { parseFile, type ParsedDocument, type ParsedFile } from '../parse/document.js';
import type { SecretSources } from '../interpolate/interpolate.js';
import { processParsed, type FileResult } from '../process-file.js';
import { mergeOverlay } from './overlay.js';

interface OverlayDocument {
  doc: ParsedDocument;
  kind: string;
  name: string;
}

interface OverlayFile {
  path: string;
  text: string;
  parsed: ParsedFile;
  /** Per document of the file: its overlay identity, when it has one. */
  ids: (string | undefined)[];
}

function identity(doc: ParsedDocument): { id: string; kind: string; name: string } | undefined {
  const value = doc.value;
  if (!isJsonObject(value) || typeof value.kind !== 'string' || !isKindName(value.kind)) return undefined;
  const metadata = value.metadata;
  if (!isJsonObject(metadata) || typeof metadata.name !== 'string') return undefined;
  const name = metadata.name.normalize('NFC');
  return { id: `${value.kind}\u0000${name}`, kind: value.kind, name };
}

function where(location: { file: string; line: number }): string {
  return `${location.file}:${location.line}`;
}

export class Overlays {
  private readonly byId = new Map<string, OverlayDocument>();
  private readonly files: OverlayFile[] = [];
  /** Names what the overlays are, for a cache of base results merged with them. */
  readonly fingerprint: string;
  /** Per file, the bytes its aliases expand to: counted once, here, not again where merged. */
  readonly aliasBytes: { path: string; bytes: number }[] = [];

  constructor(
    readonly environment: string,
    texts: readonly { path: string; text: string }[],
    sources: SecretSources,
  ) {
    const hash = createHash('sha256').update(environment);
    for (const { path, text } of texts) {
      hash.update(`\u0000${path}\u0000${text}`);
      const parsed = parseFile(text, path, sources);
      const ids = parsed.documents.map((doc) => {
        const found = identity(doc);
        // The second overlay of the same resource is not one: processed alone, it is a duplicate.
        if (found === undefined || this.byId.has(found.id)) return undefined;
        this.byId.set(found.id, { doc, kind: found.kind, name: found.name });
        return found.id;
      });
      this.files.push({ path, text, parsed, ids });
      this.aliasBytes.push({ path, bytes: parsed.documents.reduce((sum, doc) => sum + doc.aliasBytes, 0) });
    }
    this.fingerprint = hash.digest('base64');
  }

  get size(): number {
    return this.byId.size;
  }

  /** The base document with its overlay merged over it, or the document itself when it has none. */
  readonly apply = (doc: ParsedDocument): ParsedDocument => {
    const found = identity(doc);
    const overlay = found && this.byId.get(found.id);
    if (!overlay || !isJsonObject(doc.value)) return doc;
    const merged = mergeOverlay(doc, overlay.doc);
    merged.overlaidBy = overlay.doc.start;
    return merged;
  };

  /**
   * The overlay files' own results, once the base's are known: overlays of a base resource yield
   * nothing more (they are merged into it); the others are this environment's own resources, or
   * an error when the base declares their name with another kind.
   */
  results(base: readonly FileResult[]): FileResult[] {
    const declared = new Map<string, { kind: string; at: { file: string; line: number } }[]>();
    const ids = new Set<string>();
    for (const result of base) {
      for (const entry of result.documents) {
        const d = entry.declaration;
        if (!d) continue;
        const name = d.writtenName.normalize('NFC');
        ids.add(`${d.kind}\u0000${name}`);
        const list = declared.get(name) ?? [];
        list.push({ kind: d.kind, at: entry.start });
        declared.set(name, list);
      }
    }
    return this.files.map((file) => {
      const alone: ParsedDocument[] = [];
      const diagnostics: Diagnostic[] = [];
      file.parsed.documents.forEach((doc, i) => {
        const id = file.ids[i];
        if (id !== undefined && ids.has(id)) return;
        const overlay = id === undefined ? undefined : this.byId.get(id);
        const other = overlay && declared.get(overlay.name)?.find((d) => d.kind !== overlay.kind);
        if (overlay && other) {
          diagnostics.push({
            severity: 'error',
            code: 'overlay-kind',
            ...doc.start,
            kind: overlay.kind,
            name: overlay.name,
            message:
              `environment "${this.environment}": overlays "${overlay.name}", which the base declares as a ${other.kind} at ${where(other.at)}: ` +
              `an overlay keeps its base's kind (for a ${overlay.kind} of this environment alone, give it a name of its own)`,
          });
          return;
        }
        alone.push(doc);
      });
      const result = processParsed(file.path, file.text, { documents: alone, diagnostics: file.parsed.diagnostics });
      result.diagnostics.push(...diagnostics);
      return result;
    });
  }
}
