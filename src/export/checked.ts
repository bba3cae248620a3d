// Export writes only what plans clean: its files are read back by the same rules `validate` and
// `plan` use, before anything is written, and an object whose files would not pass (a monitor
// without `type`, a dashboard document with only a name, a dashboard uid with `/`) is left out with
// a warning naming its id. One odd live object never breaks the whole tree.
import { compareText } from '../core/json.js';
import { formatDiagnostic } from '../core/diagnostics.js';
import type { Diagnostic } from '../core/types.js';
import { desiredFromTexts } from '../source/index.js';
import type { ExportedObject, ExportResult } from './workspace.js';

/** At most this many of an object's problems are quoted in its warning. */
const QUOTED = 3;

/** `monitors/x.yaml` and its document file `monitors/x.json` belong to one object. */
function stem(path: string): string {
  return path.replace(/\.(ya?ml|json)$/, '');
}

function warningFor(object: ExportedObject, problems: readonly Diagnostic[]): string {
  const quoted = problems.slice(0, QUOTED).map((d) => formatDiagnostic(d));
  const more = problems.length > QUOTED ? `; and ${problems.length - QUOTED} more` : '';
  return (
    `${object.kind} "${object.key}" (id ${object.id}): not exported, its file would not validate ` +
    `(the workspace holds it in a form the API no longer takes; fix or recreate it there, then export again): ${quoted.join('; ')}${more}`
  );
}

/** The export without the objects whose files do not validate, each told in a warning. */
export function withoutInvalid(result: ExportResult): ExportResult {
  // Placeholders are checked as written: the secrets they stand for are not needed to validate.
  const desired = desiredFromTexts(
    result.files.map((file) => ({ path: file.path, text: file.content })),
    { secretsAsWritten: true, env: {} },
  );
  const problems = new Map<string, Diagnostic[]>();
  for (const diagnostic of desired.diagnostics) {
    if (diagnostic.severity !== 'error' || diagnostic.file === undefined) continue;
    const key = stem(diagnostic.file);
    problems.set(key, [...(problems.get(key) ?? []), diagnostic]);
  }
  if (problems.size === 0) return result;
  const left = new Set<string>();
  const warnings = [...result.warnings];
  for (const object of result.objects) {
    const found = problems.get(stem(object.path));
    if (!found) continue;
    left.add(stem(object.path));
    warnings.push(warningFor(object, found));
  }
  const objects = result.objects.filter((object) => !left.has(stem(object.path)));
  return {
    ...result,
    files: result.files.filter((file) => !left.has(stem(file.path))),
    objects,
    variables: [...new Set(objects.flatMap((object) => object.variables))].sort(compareText),
    warnings,
  };
}
