// `wsync validate [PATH...]`: directories (each with its wsync.yaml) and single files, as a
// pre-commit hook passes them; no network.
import { join, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../../../api/errors.js';
import type { Diagnostic, KindName } from '../../../core/types.js';
import { declaredObjects, readDesired, readDesiredPaths, rootOfPaths, type SourcePath } from '../../../source/index.js';
import { isFile, treeOfFile, withDocumentOwners } from '../../../source/read/validate-scope.js';
import type { TreeLimits } from '../../../source/limits.js';
import { treeLimitsOf } from '../../limits.js';
import type { CommandIo } from '../../io.js';
import { declaredEnvironments, type Environment } from '../../../source/environments/declared.js';
import { chosenEnvironment, requestedEnvironment } from '../../environment.js';
import { layeredEnvironment, type LayeredEnvironment } from '../../settings.js';
import type { ValidateFlags } from './command.js';
import { renderEnvironmentsValidation, renderValidation, type EnvironmentCheck, type ReportOptions, type ValidateResult } from './report.js';

export interface ValidateOptions extends ReportOptions {
  secretsDir?: string;
  /** References checked as written, none read. */
  secretsAsWritten?: boolean;
  /** Where `${env:}` reads from and the settings' environment; defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where relative paths start; defaults to the process's working directory. */
  cwd?: string;
  limits?: Partial<TreeLimits>;
  /** Check only this environment of a tree with environments (else every one). */
  environment?: string;
}

/** Reads the paths (the working directory when none is given), checks them and renders the report. */
export async function runValidate(paths: readonly string[], options: ValidateOptions = {}): Promise<ValidateResult> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const given = await withDocumentOwners((paths.length > 0 ? paths : ['.']).map((path) => resolve(cwd, path)));
  const scope = await environmentsScope(given, cwd, env);
  if (scope !== undefined) {
    const result = await validateEnvironments(scope.tree, scope.environments, scope.layered, options, scope.files);
    return result;
  }
  const requested = options.environment;
  if (requested !== undefined) throw new ConfigError(`--env ${requested}: environments are checked per directory; name one directory whose wsync.yaml declares them`);
  const root = await rootOfPaths(given, cwd);
  const configProblems: Diagnostic[] = [];
  const sources = given.map((path): SourcePath => {
    // A directory's wsync.yaml sits under the environment; a file has none.
    const dir = resolve(path);
    const layered = layeredEnvironment(dir, env);
    for (const d of layered.diagnostics) {
      configProblems.push(d.file === undefined ? d : { ...d, file: relative(root, join(dir, d.file)).split(sep).join('/') });
    }
    const secretsDir = options.secretsDir ?? layered.env.WSYNC_SECRETS_DIR;
    return secretsDir === undefined ? { path } : { path, secretsDir };
  });
  const desired = await readDesiredPaths(sources, {
    root,
    env,
    secretsAsWritten: options.secretsAsWritten === true,
    ...(options.limits ? { limits: options.limits } : {}),
    checkOnly: true,
  });
  desired.diagnostics.push(...configProblems);
  return renderValidation(desired, { ...options, alsoDeclared: await treeDeclarations(given, cwd, env, options.limits) });
}

/**
 * The tree with environments the paths belong to: one directory whose wsync.yaml declares them, or
 * files (a pre-commit hook's) all of one such tree, then with their names relative to it.
 */
async function environmentsScope(
  given: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ tree: string; environments: Environment[]; layered: LayeredEnvironment; files?: Set<string> } | undefined> {
  const first = given[0];
  if (first === undefined) return undefined;
  const files = await Promise.all(given.map(isFile));
  const single = given.length === 1 && files[0] === false;
  if (!single && !files.every(Boolean)) return undefined;
  const tree = single ? first : await treeOfFile(first, cwd);
  if (!single) for (const path of given.slice(1)) if ((await treeOfFile(path, cwd)) !== tree) return undefined;
  const layered = layeredEnvironment(tree, env);
  const environments = declaredEnvironments(layered.config);
  if (environments.length === 0) return undefined;
  return single ? { tree, environments, layered } : { tree, environments, layered, files: new Set(given.map((path) => relative(tree, path).split(sep).join('/'))) };
}

/**
 * `wsync validate DIR` of a tree with environments: each of them (or the one --env names) rendered
 * and checked. Given `files` (named alone in a tree with environments), only their problems count:
 * the tree is read whole, as each environment renders it.
 */
async function validateEnvironments(
  dir: string,
  declared: readonly Environment[],
  layered: LayeredEnvironment,
  options: ValidateOptions,
  files?: ReadonlySet<string>,
): Promise<ValidateResult> {
  const requested = options.environment;
  const chosen = requested === undefined ? declared : declared.filter((e) => e.name === chosenEnvironment(layered.config, requested));
  const secretsDir = options.secretsDir ?? layered.env.WSYNC_SECRETS_DIR;
  const checks: EnvironmentCheck[] = [];
  for (const environment of chosen) {
    const desired = await readDesired(dir, {
      env: options.env ?? process.env,
      environment: environment.name,
      secretsAsWritten: options.secretsAsWritten === true,
      ...(secretsDir === undefined ? {} : { secretsDir }),
      ...(options.limits ? { limits: options.limits } : {}),
      checkOnly: true,
    });
    if (files) desired.diagnostics = desired.diagnostics.filter((d) => d.file === undefined || files.has(d.file));
    checks.push({ environment: environment.name, desired });
  }
  return renderEnvironmentsValidation(checks, files ? { ...options, referencesIn: files } : options);
}

/**
 * What the trees of the single files among `paths` declare: a file checked on its own (a
 * pre-commit hook) may name what another file of its tree declares. Only names are taken from
 * them; their problems are theirs to report when they are checked.
 */
async function treeDeclarations(
  paths: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  limits: Partial<TreeLimits> | undefined,
): Promise<{ kind: KindName; key: string }[]> {
  const trees = new Set<string>();
  for (const path of paths) if (await isFile(path)) trees.add(await treeOfFile(path, cwd));
  const out: { kind: KindName; key: string }[] = [];
  for (const tree of trees) {
    const desired = await readDesired(tree, { env, secretsAsWritten: true, ...(limits ? { limits } : {}), checkOnly: true });
    out.push(...declaredObjects(desired).map(({ kind, key }) => ({ kind, key })));
  }
  return out;
}

/** The command: prints the report; returns the exit code (0 valid, 1 not). */
export async function validateCommand(paths: readonly string[], flags: ValidateFlags, io: CommandIo): Promise<number> {
  try {
    const environment = requestedEnvironment(flags, io.env);
    const result = await runValidate(paths, { ...flags, env: io.env, cwd: io.cwd, limits: treeLimitsOf(flags, io.env), ...(environment === undefined ? {} : { environment }) });
    io.stdout.write(result.output);
    return result.exitCode;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr.write(`validate: ${err.message}\n`);
    return 1;
  }
}
