// Generates YAML as people write it, corners included: every scalar notation of the core schema and
// the YAML 1.1 look-alikes (yes/no/on/off, timestamps, sexagesimals, 0b/_ numbers), quoted and block
// strings, anchors, aliases, merge keys, comments, flow and block collections, several documents;
// optionally damaged (bad indentation, tabs, unterminated quotes) so that some are invalid.
import fc from 'fast-check';

export type YamlNode =
  | { t: 'plain'; v: string; anchor?: string }
  | { t: 'single'; v: string; anchor?: string }
  | { t: 'double'; v: string; anchor?: string }
  /** A plain or quoted scalar over two lines, the second indented by `shift` from where it should be. */
  | { t: 'two-lines'; quote: '' | "'" | '"'; v: [string, string]; shift: number; anchor?: string }
  | { t: 'block'; header: string; lines: string[]; anchor?: string }
  | { t: 'alias'; name: string }
  | { t: 'map'; flow: boolean; entries: [string, YamlNode][]; anchor?: string }
  | { t: 'seq'; flow: boolean; items: YamlNode[]; anchor?: string };

/** Plain scalars: strings, and everything that resolves (or, in YAML 1.1, would resolve) to something else. */
export const PLAIN_SCALARS = [
  'text', 'two words', 'yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO', 'On', 'true', 'True', 'TRUE', 'false',
  'tRUE', 'null', 'Null', 'NULL', 'nULL', '~', '0', '-0', '+0', '007', '0o17', '0o19', '0O17', '0x1F', '0x1f',
  '0xG', '-0x1F', '+0x1F', '0b101', '1_000', '1e3', '1E3', '1e+3', '-1.5e-3', '.5', '-.5', '+.5', '1.', '1.0',
  '1.50', '.', '.e3', '1e', '.inf', '-.inf', '+.inf', '.Inf', '-.INF', '.NaN', '.nan', '.NAN', 'nan', 'inf',
  '12345678901234567890', '1e400', '-1e400', '2001-12-14t21:59:43.10-05:00', '2002-12-14', '2026-11-02T09:30:00Z',
  '12:30:45', '1:30', '=', '-x', 'x-', 'a:b', 'a#b', 'http://example.com/a?b=c#d', '${env:SECRET}',
  'pre ${env:SECRET} post', '${env:MISSING}', '$${env:SECRET}', '${nope}', 'é', '日本語', 'a\tb', '<<x',
  "it's", 'say "hi"', '@at', '`tick', '%pct', '!bang', '&amp', '*star', '|bar', '>gt', "'", '"',
];

/** Strings inside single quotes (as written, `''` is one quote). */
export const SINGLE = ['', 'plain', "it''s", '  spaced  ', 'yes', '123', '${env:SECRET}', '#', 'a: b', '\\n'];
/** Strings inside double quotes, escapes as written. */
export const DOUBLE = [
  '', 'plain', 'a\\tb', '\\x41\\u00e9\\U0001F600', '\\N\\_\\L\\P', '\\0', '\\/', '\\ ', 'back\\\\slash',
  '\\e\\a\\b\\v\\f\\r', 'line1\\nline2', '${env:SECRET}', 'yes', '123', '\\q', '\\x4', 'tab\there', "'",
];
const BLOCK_HEADERS = ['|', '|-', '|+', '>', '>-', '>+', '|2', '>1-', '|-2'];
const BLOCK_LINES = ['text', 'more text', '  more indented', '', 'trailing  ', '# not a comment', 'a: b', '- x', '${env:SECRET}'];
/** Keys: plain, quoted, and some that resolve to other types; few, so duplicates happen. */
export const KEYS = ['a', 'b', 'name', 'spec', '1', '01', 'true', 'yes', '"q"', "'a'", '"a"', 'a b', '-k', 'k-', 'x.y', 'a/b', 'c~d', '__proto__'];
const ANCHORS = ['a', 'b', 'c', 'd', 'e'];

const anchor = fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...ANCHORS) });

