import type { JsonObject } from '../core/types.js';
import { isAbsentTime } from '../core/time.js';
import type { AnnotationSpec } from '../generated/spec-types.js';
import { asString, encodeSegment, pickDefined } from './common.js';
import type { KindModule, SpecFields } from './types.js';

const FIELDS = ['type', 'datasets', 'description', 'time', 'endTime', 'url'] as const;
/** Texts an update clears with `""`: PUT merges, so a field left out of the body keeps its value. */
const CLEARED_BY_EMPTY = ['title', 'description', 'url'] as const;

/**
 * The type of wsync's own marks of an applied revision (#26.3, `reconcile/revision-marks.ts`): never
 * owned, so never planned or pruned, and never written into files (export, pull) either: a file for
 * each apply would make every apply a change to bring back into git.
 */
export const MARK_ANNOTATION_TYPE = 'wsync-apply';

/** An instant in one spelling (`2026-11-02T09:30:00.000Z`), so that a file's `...:00Z` and the service's `...:00.000Z` are one key. */
function instantOf(value: string | undefined): string {
  if (value === undefined || isAbsentTime(value)) return '';
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/** The title on the service: `spec.title` when the file gives one (`""`: none), else metadata.name. */
function titleOf(name: string, spec: SpecFields<AnnotationSpec>): string {
  return asString(spec.title) ?? name;
}

/** The name a file gives an annotation without a title (metadata.name cannot be empty). */
function untitledName(raw: JsonObject): string {
  return `untitled ${asString(raw.type) ?? ''} ${instantOf(asString(raw.time))}`.trim();
}

export const annotation: KindModule<AnnotationSpec> = {
  kind: 'Annotation',
  plural: 'annotations',
  schemaFile: 'annotation.json',
  level: 3,
  description: 'A marker on charts (a deploy, an incident), told apart by its type, time and title.',
  // Type and time first: neither holds a "/", so no title can make two annotations one key.
  keyOf: (name, spec) => `${asString(spec.type) ?? ''}/${instantOf(asString(spec.time))}/${titleOf(name, spec)}`,
  list: { style: 'plain', path: '/v2/annotations' },
  read: (id) => ({ method: 'GET', path: `/v2/annotations/${encodeSegment(id)}` }),
  create: { method: 'POST', path: '/v2/annotations' },
  update: (id) => ({ method: 'PUT', path: `/v2/annotations/${encodeSegment(id)}` }),
  remove: (id) => ({ method: 'DELETE', path: `/v2/annotations/${encodeSegment(id)}` }),
  serviceMade:
    'the service makes annotations by itself (a triggered monitor, a deployment integration), and wsync deletes only ' +
    'annotations it created: use --prune, which deletes those once no file declares them',
  serverOwned: ['id'],
  secretFields: [],
  setFields: ['datasets'],
  defaults: {},
  computed: [],
  timestamps: ['time', 'endTime'],
  // No request is known that unsets an end time: PUT merges, and null means "keep".
  uncleared: ['endTime'],
  immutable: [],
  references: [{ field: 'datasets', wireField: 'datasets', target: 'Dataset', many: true, oftenUndeclared: true }],

  alignLive(desired, live, raw) {
    // A file that gives the title in spec.title compares it with the service's.
    if (desired.title === undefined) return live;
    return { ...live, title: asString(raw.title) ?? '' };
  },

  toWire(name, spec, _resolve, live) {
    const title = titleOf(name, spec);
    const body: JsonObject = { ...pickDefined(spec, FIELDS) };
    if (title !== '') body.title = title;
    if (live) for (const field of CLEARED_BY_EMPTY) body[field] ??= '';
    return body;
  },

  exportSpec({ spec }) {
    return spec.type === MARK_ANNOTATION_TYPE ? {} : { spec };
  },

  fromWire(raw) {
    const spec = pickDefined(raw, FIELDS);
    const title = asString(raw.title) ?? '';
    if (title !== '') return { name: title, spec };
    // No title on the service: the file names it by type and time, and says it has none.
    return { name: untitledName(raw), spec: { ...spec, title: '' } };
  },
};
