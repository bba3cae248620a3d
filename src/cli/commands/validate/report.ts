import { formatDiagnostic, formatSkip, sortDiagnostics } from '../../../core/diagnostics.js';
import { createRedactor } from '../../../core/redact.js';
import type { Desired, Diagnostic, KindName } from '../../../core/types.js';
import { checkReferences, declaredObjects } from '../../../source/index.js';

export interface ReportOptions {
  format?: 'text' | 'json';
  /** Errors only: no warnings, no summary line. */
  quiet?: boolean;
  /** Warnings count as errors (a reference to a name the tree does not declare fails the check). */
  strict?: boolean;
  /** Declared outside what is checked (the rest of a single file's tree): references to them are fine. */
  alsoDeclared?: readonly { kind: KindName; key: string }[];
  /** The environments checked, with the resources each renders (a tree with environments). */
  environments?: readonly { name: string; resources: number }[];
  /** The diagnostics hold the reference checks already. */
  referencesChecked?: boolean;
  /** Only the problems of these files count (files named alone, in a tree with environments). */
  referencesIn?: ReadonlySet<string>;
}

export interface ValidateResult {
  output: string;
  exitCode: number;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The same fields in the same order every time, for diffs of JSON output. */
function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  const out: Record<string, unknown> = { severity: d.severity, code: d.code };
  if (d.file !== undefined) Object.assign(out, { file: d.file, line: d.line, column: d.column });
  if (d.kind !== undefined) out.kind = d.kind;
  if (d.name !== undefined) out.name = d.name;
  if (d.field !== undefined) out.field = d.field;
  if (d.environment !== undefined) out.environment = d.environment;
  out.message = d.message;
  return out;
}

/** One environment's check, as validateEnvironments reports it. */
export interface EnvironmentCheck {
  environment: string;
  desired: Desired;
}

/**
 * The problems of every environment of a tree, each once: one that every environment has is the
 * tree's (no environment named), the others name the environment they belong to.
 */
export function environmentsDiagnostics(checks: readonly EnvironmentCheck[], files?: ReadonlySet<string>): Diagnostic[] {
  const byText = new Map<string, { d: Diagnostic; environments: Diagnostic[] }>();
  for (const { environment, desired } of checks) {
    const found = [...desired.diagnostics, ...checkReferences(desired.resources, declaredObjects(desired))];
    for (const d of found) {
      if (files && d.file !== undefined && !files.has(d.file)) continue;
      const plain: Diagnostic = { ...d };
      delete plain.environment;
      const key = `${d.severity}\u0000${formatDiagnostic(plain)}`;
      const entry = byText.get(key) ?? { d: plain, environments: [] };
      entry.environments.push({ ...plain, environment });
      byText.set(key, entry);
    }
  }
  return [...byText.values()].flatMap((entry) => (entry.environments.length === checks.length ? [entry.d] : entry.environments));
}

/** What `wsync validate DIR` prints for a tree with environments: each environment checked. */
export function renderEnvironmentsValidation(checks: readonly EnvironmentCheck[], options: ReportOptions = {}): ValidateResult {
  // The environment reading the most files (its overlays) reads every base file too.
  const first = [...checks].sort((a, b) => b.desired.stats.files - a.desired.stats.files)[0]?.desired;
  const secretValues = [...new Set(checks.flatMap((c) => c.desired.secretValues))];
  const combined: Desired = {
    resources: [],
    diagnostics: environmentsDiagnostics(checks, options.referencesIn),
    stats: first?.stats ?? { files: 0, documents: 0, skipped: 0 },
    skips: first?.skips ?? [],
    secretValues,
  };
  const counts = checks.map((c) => ({ name: c.environment, resources: c.desired.resources.length }));
  return renderValidation(combined, { ...options, environments: counts, referencesChecked: true });
}

/** What `wsync validate` prints for a Desired, and its exit code (0 valid, 1 not). */
export function renderValidation(desired: Desired, options: ReportOptions = {}): ValidateResult {
  const references = options.referencesChecked ? [] : checkReferences(desired.resources, [...declaredObjects(desired), ...(options.alsoDeclared ?? [])]);
  const found = [...desired.diagnostics, ...references];
  const all = sortDiagnostics(options.strict ? found.map((d): Diagnostic => (d.severity === 'error' ? d : { ...d, severity: 'error' })) : found);
  const errors = all.filter((d) => d.severity === 'error').length;
  const warnings = all.length - errors;
  const shown = options.quiet ? all.filter((d) => d.severity === 'error') : all;
  const resources = desired.stats.documents - desired.stats.skipped;
  const environments = options.environments;
  const redact = createRedactor(desired.secretValues);
  let output: string;
  if (options.format === 'json') {
    const report = {
      valid: errors === 0,
      resources,
      ...(environments ? { environments } : {}),
      files: desired.stats.files,
      skipped: desired.stats.skipped,
      skippedDocuments: desired.skips ?? [],
      errors,
      warnings,
      diagnostics: shown.map(diagnosticJson),
    };
    output = `${redact(JSON.stringify(report, null, 2))}\n`;
  } else {
    const lines = shown.map((d) => redact(formatDiagnostic(d)));
    if (!options.quiet) {
      for (const skip of desired.skips ?? []) lines.push(redact(formatSkip(skip)));
      const verdict =
        errors === 0
          ? `valid${warnings > 0 ? ` (${plural(warnings, 'warning')})` : ''}`
          : `${plural(errors, 'error')}${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}`;
      const what = environments
        ? `${plural(environments.length, 'environment')} (${environments.map((e) => `${e.name}: ${plural(e.resources, 'resource')}`).join(', ')})`
        : plural(resources, 'resource');
      lines.push(`${what} in ${plural(desired.stats.files, 'file')}: ${verdict}`);
    }
    output = lines.map((line) => `${line}\n`).join('');
  }
  return { output, exitCode: errors === 0 ? 0 : 1 };
}
