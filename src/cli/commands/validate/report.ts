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
  out.message = d.message;
  return out;
}

/** What `wsync validate` prints for a Desired, and its exit code (0 valid, 1 not). */
export function renderValidation(desired: Desired, options: ReportOptions = {}): ValidateResult {
  const found = [...desired.diagnostics, ...checkReferences(desired.resources, [...declaredObjects(desired), ...(options.alsoDeclared ?? [])])];
  const all = sortDiagnostics(options.strict ? found.map((d): Diagnostic => (d.severity === 'error' ? d : { ...d, severity: 'error' })) : found);
  const errors = all.filter((d) => d.severity === 'error').length;
  const warnings = all.length - errors;
  const shown = options.quiet ? all.filter((d) => d.severity === 'error') : all;
  const resources = desired.stats.documents - desired.stats.skipped;
  const redact = createRedactor(desired.secretValues);
  let output: string;
  if (options.format === 'json') {
    const report = {
      valid: errors === 0,
      resources,
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
      lines.push(`${plural(resources, 'resource')} in ${plural(desired.stats.files, 'file')}: ${verdict}`);
    }
    output = lines.map((line) => `${line}\n`).join('');
  }
  return { output, exitCode: errors === 0 ? 0 : 1 };
}
