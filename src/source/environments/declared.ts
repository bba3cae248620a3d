// The environments wsync.yaml declares (`environments: { NAME: { vars: {...} } }`): one tree
// rendered per workspace. Names become folders (environments/NAME/, .wsync/NAME), metric labels and
// plan headings, so they are checked like resource names and then some.
import { isJsonObject } from '../../core/json.js';
import type { JsonValue } from '../../core/types.js';
import type { WorkspaceConfig } from '../../generated/spec-types.js';

/** The folder under the tree root that holds each environment's own files, one folder per name. */
export const ENVIRONMENTS_DIR = 'environments';

export interface Environment {
  name: string;
  /** Values of `${var:NAME}`, literal and plain (never secrets). */
  vars: Readonly<Record<string, JsonValue>>;
}

const MAX_NAME = 63;

/** Why `name` cannot name an environment, or undefined when it can. */
export function environmentNameProblem(name: string): string | undefined {
  if (name === '') return 'an environment name cannot be empty';
  if (name.length > MAX_NAME) return `an environment name has at most ${MAX_NAME} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'an environment name cannot hold control characters';
  if (/[/\\]/.test(name)) return 'an environment name cannot hold a path separator (/ or \\): it names the folder environments/NAME/';
  // A dot-folder is never read, and `.`/`..` are not folders of their own.
  if (name.startsWith('.')) return 'an environment name cannot start with "." (environments/.NAME/ would never be read)';
  if (name.trim() !== name || /\s/.test(name)) return 'an environment name cannot hold spaces';
  return undefined;
}

/** The environments of a config, in the order written; none when it declares none. */
export function declaredEnvironments(config: WorkspaceConfig): Environment[] {
  const declared = config.environments;
  if (declared === undefined) return [];
  return Object.entries(declared).map(([name, body]) => ({
    name,
    vars: isJsonObject(body?.vars) ? (body.vars as Record<string, JsonValue>) : {},
  }));
}

/** A problem of the environments block, at a path of wsync.yaml (`environments.prod.vars.x`). */
export interface EnvironmentsProblem {
  path: string[];
  message: string;
}

function placeholderIn(value: JsonValue): boolean {
  if (typeof value === 'string') return value.includes('${');
  if (Array.isArray(value)) return value.some(placeholderIn);
  if (isJsonObject(value)) return Object.values(value).some(placeholderIn);
  return false;
}

/** What the schema cannot say about the environments: their names, and values that are not literal. */
export function environmentsProblems(config: WorkspaceConfig): EnvironmentsProblem[] {
  const problems: EnvironmentsProblem[] = [];
  for (const environment of declaredEnvironments(config)) {
    const nameProblem = environmentNameProblem(environment.name);
    if (nameProblem !== undefined) problems.push({ path: ['environments', environment.name], message: `environments: "${environment.name}": ${nameProblem}` });
    for (const [name, value] of Object.entries(environment.vars)) {
      if (!placeholderIn(value)) continue;
      problems.push({
        path: ['environments', environment.name, 'vars', name],
        message:
          `environments.${environment.name}.vars.${name}: a variable's value is literal, "\${" is not resolved in it; ` +
          'write ${env:NAME} or ${file:PATH} where the resource uses it (secrets never go into variables, which plans show)',
      });
    }
  }
  return problems;
}

/** The names, for messages: `staging, prod`. */
export function environmentNames(environments: readonly Environment[]): string {
  return environments.map((e) => e.name).join(', ');
}
