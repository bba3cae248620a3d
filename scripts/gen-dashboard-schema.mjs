#!/usr/bin/env node
// Generates schemas/dashboard-document.json, the schema of a dashboard document (what the UI and
// `GET /v2/dashboards/uid/{uid}` give as `dashboard`), from the OpenAPI document's `Dashboard`
// schema, so editors and `wsync validate` check charts, layout, refresh time and time window.
//
//   node scripts/gen-dashboard-schema.mjs [--check]
//
// --check writes nothing and exits 1 when the committed file differs (a test runs it).
//
// The service accepts more than the OpenAPI document lists (docs/wire-contract.md "Dashboards"
// gives the evidence for each); what is added here:
// - chart types the live service stores without a documented schema (SectionHeader, Placeholder),
//   and chart fields seen in live tests and Axiom's own tools (datasetId, customUnits, unit,
//   decimals; queryOptions.aggChartOpts and editorContent; layout `moved`; top-level `datasets`);
// - keys the service puts in the document it answers (id, version, createdAt, updatedAt,
//   createdBy, updatedBy, overrides; `uid` is documented), so a document saved from a read validates: wsync ignores them;
// - `owner` is optional (the service makes "" and a missing owner the org-wide X-AXIOM-EVERYONE),
//   `refreshTime` any whole number of seconds (the kind warns outside the documented 15, 60, 300);
// - unknown fields of a chart, a layout item or query options are marked
//   `x-wsync-unknown-fields: warning`: a field close to a known one is an error (a typo), any other
//   is a warning (a field the document does not list yet).
// Charts are matched to their type's schema with if/then on `type` (not the document's oneOf), so
// a wrong field gets one message about that chart type.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.resolve(repoRoot, 'reference/openapi-v2.json');
const target = path.resolve(repoRoot, 'schemas/dashboard-document.json');

export const UNKNOWN_FIELDS = 'x-wsync-unknown-fields';
const DROPPED_KEYS = new Set(['example', 'examples', 'externalDocs', 'readOnly', 'writeOnly', 'nullable', 'format']);
/** What the service puts in the documents it answers, with the JSON type it answers. */
const READ_BACK_KEYS = {
  id: 'string',
  version: 'integer',
  createdAt: 'string',
  updatedAt: 'string',
  createdBy: 'string',
  updatedBy: 'string',
  overrides: 'object',
};
/** Chart types the live service stores that the document has no schema for (go TestAllChartTypes). */
const UNDOCUMENTED_CHARTS = {
  SectionHeader: { name: { type: 'string', maxLength: 500 }, query: { type: 'object' } },
  Placeholder: { name: { type: 'string', maxLength: 500 } },
};
const DATASET_ID = { type: 'string', description: 'The dataset the chart was built on (the UI and live tests write it).' };
const CUSTOM_UNITS = { type: 'string', maxLength: 200 };
const DECIMALS = {
  type: ['integer', 'null'],
  description: 'Answered on charts made in the UI; the service refuses it in writes (wsync warns).',
};

function convert(node, defs, pending, all) {
  if (Array.isArray(node)) return node.map((item) => convert(item, defs, pending, all));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref') {
      const name = value.replace('#/components/schemas/', '');
      if (!(name in all)) throw new Error(`unresolvable reference ${value}`);
      if (!(name in defs) && !pending.includes(name)) pending.push(name);
      out.$ref = `#/definitions/${name}`;
      continue;
    }
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, convert(sub, defs, pending, all)]));
      continue;
    }
    out[key] = convert(value, defs, pending, all);
  }
  // OpenAPI 3.0 spellings -> JSON Schema.
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum ?? 0;
    delete out.minimum;
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  if (out.properties && out.type === undefined) out.type = 'object';
  return out;
}

/** Draft-07 ignores the siblings of a `$ref`: a reference with a description of its own goes into `allOf`. */
function wrapRefs(node) {
  if (Array.isArray(node)) return node.map(wrapRefs);
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, wrapRefs(value)]));
  if (typeof out.$ref !== 'string' || Object.keys(out).length === 1) return out;
  const { $ref, ...rest } = out;
  return { ...rest, allOf: [{ $ref }] };
}

function lenient(schema, extra = {}) {
  return { ...schema, properties: { ...schema.properties, ...extra }, [UNKNOWN_FIELDS]: 'warning' };
}

