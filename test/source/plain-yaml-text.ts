// Generates YAML as resource files are written (key: value lines, one-line quoted APL strings with
// `[`, `|`, `'`, `!=`, one-line flow sequences, block scalars, comments, `---`), the subset the
// fast path's scan vouches for (src/source/parse/simple-yaml.ts), and edits that each bring in one
// construct the guard watches for (anchors, tags, keys that are not text, outdented lines, ...), so
// that both the scan's yes and its no are exercised.
import fc from 'fast-check';

const KEYS = ['kind', 'name', 'spec', 'aplQuery', 'threshold', 'notifiers', 'wsync/prune', 'x.y', 'a-b', '_k', 'k1', 'true', 'True', 'FALSE', 'on', '"quoted key"', "'single'", '"*"', '""'];
/** Keys the scan leaves to the guard (a null key, a merge key, ...), now and then. */
const ODD_KEYS = ['Null', '"null"', '<<', '"<<"', '1', '.inf'];
const PLAIN = [
  'wsync/v1', 'Monitor', 'Threshold', 'Errors of service 42', '0', '25', '-1', '1.5', '0x1F', 'true', 'False', 'yes', 'null', '~',
  'oncall-0', 'a#b', "it's", '${env:SECRET}', '5xx answers of ${var:team}', '64Mi', '--prune', '../../kubernetes', '2026-11-28T10:00:00Z',
  '1e3', 'x != y', 'a | b', 'a, b', 'a:b', '-x', 'a [b] {c}', '-0', '0o17', '+12', '.5', '1.', 'TRUE', 'NULL', 'é', 'a  b  ',
];
/** Values the scan leaves to the guard or that neither path takes (a quoted text over two lines), now and then. */
const ODD = ['.inf', '-.Inf', '.nan', '1e400', '12345678901234567890', 'a: b', '@at', '&a x', '*a', '!t x', '[.inf]', '[a,]', '{a: 1}', '"a\n  b"', '"a\nb"'];
const DOUBLE = [
  '"[\'ds-0\'] | where status >= 500 | summarize count() by bin_auto(_time)"', '"[\'payments\'] | where status != \'declined\'"',
  '"say \\"hi\\""', '"a\\tb"', '""', '"# not a comment"', '"*"', '"<<"', '"null"', '"back\\\\"', '"\\u00e9"', '"\\x41"', '"\\/"',
];
const SINGLE = ["'it''s'", "''", "'a: b'", "'['", "'#'"];
const FLOW = ['[]', '[oncall-0]', '[a, b]', '[ada@example.com, "x y", \'z\']', '[1, 2.5, true, null, ~]', '[a,b ]', '{}', '{ }'];
const BLOCK_HEADERS = ['|', '|-', '|+', '>', '>-', '|  # c'];
const BLOCK_LINES = ['text', 'a: b', '- x', '# not a comment', '&a *b !c', '', '  more indented', "['x'] | where a != 'b'"];
const COMMENTS = ['', '', '', ' # c', '   # the natural key'];

const key = fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_KEYS) });

type Node =
  | { t: 'scalar'; text: string }
  | { t: 'block'; header: string; lines: string[] }
  | { t: 'map'; entries: [string, Node][] }
  | { t: 'seq'; items: Node[] };

const scalar: fc.Arbitrary<Node> = fc
  .oneof(
    { weight: 40, arbitrary: fc.constantFrom(...PLAIN) },
    { weight: 30, arbitrary: fc.constantFrom(...DOUBLE) },
    { weight: 10, arbitrary: fc.constantFrom(...SINGLE) },
    { weight: 20, arbitrary: fc.constantFrom(...FLOW) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD) },
  )
  .map((text) => ({ t: 'scalar' as const, text }));

const blockScalar: fc.Arbitrary<Node> = fc
  .tuple(fc.constantFrom(...BLOCK_HEADERS), fc.array(fc.constantFrom(...BLOCK_LINES), { maxLength: 4 }))
  .map(([header, lines]) => ({ t: 'block' as const, header, lines }));

const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: scalar },
    { weight: 1, arbitrary: blockScalar },
    { weight: 2, arbitrary: fc.uniqueArray(fc.tuple(key, tie('node')), { minLength: 1, maxLength: 4, selector: ([key]) => key }).map((entries) => ({ t: 'map' as const, entries })) },
    { weight: 1, arbitrary: fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((items) => ({ t: 'seq' as const, items })) },
  ),
}));

const pad = (n: number): string => ' '.repeat(n);

/** Lines of `node` as the value after `key:` or `- ` at column `column`; `inline` what goes on that line. */
function valueLines(value: Node, column: number, comment: string): { inline: string; below: string[] } {
  switch (value.t) {
    case 'scalar':
      return { inline: ` ${value.text}${comment}`, below: [] };
    case 'block':
      return { inline: ` ${value.header}`, below: value.lines.map((line) => (line === '' ? '' : `${pad(column + 2)}${line}`)) };
    case 'map':
      return { inline: comment, below: nodeLines(value, column + 2) };
    case 'seq':
      // A sequence under a key sits at the key's column, as people write it.
      return { inline: comment, below: nodeLines(value, column) };
  }
}

