import { isJsonObject, setOwn } from '../../core/json.js';
import type { JsonValue } from '../../core/types.js';
import { dottedPath, pointerSegment } from '../parse/field-path.js';
import { exactVariable, resolveVariable } from '../environments/variables.js';
import { interpolate, type SecretSources } from './interpolate.js';

/**
 * Only documents that say `apiVersion: wsync...` are interpolated: a GitHub workflow's `${{ }}`
 * or a manifest's `${VAR}` in the same tree are another tool's syntax, not ours to resolve.
 */
export function declaresWsyncApiVersion(value: JsonValue | undefined): boolean {
  if (!isJsonObject(value)) return false;
  const apiVersion = value.apiVersion;
  return typeof apiVersion === 'string' && apiVersion.toLowerCase().startsWith('wsync');
}

export interface InterpolationProblem {
  pointer: string;
  segments: (string | number)[];
  message: string;
}

export interface DocumentSecrets {
  /** Pointers of strings that came from `${env:}`/`${file:}`. */
  interpolated: string[];
  /** Pointer -> the string as written, for interpolated strings (to name a thing without its secret). */
  written: Map<string, string>;
  problems: InterpolationProblem[];
  /** Dotted field -> the string as written, for strings holding `${var:}` (a schema error there names it). */
  variables: Map<string, string>;
}

/**
 * Resolves `${env:}`/`${file:}` in every string of a document's value, in place. The value must be
 * a tree (no part reachable twice), as both readers build it.
 */
export function interpolateDocument(value: JsonValue, sources: SecretSources): DocumentSecrets {
  const out: DocumentSecrets = { interpolated: [], written: new Map(), problems: [], variables: new Map() };
  const segments: (string | number)[] = [];
  const pointer = (): string => segments.map((s) => `/${typeof s === 'number' ? s : pointerSegment(s)}`).join('');
  const resolve = (text: string): JsonValue => {
    // Exactly one `${var:NAME}`: the value itself, typed as wsync.yaml writes it.
    if (text.includes('${var:')) out.variables.set(dottedPath(segments), text);
    const variable = exactVariable(text);
    if (variable !== undefined) {
      const found = resolveVariable(variable, sources.variables);
      if ('value' in found) return found.value;
      out.problems.push({ pointer: pointer(), segments: [...segments], message: found.error });
      return text;
    }
    const result = interpolate(text, sources);
    if (result.errors.length > 0) {
      const at = pointer();
      for (const message of result.errors) out.problems.push({ pointer: at, segments: [...segments], message });
    }
    if (result.secret) {
      const at = pointer();
      out.interpolated.push(at);
      out.written.set(at, text);
    }
    return result.value;
  };
  const visit = (node: JsonValue): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i]!;
        segments.push(i);
        if (typeof item === 'string') {
          if (item.includes('${')) node[i] = resolve(item);
        } else if (item !== null && typeof item === 'object') visit(item);
        segments.pop();
      }
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        const item = node[key]!;
        segments.push(key);
        if (typeof item === 'string') {
          if (item.includes('${')) setOwn(node, key, resolve(item));
        } else if (item !== null && typeof item === 'object') visit(item);
        segments.pop();
      }
    }
  };
  visit(value);
  return out;
}
