// `${var:NAME}`: a value of the rendered environment (wsync.yaml environments.ENV.vars). Unlike
// `${env:}`/`${file:}` it is plain, shown in plans, and typed: a string that is exactly one
// placeholder becomes the value itself (a number stays a number).
import { cloneJson, isJsonObject } from '../../core/json.js';
import type { JsonValue } from '../../core/types.js';

/** The variables `${var:}` reads: the rendered environment's, and which environments exist. */
export interface VariableSource {
  /** The environment rendered; undefined when the tree is read without one. */
  environment: string | undefined;
  values: Readonly<Record<string, JsonValue>>;
  /** Every environment wsync.yaml declares, for messages. */
  environments: readonly string[];
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const EXACT = /^\$\{var:([^}]*)\}$/;

/** The variable a string names when it is exactly one `${var:NAME}`, else undefined. */
export function exactVariable(text: string): string | undefined {
  return EXACT.exec(text)?.[1];
}

function shown(name: string): string {
  return `\${var:${name.length > 60 ? `${name.slice(0, 57)}...` : name}}`;
}

/** The value of `${var:NAME}`, or why it has none (naming the environment). */
export function resolveVariable(name: string, source: VariableSource | undefined): { value: JsonValue } | { error: string } {
  if (!VARIABLE_NAME.test(name)) return { error: `${shown(name)}: not a valid variable name (letters, digits, _ and -, not starting with a digit)` };
  if (source === undefined || source.environments.length === 0) {
    return { error: `${shown(name)}: wsync.yaml declares no environments, so there are no variables (declare them under environments.NAME.vars)` };
  }
  if (source.environment === undefined) {
    return { error: `${shown(name)}: no environment is rendered (choose one with --env NAME: ${source.environments.join(', ')})` };
  }
  if (!Object.prototype.hasOwnProperty.call(source.values, name)) {
    const known = Object.keys(source.values);
    const has = known.length === 0 ? 'it has no vars' : `its vars are ${known.join(', ')}`;
    return { error: `${shown(name)}: variable "${name}" is not defined in environment "${source.environment}" (wsync.yaml environments.${source.environment}.vars; ${has})` };
  }
  return { value: cloneJson(source.values[name] as JsonValue) };
}

/** The variable as text inside a longer string: a scalar's text; a list or a map is an error. */
export function variableText(name: string, source: VariableSource | undefined): { value: string } | { error: string } {
  const resolved = resolveVariable(name, source);
  if ('error' in resolved) return resolved;
  const value = resolved.value;
  if (Array.isArray(value) || isJsonObject(value)) {
    return {
      error: `${shown(name)} is a ${Array.isArray(value) ? 'list' : 'map'} in environment "${source?.environment ?? ''}": only a value that is exactly ${shown(name)}, nothing around it, can be a list or a map`,
    };
  }
  if (value === null) return { error: `${shown(name)} is null in environment "${source?.environment ?? ''}": null cannot be part of a longer string` };
  return { value: String(value) };
}

const VARIABLE_REFERENCE = /\$?\$\{var:([^}]*)\}/g;

/** The string with its `${var:}` resolved (`$${var:` is the escape); problems say why one cannot be. */
function substituteText(text: string, source: VariableSource | undefined, problems: string[]): JsonValue {
  const exact = exactVariable(text);
  if (exact !== undefined) {
    const found = resolveVariable(exact, source);
    if ('value' in found) return found.value;
    problems.push(found.error);
    return text;
  }
  return text.replace(VARIABLE_REFERENCE, (match: string, name: string) => {
    if (match.startsWith('$$')) return match.slice(1);
    const found = variableText(name, source);
    if ('value' in found) return found.value;
    problems.push(found.error);
    return match;
  });
}

/**
 * Resolves `${var:}` in every string of a document read as written (a dashboard's JSON file: no
 * `${env:}`/`${file:}` there), in place. Returns the problems by JSON Pointer.
 */
export function substituteVariables(value: JsonValue, source: VariableSource | undefined): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  const visit = (node: JsonValue, pointer: string): void => {
    const entries: [string | number, JsonValue][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : isJsonObject(node) ? Object.entries(node) : [];
    for (const [key, child] of entries) {
      const at = `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (typeof child === 'string') {
        if (!child.includes('${var:')) continue;
        const messages: string[] = [];
        const replaced = substituteText(child, source, messages);
        if (Array.isArray(node)) node[key as number] = replaced;
        else Object.defineProperty(node, key, { value: replaced, enumerable: true, writable: true, configurable: true });
        for (const message of messages) problems.push({ pointer: at, message });
      } else if (child !== null && typeof child === 'object') visit(child, at);
    }
  };
  visit(value, '');
  return problems;
}