function nodeLines(value: Node, column: number): string[] {
  const lines: string[] = [];
  if (value.t === 'map') {
    value.entries.forEach(([key, v], i) => {
      const { inline, below } = valueLines(v, column, COMMENTS[i % COMMENTS.length]!);
      lines.push(`${pad(column)}${key}:${inline}`, ...below);
    });
  } else if (value.t === 'seq') {
    for (const item of value.items) {
      if (item.t === 'map') {
        // `- key: value`, the mapping's further keys two columns right of the `-`.
        const [first, ...rest] = nodeLines(item, column + 2);
        lines.push(`${pad(column)}- ${first!.slice(column + 2)}`, ...rest);
      } else if (item.t === 'seq') {
        lines.push(`${pad(column)}- [nested]`);
      } else {
        const { inline, below } = valueLines(item, column, '');
        lines.push(`${pad(column)}-${inline}`, ...below);
      }
    }
  } else {
    lines.push(`${pad(column)}${value.t === 'scalar' ? value.text : '|'}`);
  }
  return lines;
}

/** A resource-like document: a mapping at column 0, sometimes after a comment. */
const document = fc
  .tuple(
    fc.constantFrom('', '', '# yaml-language-server: $schema=../schemas/monitor.json\n'),
    fc.uniqueArray(fc.tuple(key, node), { minLength: 1, maxLength: 5, selector: ([key]) => key }),
  )
  .map(([head, entries]) => `${head}apiVersion: wsync/v1\n${nodeLines({ t: 'map', entries }, 0).join('\n')}\n`);

/** Files of one to four documents, as the scan should mostly vouch for them. */
export const plainYamlFile: fc.Arbitrary<string> = fc
  .tuple(fc.array(document, { minLength: 1, maxLength: 4 }), fc.constantFrom('---\n', '--- # next\n', '---\n\n'), fc.boolean())
  .map(([docs, separator, leading]) => (leading ? '---\n' : '') + docs.join(separator));

/** One line's edit, each a construct the guard watches for (or a harmless one). */
const LINE_EDITS: ((line: string) => string)[] = [
  (line) => ` ${line}`,
  (line) => `  ${line}`,
  (line) => line.replace(/^ /, ''),
  (line) => `${line}\n  continued`,
  (line) => `${line}\n    # indented comment`,
  (line) => `${line}#c`,
  (line) => `${line} #c`,
  (line) => line.replace(/: /, ': &a '),
  (line) => line.replace(/: .*/, ': *a'),
  (line) => line.replace(/: /, ': !t '),
  (line) => line.replace(/: /, ': !!str '),
  (line) => line.replace(/^( *)[^ :]+:/, '$1null:'),
  (line) => line.replace(/^( *)[^ :]+:/, '$1"<<":'),
  (line) => line.replace(/^( *)[^ :]+:/, '$1<<:'),
  (line) => line.replace(/^( *)[^ :]+:/, '$1~:'),
  (line) => line.replace(/^( *)[^ :]+:/, `$1${'k'.repeat(1001)}:`),
  (line) => line.replace(/^( *)[^ :]+:/, '$1[a]:'),
  (line) => line.replace(/: (.*)/, ': k: $1'),
  (line) => line.replace(/: (.*)/, ': |2\n    $1'),
  (line) => line.replace(/: (.*)/, ': [a,\nb]'),
  (line) => line.replace(/: (.*)/, ': "a\nb"'),
  (line) => line.replace(/: (.*)/, ': {a: 1}'),
  (line) => line.replace(/: (.*)/, ': .inf'),
  (line) => `${line}\n-`,
  (line) => `${line}\n- null`,
  (line) => `${line}\n- - x`,
  (line) => `${line}\n--- k: v`,
  (line) => `${line}\n...`,
  (line) => `${line}\n? k`,
  (line) => line.replace(/^( *)/, '$1\t'),
  (line) => `${line}\r`,
  (line) => line.replace(/^( *)- /, '$1-   '),
];

/** A plain file, sometimes with one or two lines edited. */
export const editedPlainYamlFile: fc.Arbitrary<string> = fc
  .tuple(plainYamlFile, fc.array(fc.tuple(fc.nat(), fc.nat(LINE_EDITS.length - 1)), { maxLength: 2 }))
  .map(([text, edits]) => {
    const lines = text.split('\n');
    for (const [at, edit] of edits) {
      const i = at % lines.length;
      lines[i] = LINE_EDITS[edit]!(lines[i]!);
    }
    return lines.join('\n');
  });
