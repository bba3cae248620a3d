// Annotations: /v2/annotations. Create answers 201. PUT merges (every UpdatedAnnotation field is
// optional). `time` defaults to the request time. The list filters by datasets (comma-separated or
// repeated), start and end (an annotation shows when its [time, endTime] overlaps [start, end]).
import { badRequest, notFound } from '../errors.js';
import { isJsonObject, isZeroTime, stringArrayField, stringField, type JsonObject } from '../json.js';
import { orgCap } from '../capabilities.js';
import { json, type RequestContext } from '../routes.js';
import type { Stored } from '../collection.js';
import type { Workspace } from '../store.js';
import { validateBody } from '../validation.js';
import {
  assignId,
  crudRoutes,
  metaOf,
  normalizeTimestamp,
  requireDataset,
  seedWith,
  type KindModule,
  type SaveFunction,
} from './common.js';

const LABEL = 'annotations';
const collection = (workspace: Workspace) => workspace.annotations;

/** Texts a body clears with `""` (answered absent, like a field never set). */
const CLEARABLE = ['title', 'description', 'url'] as const;

/**
 * What the service takes beyond the document: `null` for "keep" (axiom-py sends every unset
 * field of an update as null) and Go's zero time for "no time" (docs/wire-contract.md).
 */
function prepareBody(body: unknown): unknown {
  if (!isJsonObject(body)) return body;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === null) continue;
    if ((key === 'time' || key === 'endTime') && typeof value === 'string' && isZeroTime(value)) continue;
    out[key] = value;
  }
  return out;
}

const saveAnnotation: SaveFunction = (workspace, body, meta, label, existing) => {
  const merged: JsonObject = { ...(existing ?? {}), ...body };
  for (const field of CLEARABLE) if (merged[field] === '') delete merged[field];
  const datasets = stringArrayField(merged, 'datasets');
  if (datasets.length === 0) throw badRequest(`${label}: field "datasets" must name at least one dataset`);
  datasets.forEach((dataset) => requireDataset(workspace, dataset, label));
  const time = normalizeTimestamp(stringField(merged, 'time') ?? meta.now);
  const endTime = stringField(merged, 'endTime');
  const annotation: Stored = {
    id: existing?.id ?? assignId(meta, workspace.annotations, 'ann', workspace),
    ...merged,
    time,
  };
  if (endTime !== undefined) {
    annotation.endTime = normalizeTimestamp(endTime);
    if (annotation.endTime < time) throw badRequest(`${label}: field "endTime" must not be before "time"`);
  }
  workspace.annotations.put(annotation);
  return annotation;
};

const create = (context: RequestContext) => {
  const body = validateBody('NewAnnotation', LABEL, prepareBody(context.body));
  const annotation = saveAnnotation(context.workspace, body, metaOf(context), LABEL);
  context.workspace.changed();
  return json(context.workspace.annotations.viewJson(annotation), 201);
};

const update = (context: RequestContext, existing: Stored) => {
  const body = validateBody('UpdatedAnnotation', LABEL, prepareBody(context.body));
  const annotation = saveAnnotation(context.workspace, body, metaOf(context), LABEL, existing);
  context.workspace.changed();
  return json(context.workspace.annotations.viewJson(annotation));
};

function timeParameter(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = Date.parse(raw);
  if (!/^\d{4}-\d\d-\d\dT/.test(raw) || Number.isNaN(value)) {
    throw badRequest(`${LABEL}: query parameter "${name}" must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z, got "${raw}"`);
  }
  return value;
}

function list(context: RequestContext) {
  const { query, workspace } = context;
  const datasets = query.getAll('datasets').flatMap((value) => value.split(',')).filter((name) => name !== '');
  datasets.forEach((dataset) => requireDataset(workspace, dataset, LABEL));
  const start = timeParameter(query, 'start');
  const end = timeParameter(query, 'end');
  const matching = [...workspace.annotations.values()].filter((annotation) => {
    if (datasets.length > 0 && !stringArrayField(annotation, 'datasets').some((name) => datasets.includes(name))) {
      return false;
    }
    const from = Date.parse(stringField(annotation, 'time') ?? '');
    const to = Date.parse(stringField(annotation, 'endTime') ?? '') || from;
    return (start === undefined || to >= start) && (end === undefined || from <= end);
  });
  return json(workspace.annotations.listJson(matching));
}

/**
 * What a triggered monitor leaves behind (POST /_emulator/monitor-trigger): the service makes an
 * annotation by itself. Its shape is a guess (docs/wire-contract.md): type `monitor`, the monitor's
 * name as title, the datasets given or those its APL query names.
 */
export function annotateTriggeredMonitor(workspace: Workspace, monitorId: string, datasets: string[] | undefined, now: string): Stored {
  const monitor = workspace.monitors.get(monitorId);
  if (!monitor) throw notFound(`monitor-trigger: monitor "${monitorId}" not found`);
  const query = stringField(monitor, 'aplQuery') ?? '';
  const named = [...query.matchAll(/\['([^'\]]+)'\]/g)].map((m) => m[1] ?? '').filter((name) => workspace.datasets.has(name));
  const chosen = datasets ?? [...new Set(named)];
  if (chosen.length === 0) throw badRequest('monitor-trigger: name "datasets": the monitor\'s query names no known dataset');
  const name = stringField(monitor, 'name') ?? monitorId;
  const body: JsonObject = { type: 'monitor', title: name, description: `Monitor "${name}" triggered`, datasets: chosen, time: now };
  const annotation = saveAnnotation(workspace, body, { userId: '', email: '', name: '', now }, LABEL);
  workspace.changed();
  return annotation;
}

export const annotations: KindModule = {
  routes: crudRoutes({
    base: '/v2/annotations',
    noun: 'annotation',
    collection,
    capability: (action) => orgCap('annotations', action),
    create,
    update,
    list,
  }),
  seed: seedWith('annotations', 'NewAnnotation', collection, saveAnnotation),
};
