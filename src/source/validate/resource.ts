import { isJsonObject } from '../../core/json.js';
import type { DesiredResource, Diagnostic, JsonObject, JsonValue, KindName } from '../../core/types.js';
import { canonicalKind, isKindName, KIND_NAMES, KINDS } from '../../kinds/index.js';
import type { ParsedDocument } from '../parse/document.js';
import { compactAnnotations, compactObject } from './compact.js';
import { problemDiagnostics, specProblems } from './kind-checks.js';
import { translateErrors } from './schema-errors.js';
import { editDistance, suggestion } from '../../core/suggest.js';
import { validatorFor } from './validator.js';

export const API_VERSION = 'wsync/v1';

/** The annotations of a resource that has none, one frozen record for all. */
export const NO_ANNOTATIONS: Record<string, string> = Object.freeze({});
/** Most documents interpolate nothing: one frozen empty list of pointers for them all, rather than one each. */
export const NO_POINTERS = Object.freeze([]) as unknown as string[];

/** What one document turned out to be. */
export type DocumentOutcome =
  | { type: 'resource'; resource: DesiredResource }
  /** Not a wsync resource (a CI config, a Kubernetes manifest): ignored, counted and listed with why. */
  | { type: 'skipped'; reason: string }
  /** A wsync resource (or what looks like one) with problems, all in `diagnostics`. */
  | { type: 'invalid' };

/** Does text that is not a mapping look like a resource someone got wrong? */
function mentionsResource(value: JsonValue): boolean {
  if (typeof value === 'string') return value.includes('apiVersion') || value.includes(API_VERSION);
  if (Array.isArray(value)) {
    return value.some((item) => isJsonObject(item) && typeof item.apiVersion === 'string' && item.apiVersion.startsWith('wsync'));
  }
  return false;
}

function error(doc: ParsedDocument, code: string, pointer: string, message: string, field?: string): void {
  const d: Diagnostic = { severity: 'error', code, ...(doc.locations[pointer] ?? doc.start), message };
  if (field) d.field = field;
  doc.diagnostics.push(d);
}

/** Kind and name for messages; an interpolated name is shown as written, never as its value. */
function label(doc: ParsedDocument): { kind?: string; name?: string } {
  if (doc.peek) return doc.peek.kind !== undefined && isKindName(doc.peek.kind) ? doc.peek : {};
  const value = doc.value;
  if (!isJsonObject(value)) return {};
  const out: { kind?: string; name?: string } = {};
  if (typeof value.kind === 'string' && isKindName(value.kind)) out.kind = value.kind;
  const metadata = value.metadata;
  if (isJsonObject(metadata) && typeof metadata.name === 'string') {
    out.name = doc.written.get('/metadata/name') ?? metadata.name;
  }
  return out;
}

/** Fills kind and name into the document's diagnostics that lack them. */
export function labelDiagnostics(doc: ParsedDocument): void {
  const { kind, name } = label(doc);
  if (kind === undefined) return;
  for (const d of doc.diagnostics) {
    if (d.kind === undefined) {
      d.kind = kind;
      if (name !== undefined) d.name = name;
    }
  }
}

/** What a skipped document is, in words, for the list of skipped documents. */
function skippedAs(value: JsonObject): string {
  const kind = typeof value.kind === 'string' ? `kind ${value.kind}` : 'no kind';
  const apiVersion = typeof value.apiVersion === 'string' ? `apiVersion ${value.apiVersion}` : 'no apiVersion';
  return `${apiVersion}, ${kind}: not a wsync resource`;
}

/**
 * A document of another tool that happens to use one of our kind names (a Kubernetes `Role` of
 * `rbac.authorization.k8s.io/v1`): an API group with a domain, and no `spec`. Anything else with
 * our kind and `metadata` is taken for a resource whose apiVersion is mistyped, so it is an error:
 * skipped, it would read as undeclared and `--prune` would delete its live object.
 */
function isForeignNamesake(value: JsonObject, apiVersion: JsonValue): boolean {
  return typeof apiVersion === 'string' && /^[a-z0-9-]+(\.[a-z0-9-]+)+\/[a-z0-9]+$/i.test(apiVersion) &&
    !apiVersion.toLowerCase().startsWith('wsync') && value.spec === undefined;
}

/** How a resource's spec is kept (compact.ts): as parsed (not kept for long); compacted; compacted, long texts shared too (they are copies of their own). */
export type Compaction = 'none' | 'compact' | 'long texts too';