export function generate() {
  const doc = JSON.parse(readFileSync(source, 'utf8'));
  const all = doc.components.schemas;
  const defs = {};
  const pending = [];
  const root = convert(all.Dashboard, defs, pending, all);
  while (pending.length > 0) {
    const name = pending.shift();
    defs[name] = convert(all[name], defs, pending, all);
  }

  const chartNames = all.Chart.oneOf.map((ref) => ref.$ref.replace('#/components/schemas/', ''));
  const types = {};
  for (const name of chartNames) {
    const chart = defs[name];
    const type = chart.properties.type.enum[0];
    const extra = { datasetId: DATASET_ID, decimals: DECIMALS };
    if (type !== 'Note') extra.customUnits = CUSTOM_UNITS;
    if (type === 'Statistic') extra.unit = { type: 'string', maxLength: 100 };
    defs[name] = lenient(chart, extra);
    types[type] = name;
  }
  for (const [type, properties] of Object.entries(UNDOCUMENTED_CHARTS)) {
    const name = `${type}Chart`;
    defs[name] = lenient({
      type: 'object',
      title: type,
      description: 'A chart type the service stores that the OpenAPI document does not describe: its fields are not checked.',
      properties: { id: { $ref: '#/definitions/ChartId' }, type: { const: type }, ...properties, datasetId: DATASET_ID },
      required: ['id', 'type'],
      additionalProperties: false,
    });
    types[type] = name;
  }
  for (const name of Object.keys(defs).filter((n) => /QueryOptions$/.test(n))) {
    defs[name] = lenient(defs[name], { aggChartOpts: { $ref: '#/definitions/AggChartOptsString' }, editorContent: { type: 'string' } });
    defs.AggChartOptsString ??= convert(all.AggChartOptsString, defs, pending, all);
  }
  defs.LayoutItem = lenient(defs.LayoutItem, { moved: { type: 'boolean' } });
  defs.Chart = {
    type: 'object',
    description: 'A chart: `id` and `type`, then the fields of its type. An unknown type is sent as written (with a warning).',
    required: ['id', 'type'],
    properties: { id: { $ref: '#/definitions/ChartId' }, type: { type: 'string', minLength: 1 } },
    allOf: Object.entries(types).map(([type, name]) => ({
      if: { properties: { type: { const: type } }, required: ['type'] },
      then: { $ref: `#/definitions/${name}` },
    })),
  };

  const properties = { ...root.properties };
  properties.owner = {
    ...properties.owner,
    description: 'User id of the owner, or X-AXIOM-EVERYONE (the default; "" means the same) for every user of the org.',
  };
  // The document says "use an empty string or omit to disable comparison" but leaves "" out of the enum.
  properties.against = { ...properties.against, enum: [...properties.against.enum, ''] };
  properties.refreshTime = { type: 'integer', minimum: 1, description: 'Seconds between refreshes; the OpenAPI document lists 15, 60 and 300.' };
  properties.datasets = { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Datasets the dashboard queries (written by Axiom\'s own dashboard tools).' };
  for (const [key, type] of Object.entries(READ_BACK_KEYS)) {
    properties[key] = { type, description: 'Set by the service in the documents it answers: ignored (never compared, never sent).' };
  }
  properties.uid = { ...properties.uid, description: 'The dashboard uid; when present it must equal metadata.name.' };

  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'dashboard-document.json',
    title: 'DashboardDocument',
    description:
      'A dashboard document, as the UI and GET /v2/dashboards/uid/{uid} give it (generated from the OpenAPI `Dashboard` schema by scripts/gen-dashboard-schema.mjs).',
    type: 'object',
    required: root.required.filter((name) => name !== 'owner'),
    additionalProperties: false,
    properties,
    definitions: Object.fromEntries(Object.keys(defs).sort().map((name) => [name, defs[name]])),
  };
  return `${JSON.stringify(wrapRefs(schema), null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = generate();
  const relative = path.relative(repoRoot, target);
  if (process.argv.includes('--check')) {
    const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (current !== text) {
      console.error(`${relative} is out of date with reference/openapi-v2.json: run node scripts/gen-dashboard-schema.mjs`);
      process.exit(1);
    }
    console.log(`${relative} is up to date`);
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${relative}`);
  }
}
