#!/usr/bin/env node
// Generates src/emulator/wire-schemas.ts: the request-body schemas the emulator validates against,
// trimmed from the published OpenAPI document. The emulator ships in the npm package without
// reference/, so it carries its own copy; rerun this script when reference/openapi-v2.json changes.
//
//   node scripts/gen-emulator-schemas.mjs [--check] [path/to/openapi-v2.json]
//
// --check writes nothing and exits 1 when the committed file differs from what the document gives
// (a test runs it, so a changed OpenAPI document cannot silently drift from the emulator).
//
// Conversions (OpenAPI 3.0 schema objects -> JSON Schema that ajv understands):
// - `nullable: true` becomes a type union with "null";
// - a schema with `properties` but no `type` gets `type: "object"` (the service decodes into structs,
//   so a non-object is refused there too);
// - descriptions, examples and x-* extensions are dropped;
// - `#/components/schemas/X` references become `wire#/definitions/X`.
// Overrides where docs/wire-contract.md decides differently from the OpenAPI document are listed in
// OVERRIDES below, each with its reason.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const source = args.find((arg) => !arg.startsWith('--')) ?? path.resolve(repoRoot, 'reference/openapi-v2.json');
const target = path.resolve(repoRoot, 'src/emulator/wire-schemas.ts');

const REQUEST_SCHEMAS = [
  'Notifier',
  'Monitor',
  'Role',
  'Group',
  'CreateUserRequest',
  'UpdateUserRoleRequest',
  'VirtualField',
  'CreateDataset',
  'UpdateDataset',
  'MapField',
  'MapFields',
  'DatasetField',
  'StarredQuery',
  'NewAnnotation',
  'UpdatedAnnotation',
  'CreateAPIToken',
  'RegenerateAPIToken',
  'PostOrg',
  'UpdateOrg',
  'View',
  'DashboardUpsertRequest',
];

/** Chart types the document describes; the live service stores others too (see OVERRIDES.Chart). */
const CHART_TYPES = {
  TimeSeriesChart: 'TimeSeries',
  HeatmapChart: 'Heatmap',
  LogStreamChart: 'LogStream',
  PieChart: 'Pie',
  ScatterChart: 'Scatter',
  TableChart: 'Table',
  TopKChart: 'TopK',
  StatisticChart: 'Statistic',
  NoteChart: 'Note',
  MonitorListChart: 'MonitorList',
  SmartFilterChart: 'SmartFilter',
  SpacerChart: 'Spacer',
};

/** Chart fields the live service takes beyond the document (wire-contract.md "Dashboards"). */
function chartExtras(type) {
  const extra = { datasetId: { type: 'string' } };
  if (type !== 'Note') extra.customUnits = { type: 'string', maxLength: 200 };
  if (type === 'Statistic') extra.unit = { type: 'string', maxLength: 100 };
  return extra;
}

const withProperties = (schema, extra) => ({ ...schema, properties: { ...schema.properties, ...extra } });

const OVERRIDES = {
  // wire-contract.md: "StarredQuery: metadata: {}" is a server-filled default, so a client may omit it.
  StarredQuery: (schema) => ({ ...schema, required: schema.required.filter((name) => name !== 'metadata') }),
  // wire-contract.md "Dashboards": what the live service takes beyond the document.
  // And `overrides` plus any other top-level key, kept as sent: the Terraform provider sends its
  // user's document verbatim and compares the keys it names (wire-contract.md "What provider users set").
  Dashboard: (schema) => ({
    ...withProperties(schema, { datasets: { type: 'array', items: { type: 'string' } }, overrides: { type: 'object' } }),
    additionalProperties: true,
  }),
  // SectionHeader and Placeholder (stored by the live service) and types the document does not
  // know yet: an id and a type, fields unchecked.
  Chart: (schema) => ({
    oneOf: [
      ...schema.oneOf,
      {
        type: 'object',
        required: ['id', 'type'],
        properties: { id: { type: 'string', minLength: 1 }, type: { type: 'string', not: { enum: Object.values(CHART_TYPES) } } },
      },
    ],
  }),
  LayoutItem: (schema) => withProperties(schema, { moved: { type: 'boolean' } }),
  // wire-contract.md "What provider users set": a role's orgCapabilities.labels, which the Terraform
  // provider's axiom_role writes and reads back (the document does not list it).
  roleOrgCapabilities: (schema) =>
    withProperties(schema, { labels: { type: 'array', items: { type: 'string', enum: ['create', 'read', 'update', 'delete'] } } }),
  TimeSeriesQueryOptions: (schema) => withProperties(schema, { aggChartOpts: { type: 'string' }, editorContent: { type: 'string' } }),
  HeatmapQueryOptions: (schema) => withProperties(schema, { editorContent: { type: 'string' } }),
  ...Object.fromEntries(Object.entries(CHART_TYPES).map(([name, type]) => [name, (schema) => withProperties(schema, chartExtras(type))])),
};

const DROPPED_KEYS = new Set(['description', 'example', 'examples', 'externalDocs', 'readOnly', 'writeOnly']);

const doc = JSON.parse(readFileSync(source, 'utf8'));
const all = doc.components.schemas;
const definitions = {};
const pending = [...REQUEST_SCHEMAS];

function convert(node) {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    if (key === '$ref') {
      const name = value.replace('#/components/schemas/', '');
      if (!(name in all)) throw new Error(`unresolvable reference ${value}`);
      if (!(name in definitions) && !pending.includes(name)) pending.push(name);
      out.$ref = `wire#/definitions/${name}`;
      continue;
    }
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, convert(sub)]));
      continue;
    }
    out[key] = convert(value);
  }
  if (out.properties && out.type === undefined) out.type = 'object';
  // OpenAPI 3.0's boolean exclusiveMinimum is a number in JSON Schema draft 6 and later.
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum ?? 0;
    delete out.minimum;
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

while (pending.length > 0) {
  const name = pending.shift();
  const converted = convert(all[name]);
  definitions[name] = OVERRIDES[name] ? OVERRIDES[name](converted) : converted;
}

const sorted = Object.fromEntries(Object.keys(definitions).sort().map((name) => [name, definitions[name]]));
const body = JSON.stringify({ $id: 'wire', definitions: sorted }, null, 2);
const text =
  `// Generated by scripts/gen-emulator-schemas.mjs from the OpenAPI document (${doc.info.title} ${doc.info.version}).\n` +
  '// Do not edit by hand: change the script and rerun it.\n' +
  `export const wireSchemas: Record<string, unknown> = ${body};\n\n` +
  '/** The request-body schemas the emulator validates against. */\n' +
  `export const wireSchemaNames = [\n${REQUEST_SCHEMAS.map((name) => `  '${name}',`).join('\n')}\n] as const;\n\n` +
  'export type WireSchemaName = (typeof wireSchemaNames)[number];\n';
const relative = path.relative(repoRoot, target);
if (check) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== text) {
    console.error(`${relative} is out of date with ${source}: run node scripts/gen-emulator-schemas.mjs`);
    process.exit(1);
  }
  console.log(`${relative} is up to date`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${relative} (${Object.keys(sorted).length} schemas)`);
}
