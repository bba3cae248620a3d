import jsYaml from 'js-yaml';

// The YAML 1.2 core schema as the `yaml` library resolves it (its core/int, core/float, core/bool
// and common/null tags): js-yaml's own JSON/CORE schemas are laxer (`0b101`, `1_000`, `+0x1F`),
// and its default schema is YAML 1.1 (timestamps, merge keys). Same patterns, same conversions, so
// the fast path reads every plain scalar exactly as the `yaml` path does.

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Can a scalar starting with this character be a number (a digit, a sign or a dot)? */
function numberStart(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 43 /* + */ || c === 45 /* - */ || c === 46 /* . */;
}

// Most plain scalars are words: the first character rules them out before any pattern runs.
const nullType = new jsYaml.Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) => {
    if (data === null || data.length === 0) return true;
    const c = data.charCodeAt(0);
    return (c === 126 /* ~ */ || c === 110 /* n */ || c === 78) /* N */ && NULL.test(data);
  },
  construct: () => null,
});

const boolType = new jsYaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => {
    if (data === null) return false;
    const c = data.charCodeAt(0);
    return (c === 116 /* t */ || c === 84 /* T */ || c === 102 /* f */ || c === 70) /* F */ && BOOL.test(data);
  },
  construct: (data: string) => data[0] === 't' || data[0] === 'T',
});

const intType = new jsYaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string | null) =>
    data !== null && numberStart(data.charCodeAt(0)) && (INT.test(data) || INT_OCT.test(data) || INT_HEX.test(data)),
  construct: (data: string) => {
    if (INT_OCT.test(data)) return parseInt(data.substring(2), 8);
    if (INT_HEX.test(data)) return parseInt(data.substring(2), 16);
    return parseInt(data, 10);
  },
});

const floatType = new jsYaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string | null) =>
    data !== null &&
    numberStart(data.charCodeAt(0)) &&
    (FLOAT_SPECIAL.test(data) || FLOAT_EXP.test(data) || FLOAT.test(data)),
  construct: (data: string) => {
    if (FLOAT_SPECIAL.test(data)) {
      if (data.slice(-3).toLowerCase() === 'nan') return NaN;
      return data[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    }
    return parseFloat(data);
  },
});

/**
 * Strings, sequences and mappings plus the core scalars. No merge type: a `<<` key arrives as a
 * plain key and the fast path merges it itself, with the same rules as the `yaml` path.
 */
/**
 * Can a plain scalar starting with this character be anything but a string? The first-character
 * gates of the four types above, together: a reader may skip them all for any other.
 */
export function mayNotBeText(c: number): boolean {
  return numberStart(c) || c === 126 /* ~ */ || c === 110 /* n */ || c === 78 /* N */ || c === 116 /* t */ || c === 84 /* T */ || c === 102 /* f */ || c === 70 /* F */;
}

export const CORE_IMPLICIT_TYPES: readonly jsYaml.Type[] = [nullType, boolType, intType, floatType];

export const CORE_SCHEMA_12 = jsYaml.FAILSAFE_SCHEMA.extend({ implicit: [...CORE_IMPLICIT_TYPES] });
