// The planner's half of pulling into a tree with environments: one object's pulls routed
// (environment.ts) and made in the environment's overlay file, and the variables set in wsync.yaml.
import { posix } from 'node:path';
import { isJsonObject } from '../core/json.js';
import type { DesiredResource, JsonObject, JsonValue } from '../core/types.js';
import type { FieldPull } from './differences.js';
import { KINDS } from '../kinds/index.js';
import { baseSpecOf, CONFIG_FILE, findOverlay, newOverlayText, OVERLAY_FOLDER, routePulls, variableRoute } from './environment.js';
import { editDocumentPaths, inDocumentFile, type Segment } from './object-edit.js';
import type { Edits, PullInput, PullPlan, Report } from './planner.js';
import { EditRefused } from './yaml-edit.js';
import { escapeInterpolation } from '../export/workspace.js';

export { OVERLAY_FOLDER };

/** The texts this environment renders: the base files and its own overlays, not wsync.yaml. */
function environmentTexts(files: ReadonlyMap<string, string>, environment: string): string[] {
  return [...files]
    .filter(([path]) => path !== CONFIG_FILE && /\.ya?ml$/.test(path) && (!path.startsWith(`${OVERLAY_FOLDER}/`) || path.startsWith(`${OVERLAY_FOLDER}/${environment}/`)))
    .map(([, text]) => text);
}

function putIn(root: JsonObject, path: readonly Segment[], value: JsonValue): void {
  let node: JsonObject = root;
  for (const segment of path.slice(0, -1)) {
    if (!isJsonObject(node[String(segment)])) node[String(segment)] = {};
    node = node[String(segment)] as JsonObject;
  }
  node[String(path[path.length - 1])] = value;
}

export function pullIntoEnvironment(
  input: PullInput & { environment: string },
  resource: DesiredResource,
  baseText: string,
  pulls: readonly FieldPull[],
  edits: Edits,
  report: Report,
): void {
  const environment = input.environment;
  const baseSpec = baseSpecOf(baseText, resource.source.line);
  const shared = pulls.filter((p) => inDocumentFile(resource, baseSpec, p));
  for (const pull of shared) {
    report('environment', `the document file serves every environment: not written for environment "${environment}"; change it by hand or give the environment its own`, pull.segments.join('.'));
  }
  const overlay = findOverlay(input.files, environment, resource);
  const routed = routePulls({ environment, resource, baseSpec, overlay, texts: environmentTexts(input.files, environment) }, pulls.filter((p) => !shared.includes(p)));
  const paths: { path: Segment[]; value: JsonValue }[] = [];
  for (const route of routed) {
    if (route.to === 'report') report('variable', route.message, route.field);
    else if (route.to === 'variable') edits.variables.set(route.name, { value: route.value, kind: resource.kind, key: resource.key });
    else paths.push({ path: ['spec', ...route.path], value: escapeInterpolation(route.value) });
  }
  if (paths.length === 0) return;
  if (overlay?.index !== undefined) {
    const text = input.files.get(overlay.path) as string;
    try {
      const edit = editDocumentPaths(text, overlay.index, paths);
      edits.add(overlay.path, edit.splices);
      for (const note of edit.notes) report('override', note);
    } catch (err) {
      if (!(err instanceof EditRefused)) throw err;
      report('refused', `not written in ${overlay.path}: ${err.message}`);
    }
    return;
  }
  const spec: JsonObject = {};
  for (const { path, value } of paths) putIn(spec, path.slice(1), value);
  const path = `${OVERLAY_FOLDER}/${environment}/${posix.basename(resource.source.file)}`;
  const append = input.files.has(path) || edits.appended.has(path);
  edits.appended.set(path, [...(edits.appended.get(path) ?? []), newOverlayText(resource, baseText, path, spec, append)]);
  report('override', `changed in environment "${environment}" only: written as its overlay in ${path} (the base serves every environment)`);
}

/**
 * The pulls of an object in the environment's own folder (an overlay-only object) that are not a
 * variable's: those go to wsync.yaml or are reported, never flattened into the file.
 */
export function withoutVariables(
  input: PullInput & { environment: string },
  resource: DesiredResource,
  text: string,
  pulls: readonly FieldPull[],
  edits: Edits,
  report: Report,
): FieldPull[] {
  const spec = baseSpecOf(text, resource.source.line);
  const texts = environmentTexts(input.files, input.environment);
  return pulls.filter((pull) => {
    const route = variableRoute(KINDS[resource.kind], spec, pull, { environment: input.environment, texts });
    if (route?.to === 'report') report('variable', route.message, route.field);
    else if (route?.to === 'variable') edits.variables.set(route.name, { value: route.value, kind: resource.kind, key: resource.key });
    return route === undefined;
  });
}

/** The environment's variables set in wsync.yaml, where its `environments.NAME.vars` says them. */
export function finishEnvironmentEdits(input: PullInput, edits: Edits, out: PullPlan): void {
  if (input.environment === undefined || edits.variables.size === 0) return;
  const text = input.files.get(CONFIG_FILE);
  const paths = [...edits.variables].map(([name, { value }]) => ({ path: ['environments', input.environment as string, 'vars', name], value }));
  try {
    if (text === undefined) throw new EditRefused(`no ${CONFIG_FILE}`);
    edits.add(CONFIG_FILE, editDocumentPaths(text, 0, paths).splices);
    for (const [name, { kind, key }] of edits.variables) {
      out.reports.push({ kind, key, what: 'override', file: CONFIG_FILE, field: `environments.${input.environment}.vars.${name}`, message: `\${var:${name}} of environment "${input.environment}" set as the workspace has it` });
    }
  } catch (err) {
    if (!(err instanceof EditRefused)) throw err;
    for (const [name, { kind, key }] of edits.variables) {
      out.reports.push({ kind, key, what: 'refused', file: CONFIG_FILE, field: `environments.${input.environment}.vars.${name}`, message: `not written: ${err.message}` });
    }
  }
}
