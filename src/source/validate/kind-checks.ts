// A kind's own checks of a schema-valid spec (KindModule.checkSpec), and the generic rule that the
// name of a keyed array's item (a chart id) never comes from ${env:}/${file:}: plans show item
// names, and a secret must never be shown.
import { pointerSegments, toPointer } from '../../core/json-paths.js';
import type { Diagnostic, JsonObject, SourceLocation } from '../../core/types.js';
import type { KindModule, SpecProblem } from '../../kinds/types.js';
import { dottedPath } from '../parse/document.js';

const NONE: readonly [] = [];

/** Problems of `spec` (pointers into the spec); `interpolated` are document pointers (`/spec/...`). */
export function specProblems(module: KindModule, name: string, spec: JsonObject, interpolated: readonly string[]): SpecProblem[] {
  const problems: SpecProblem[] = [];
  for (const { path, key } of module.keyedArrays ?? NONE) {
    const arrayPointer = toPointer(['spec', ...path.split('.')]);
    for (const pointer of interpolated) {
      const rest = pointer.startsWith(`${arrayPointer}/`) ? pointer.slice(arrayPointer.length + 1).split('/') : [];
      if (rest.length === 2 && rest[1] === key) {
        problems.push({
          severity: 'error',
          pointer: pointer.slice('/spec'.length),
          message: 'it names the item in plans: it cannot come from ${env:} or ${file:}',
        });
      }
    }
  }
  const own = module.checkSpec?.(name, spec);
  if (own !== undefined && own.length > 0) problems.push(...own);
  return problems;
}

/** The location of `pointer`, or of its nearest parent that has one. */
export function locationOf(locations: Record<string, SourceLocation>, pointer: string, fallback: SourceLocation): SourceLocation {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const found = locations[p];
    if (found) return found;
    if (p === '') return fallback;
  }
}

/** Problems as diagnostics; `base` is the pointer of the spec in `locations` (`/spec`, or '' for a document file). */
export function problemDiagnostics(
  problems: readonly SpecProblem[],
  at: { locations: Record<string, SourceLocation>; fallback: SourceLocation; base: string; strip?: string },
): Diagnostic[] {
  return problems.map((problem) => {
    const inner = at.strip !== undefined && problem.pointer.startsWith(at.strip) ? problem.pointer.slice(at.strip.length) : problem.pointer;
    const where = locationOf(at.locations, `${at.base}${inner}`, at.fallback);
    const segments = pointerSegments(`${at.base}${inner}`).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const field = dottedPath(segments);
    const d: Diagnostic = { severity: problem.severity, code: 'spec', ...where, message: field === '' ? problem.message : `${field}: ${problem.message}` };
    if (field !== '') d.field = field;
    return d;
  });
}