function withAnchor<T extends object>(node: T, name: string | undefined): T {
  return name === undefined ? node : { ...node, anchor: name };
}

export function yamlNode(options: { mergeKeys: boolean }): fc.Arbitrary<YamlNode> {
  const { node } = fc.letrec<{ node: YamlNode; scalar: YamlNode }>((tie) => ({
    scalar: fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...PLAIN_SCALARS), anchor).map(([v, a]) => withAnchor({ t: 'plain' as const, v }, a)) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...SINGLE), anchor).map(([v, a]) => withAnchor({ t: 'single' as const, v }, a)) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...DOUBLE), anchor).map(([v, a]) => withAnchor({ t: 'double' as const, v }, a)) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.constantFrom('' as const, "'" as const, '"' as const),
            fc.constantFrom('first', 'a b', 'x: y', 'end ', ''),
            fc.constantFrom('second', 'c', '#no', '- x', '', 'k: v'),
            fc.constantFrom(0, 0, 0, -1, -2, 2),
            anchor,
          )
          .map(([quote, x, y, shift, a]) => withAnchor({ t: 'two-lines' as const, quote, v: [x, y] as [string, string], shift }, a)),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom(...BLOCK_HEADERS), fc.array(fc.constantFrom(...BLOCK_LINES), { maxLength: 4 }), anchor)
          .map(([header, lines, a]) => withAnchor({ t: 'block' as const, header, lines }, a)),
      },
      { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'c').map((name) => ({ t: 'alias' as const, name })) },
    ),
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('scalar'),
      fc
        .tuple(
          fc.boolean(),
          fc.array(
            fc.tuple(
              options.mergeKeys ? fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.constant('<<') }) : fc.constantFrom(...KEYS),
              tie('node'),
            ),
            { maxLength: 4 },
          ),
          anchor,
        )
        .map(([flow, entries, a]) => withAnchor({ t: 'map' as const, flow, entries }, a)),
      fc
        .tuple(fc.boolean(), fc.array(tie('node'), { maxLength: 3 }), anchor)
        .map(([flow, items, a]) => withAnchor({ t: 'seq' as const, flow, items }, a)),
    ),
  }));
  return node;
}

