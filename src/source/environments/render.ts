// What one environment of a tree is made of: the base files (all but environments/), the overlay
// files of that environment (environments/NAME/, never another's), and its variables. Pure: it
// takes the listing and the config, reads nothing.
import type { Diagnostic } from '../../core/types.js';
import type { WorkspaceConfig } from '../../generated/spec-types.js';
import type { ListedFile } from '../read/files.js';
import { suggestion } from '../../core/suggest.js';
import { declaredEnvironments, ENVIRONMENTS_DIR, environmentNames, type Environment } from './declared.js';
import type { VariableSource } from './variables.js';

export interface EnvironmentRendering {
  /** The environment rendered; undefined for a tree without environments (or when none was chosen: see problems). */
  environment: Environment | undefined;
  variables: VariableSource;
  base: ListedFile[];
  overlays: ListedFile[];
  /** Why the tree cannot be rendered as asked (no environment chosen, an unknown one), and stray folders. */
  problems: Diagnostic[];
}

const PREFIX = `${ENVIRONMENTS_DIR}/`;

/** Why `requested` does not select one of `environments`, or undefined when it does (or none is needed). */
export function environmentChoiceProblem(environments: readonly Environment[], requested: string | undefined): string | undefined {
  if (environments.length === 0) {
    return requested === undefined ? undefined : `--env ${requested}: wsync.yaml declares no environments (declare them under environments:, or leave --env out)`;
  }
  if (requested === undefined) {
    return `wsync.yaml declares the environments ${environmentNames(environments)}: choose one with --env NAME (or WSYNC_ENV)`;
  }
  if (environments.some((e) => e.name === requested)) return undefined;
  const names = environments.map((e) => e.name);
  return `--env ${requested}: no such environment${suggestion(requested, names)}; wsync.yaml declares ${names.join(', ')}`;
}

/** Splits the listing of a tree into what environment `requested` reads. */
export function renderingOf(files: readonly ListedFile[], config: WorkspaceConfig, requested: string | undefined): EnvironmentRendering {
  const environments = declaredEnvironments(config);
  const names = environments.map((e) => e.name);
  if (environments.length === 0) {
    const problem = environmentChoiceProblem(environments, requested);
    return {
      environment: undefined,
      variables: { environment: undefined, values: {}, environments: [] },
      base: [...files],
      overlays: [],
      problems: problem === undefined ? [] : [{ severity: 'error', code: 'environment', message: problem }],
    };
  }
  const environment = environments.find((e) => e.name === requested);
  const problems: Diagnostic[] = [];
  const choice = environmentChoiceProblem(environments, requested);
  if (choice !== undefined) problems.push({ severity: 'error', code: 'environment', message: choice });
  const base: ListedFile[] = [];
  const overlays: ListedFile[] = [];
  const strays = new Map<string, string>();
  for (const file of files) {
    if (!file.path.startsWith(PREFIX)) {
      base.push(file);
      continue;
    }
    const folder = file.path.slice(PREFIX.length).split('/', 1)[0] ?? '';
    const nested = file.path.length > PREFIX.length + folder.length;
    if (nested && folder === environment?.name) overlays.push(file);
    else if (!nested || !names.includes(folder)) strays.set(nested ? `${PREFIX}${folder}/` : file.path, file.path);
  }
  for (const [folder, file] of strays) {
    const what = folder.endsWith('/') ? `${folder} is the folder of no environment` : `${folder} is in no environment's folder`;
    problems.push({
      severity: 'warning',
      code: 'environment-folder',
      file,
      line: 1,
      column: 1,
      message: `${what} (wsync.yaml declares ${names.join(', ')}): its files are not read`,
    });
  }
  return {
    environment,
    variables: { environment: environment?.name, values: environment?.vars ?? {}, environments: names },
    base,
    overlays,
    problems,
  };
}