/** Classifies a parsed document, schema-checks it when it is a resource, and builds the resource. */
export function toResource(doc: ParsedDocument, compact: Compaction = 'compact'): DocumentOutcome {
  const value = doc.value;
  if (value === undefined) return { type: 'invalid' };
  if (!isJsonObject(value)) {
    if (!mentionsResource(value)) return { type: 'skipped', reason: `a ${value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value}, not a mapping: not a wsync resource` };
    error(doc, 'not-a-mapping', '', 'a resource document must be a mapping of apiVersion, kind, metadata and spec');
    return { type: 'invalid' };
  }
  const apiVersion = value.apiVersion;
  const ours = typeof value.kind === 'string' && isKindName(value.kind) && isJsonObject(value.metadata);
  if (apiVersion === undefined) {
    // Only close misspellings: `version` (docker-compose) must not count as a mistyped apiVersion.
    const near = Object.keys(value).find((k) => editDistance(k.toLowerCase(), 'apiversion', 2) <= 2);
    if (near !== undefined) {
      error(doc, 'api-version', `/${near}`, `unknown field "${near}" (did you mean "apiVersion"?)`, near);
      return { type: 'invalid' };
    }
    if (ours) {
      error(doc, 'api-version', '', `missing apiVersion (a ${String(value.kind)} needs apiVersion: ${API_VERSION})`, 'apiVersion');
      return { type: 'invalid' };
    }
    return { type: 'skipped', reason: skippedAs(value) };
  }
  if (apiVersion !== API_VERSION) {
    const wsyncLike = typeof apiVersion === 'string' && apiVersion.toLowerCase().startsWith('wsync');
    // Another tool's document (apiVersion: apps/v1, kind: Deployment) is none of our business.
    if (!wsyncLike && !(ours && !isForeignNamesake(value, apiVersion))) return { type: 'skipped', reason: skippedAs(value) };
    const written = typeof apiVersion === 'string' ? `"${apiVersion}"` : 'not a string';
    const what = wsyncLike ? 'unsupported version' : `${written} is not wsync's`;
    error(doc, 'api-version', '/apiVersion', `apiVersion: ${what} (did you mean "${API_VERSION}"? this wsync reads ${API_VERSION})`, 'apiVersion');
    return { type: 'invalid' };
  }
  const kind = value.kind;
  if (typeof kind !== 'string' || !isKindName(kind)) {
    const kinds = KIND_NAMES.join(', ');
    if (kind === undefined) {
      error(doc, 'unknown-kind', '', `missing required field "kind" (one of ${kinds})`, 'kind');
    } else {
      const text = typeof kind === 'string' ? `unknown kind "${kind}"${suggestion(kind, KIND_NAMES)}` : 'must be a string';
      error(doc, 'unknown-kind', '/kind', `kind: ${text}; the kinds are ${kinds}`, 'kind');
    }
    return { type: 'invalid' };
  }
  return validateResource(doc, value, canonicalKind(kind), compact);
}

function validateResource(doc: ParsedDocument, value: JsonObject, kind: KindName, compact: Compaction): DocumentOutcome {
  const module = KINDS[kind];
  const validate = validatorFor(module.schemaFile);
  if (!validate(value)) {
    doc.diagnostics.push(
      ...translateErrors(validate.errors ?? [], {
        document: value,
        locations: doc.locations,
        start: doc.start,
        skip: doc.reported,
      }),
    );
  }
  const metadata = isJsonObject(value.metadata) ? value.metadata : {};
  // Names compare in NFC (so do keys): what is written to the API is the NFC form too.
  const name = typeof metadata.name === 'string' ? metadata.name.normalize('NFC') : '';
  const spec = isJsonObject(value.spec) ? value.spec : {};
  // The kind's own checks read defensively, so they report alongside the schema's errors.
  const problems = specProblems(module, name, spec, doc.interpolated);
  if (problems.length > 0) doc.diagnostics.push(...problemDiagnostics(problems, { locations: doc.locations, fallback: doc.start, base: '/spec' }));
  if (doc.diagnostics.length > 0 && doc.diagnostics.some((d) => d.severity === 'error')) return { type: 'invalid' };
  let annotations = NO_ANNOTATIONS;
  if (isJsonObject(metadata.annotations)) {
    const found: Record<string, string> = {};
    for (const [k, v] of Object.entries(metadata.annotations)) if (typeof v === 'string') found[k] = v;
    // Most resources have none: one shared empty record rather than one each.
    if (Object.keys(found).length > 0) annotations = compact === 'none' ? found : compactAnnotations(found);
  }
  if (compact !== 'none') compactObject(spec, compact === 'long texts too');
  return {
    type: 'resource',
    resource: {
      kind,
      name,
      key: module.keyOf(name, spec),
      annotations,
      spec,
      source: doc.start,
      locations: doc.locations,
      interpolated: doc.interpolated.length === 0 ? NO_POINTERS : doc.interpolated,
    },
  };
}