const INDICATOR = /^[!&*|>'"%@`#]/;
const FLOW_UNSAFE = /[,[\]{}#]|: |^[-?:!&*|>'"%@`]/;

function props(node: { anchor?: string }): string {
  return node.anchor === undefined ? '' : `&${node.anchor} `;
}

/** The node on one line (flow context), or undefined when it has no one-line form. */
function inline(node: YamlNode): string | undefined {
  switch (node.t) {
    case 'plain':
      return FLOW_UNSAFE.test(node.v) ? `'${node.v.replace(/'/g, "''")}'` : props(node) + node.v;
    case 'single':
      return `${props(node)}'${node.v}'`;
    case 'double':
      return `${props(node)}"${node.v}"`;
    case 'alias':
      return `*${node.name}`;
    case 'map': {
      const parts: string[] = [];
      for (const [key, value] of node.entries) {
        const v = inline(value);
        if (v === undefined) return undefined;
        parts.push(`${key}: ${v}`);
      }
      return `${props(node)}{${parts.join(', ')}}`;
    }
    case 'seq': {
      const parts: string[] = [];
      for (const item of node.items) {
        const v = inline(item);
        if (v === undefined) return undefined;
        parts.push(v);
      }
      return `${props(node)}[${parts.join(', ')}]`;
    }
    default:
      return undefined;
  }
}

const pad = (n: number): string => ' '.repeat(n);

/** What follows `key:` or `- ` for a node whose own lines are indented by `indent`. */
function after(node: YamlNode, indent: number, comment: string): string {
  switch (node.t) {
    case 'plain':
      // Text that starts with an indicator is not a plain scalar: written quoted, as people do.
      return INDICATOR.test(node.v) ? ` ${props(node)}'${node.v.replace(/'/g, "''")}'${comment}\n` : ` ${props(node)}${node.v}${comment}\n`;
    case 'single':
    case 'double':
    case 'alias':
      return ` ${inline(node)}${comment}\n`;
    case 'two-lines':
      return ` ${props(node)}${node.quote}${node.v[0]}\n${pad(Math.max(0, indent + node.shift))}${node.v[1]}${node.quote}\n`;
    case 'block':
      return ` ${props(node)}${node.header}${comment}\n${node.lines.map((line) => (line === '' ? '\n' : `${pad(indent)}${line}\n`)).join('')}`;
    case 'map':
    case 'seq': {
      if (node.flow || (node.t === 'map' ? node.entries.length : node.items.length) === 0) {
        const text = inline(node);
        if (text !== undefined) return ` ${text}${comment}\n`;
      }
      return ` ${props(node).trimEnd()}${comment}\n${block(node, indent)}`.replace(/^ \n/, '\n');
    }
  }
}

/** A collection in block style, its lines indented by `indent`. */
export function block(node: YamlNode, indent: number): string {
  if (node.t === 'map' && node.entries.length > 0) {
    return node.entries.map(([key, value], i) => `${pad(indent)}${key}:${after(value, indent + 2, i % 2 === 1 ? ' # c' : '')}`).join('');
  }
  if (node.t === 'seq' && node.items.length > 0) {
    return node.items.map((item) => `${pad(indent)}-${after(item, indent + 2, '')}`).join('');
  }
  return `${pad(indent)}${inline(node) ?? "''"}\n`;
}

/** Ways to break a text; most runs keep it whole. */
export const damage = fc.oneof(
  { weight: 6, arbitrary: fc.constant((text: string) => text) },
  {
    weight: 1,
    arbitrary: fc.nat().map((n) => (text: string) => {
      const lines = text.split('\n');
      const i = n % lines.length;
      lines[i] = lines[i]!.replace(/^ {1,2}/, '\t');
      return lines.join('\n');
    }),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map((n) => (text: string) => {
      const lines = text.split('\n');
      const i = n % lines.length;
      lines[i] = ` ${lines[i]}`;
      return lines.join('\n');
    }),
  },
  { weight: 1, arbitrary: fc.constant((text: string) => text.replace(/"([^"\n]*)"/, '"$1')) },
  {
    weight: 1,
    arbitrary: fc.nat().map((n) => (text: string) => {
      const lines = text.split('\n');
      const i = n % lines.length;
      lines[i] = `${lines[i]}: x`;
      return lines.join('\n');
    }),
  },
);

/** A document: a mapping (sometimes a wsync resource, so that it is interpolated) or another node. */
export function yamlDocument(options: { mergeKeys: boolean }): fc.Arbitrary<string> {
  const node = yamlNode(options);
  return fc
    .tuple(
      fc.constantFrom('', '', 'apiVersion: wsync/v1\n', '# leading comment\n'),
      fc.oneof(
        { weight: 4, arbitrary: fc.array(fc.tuple(fc.constantFrom(...KEYS, ...(options.mergeKeys ? ['<<'] : [])), node), { minLength: 1, maxLength: 4 }).map((entries) => ({ t: 'map' as const, flow: false, entries })) },
        { weight: 1, arbitrary: node },
      ),
    )
    .map(([head, node]) => {
      // An anchor on the root could only be aliased from inside itself.
      const root = 'anchor' in node ? { ...node, anchor: undefined } : node;
      if (root.t === 'map' && !root.flow && head.startsWith('apiVersion')) return head + block(root, 0);
      if (root.t === 'map' || root.t === 'seq') return head + block(root, 0);
      return `${head}---${after(root, 2, '')}`;
    });
}

/** A file: one to four documents, with the separators and end markers people use. */
export function yamlFile(options: { mergeKeys: boolean }): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(yamlDocument(options), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('---\n', '--- # next\n', '...\n---\n'),
      fc.boolean(),
    )
    .map(([docs, separator, leading]) => (leading ? '---\n' : '') + docs.join(separator));
}
