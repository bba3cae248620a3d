// `wsync diff A B` as text: what only one side has, then the fields that differ, with both values.
import { safeText } from '../core/safe-text.js';
import type { JsonValue, SourceLocation } from '../core/types.js';
import type { EnvironmentDiff, EnvironmentResourceRef } from '../plan/environment-diff.js';

const MAX_VALUE = 200;

function shown(value: JsonValue | undefined): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return safeText(text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text);
}

const at = (source: SourceLocation): string => `${safeText(source.file)}:${source.line}`;

function refLine(r: EnvironmentResourceRef): string {
  return `  ${r.kind}/${safeText(r.key)}  (${at(r.source)})`;
}

export function renderEnvironmentDiff(diff: EnvironmentDiff): string {
  const [a, b] = diff.names.map((name) => safeText(name)) as [string, string];
  const out: string[] = [];
  diff.onlyIn.forEach((refs, side) => {
    if (refs.length === 0) return;
    out.push(`Only in ${side === 0 ? a : b} (${refs.length}):`, ...refs.map(refLine), '');
  });
  if (diff.differ.length > 0) {
    out.push(`Different (${diff.differ.length}): ${a} -> ${b}`);
    for (const resource of diff.differ) {
      const [sa, sb] = resource.sources;
      const where = at(sa) === at(sb) ? at(sa) : `${at(sa)} / ${at(sb)}`;
      out.push(`  ${resource.kind}/${safeText(resource.key)}  (${where})`);
      for (const field of resource.fields) out.push(`      ${safeText(field.path)}: ${shown(field.before)} -> ${shown(field.after)}`);
    }
    out.push('');
  }
  const total = diff.onlyIn[0].length + diff.onlyIn[1].length + diff.differ.length;
  out.push(total === 0 ? `No differences: ${a} and ${b} render the same ${diff.same} resources.` : `${total} differ, ${diff.same} the same.`);
  return `${out.join('\n')}\n`;
}
