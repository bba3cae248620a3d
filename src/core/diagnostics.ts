import { safeMessage, safeText } from './safe-text.js';
import type { Diagnostic, SkippedDocument } from './types.js';

/**
 * `file:line:column: kind/name: message` — the one-line form every command prints. File names,
 * names and messages quote the input: controls in them are escaped, overlong values cut.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${safeText(d.file)}:${d.line ?? 1}:${d.column ?? 1}: ` : '';
  const what = d.kind ? `${safeText(d.kind)}/${safeText(d.name ?? '?')}: ` : '';
  const prefix = d.severity === 'warning' ? 'warning: ' : '';
  const environment = d.environment === undefined ? '' : `environment ${safeText(d.environment)}: `;
  return `${where}${what}${environment}${prefix}${safeMessage(d.message)}`;
}

/** `file:line:column: skipped: why`: the line every command prints per document that is not a resource. */
export function formatSkip(skip: SkippedDocument): string {
  return `${safeText(skip.file)}:${skip.line}:${skip.column}: skipped: ${safeMessage(skip.reason)}`;
}

/** Stable order: by file, line, column, then message. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.message.localeCompare(b.message),
  );
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}
