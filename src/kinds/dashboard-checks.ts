// What the dashboard schema cannot say: chart ids and layout cells that must be unique and agree,
// chart types the schema does not know (a warning, unless a typo of one it knows), and values the
// service is known to treat differently from the OpenAPI document.
import { asJsonObject } from '../core/json.js';
import { toPointer } from '../core/json-paths.js';
import type { JsonObject, JsonValue } from '../core/types.js';
import { didYouMean } from '../core/suggest.js';
import type { SpecProblem } from './types.js';

/**
 * Chart types whose fields the schema checks: the OpenAPI document's twelve, and the two the
 * live service stores without a documented schema (schemas/dashboard-document.json, a test
 * checks they agree).
 */
export const KNOWN_CHART_TYPES: readonly string[] = [
  'TimeSeries',
  'Heatmap',
  'LogStream',
  'Pie',
  'Scatter',
  'Table',
  'TopK',
  'Statistic',
  'Note',
  'MonitorList',
  'SmartFilter',
  'Spacer',
  'SectionHeader',
  'Placeholder',
];

const DOCUMENTED_REFRESH_TIMES = [15, 60, 300];

function objects(value: JsonValue | undefined): (JsonObject | undefined)[] {
  return Array.isArray(value) ? value.map((item) => asJsonObject(item)) : [];
}

function pointer(...segments: (string | number)[]): string {
  return toPointer(['dashboard', ...segments]);
}

/** Each item's name (its `key` field) once: a second item with a taken name is an error. */
function uniqueNames(items: (JsonObject | undefined)[], key: string, what: string, at: string, problems: SpecProblem[]): Set<string> {
  const first = new Map<string, number>();
  items.forEach((item, index) => {
    const name = item?.[key];
    if (typeof name !== 'string') return;
    const taken = first.get(name);
    if (taken === undefined) first.set(name, index);
    else problems.push({ severity: 'error', pointer: pointer(at, index, key), message: `${what} "${name}" is also ${at}[${taken}]; each must be unique` });
  });
  return new Set(first.keys());
}

function checkChartType(chart: JsonObject, index: number, problems: SpecProblem[]): void {
  const type = chart.type;
  if (typeof type !== 'string' || KNOWN_CHART_TYPES.includes(type)) return;
  const meant = didYouMean(type, KNOWN_CHART_TYPES);
  if (meant !== undefined) {
    problems.push({ severity: 'error', pointer: pointer('charts', index, 'type'), message: `unknown chart type "${type}" (did you mean "${meant}"?)` });
    return;
  }
  problems.push({
    severity: 'warning',
    pointer: pointer('charts', index, 'type'),
    message: `chart type "${type}" is not one the API describes (${KNOWN_CHART_TYPES.join(', ')}): its fields are not checked, it is sent as written`,
  });
}

export function checkDashboard(name: string, document: JsonObject): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const uid = document.uid;
  if (typeof uid === 'string' && uid !== name) {
    problems.push({ severity: 'error', pointer: pointer('uid'), message: `uid "${uid}" differs from metadata.name "${name}", the dashboard's uid` });
  }
  const charts = objects(document.charts);
  const chartIds = uniqueNames(charts, 'id', 'chart id', 'charts', problems);
  charts.forEach((chart, index) => {
    if (!chart) return;
    checkChartType(chart, index, problems);
    if (chart.decimals !== undefined && chart.decimals !== null) {
      problems.push({
        severity: 'warning',
        pointer: pointer('charts', index, 'decimals'),
        message: 'the service answers it on charts made in the UI but refuses it when a dashboard is written ("Unrecognized key"); remove it',
      });
    }
  });
  const layout = objects(document.layout);
  const placed = uniqueNames(layout, 'i', 'layout cell', 'layout', problems);
  layout.forEach((cell, index) => {
    const id = cell?.i;
    if (typeof id === 'string' && !chartIds.has(id)) {
      problems.push({ severity: 'warning', pointer: pointer('layout', index, 'i'), message: `layout cell "${id}" places no chart (no chart has this id)` });
    }
  });
  charts.forEach((chart, index) => {
    const id = chart?.id;
    if (typeof id === 'string' && !placed.has(id)) {
      problems.push({ severity: 'warning', pointer: pointer('charts', index, 'id'), message: `chart "${id}" has no layout cell (no layout item has i: "${id}"), so it is not shown` });
    }
  });
  const refresh = document.refreshTime;
  if (typeof refresh === 'number' && !DOCUMENTED_REFRESH_TIMES.includes(refresh)) {
    problems.push({
      severity: 'warning',
      pointer: pointer('refreshTime'),
      message: `${refresh} is not one the API documents (${DOCUMENTED_REFRESH_TIMES.join(', ')} seconds)`,
    });
  }
  return problems;
}
