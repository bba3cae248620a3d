// YAML mistakes a newcomer makes, each reported once, in plain words, at its line, saying what to
// write instead (issue #29). The messages are compared in full.
import { describe, expect, it } from 'vitest';
import { readOne } from '../helpers.js';

/** A monitor with `lines` added at the end of its spec (line 12 on). */
function monitor(...lines: string[]): string {
  return [
    'apiVersion: wsync/v1',
    'kind: Monitor',
    'metadata:',
    '  name: m',
    'spec:',
    '  type: Threshold',
    '  aplQuery: "x"',
    '  operator: Above',
    '  threshold: 25',
    '  intervalMinutes: 5',
    '  rangeMinutes: 10',
    ...lines,
    '',
  ].join('\n');
}

/** Every diagnostic as the terminal shows it: file:line:column, severity, kind/name, message. */
function reported(text: string): string[] {
  return readOne(text).diagnostics.map((d) => {
    const label = d.kind ? `${d.kind}/${d.name}: ` : '';
    return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${label}${d.message}`;
  });
}

describe('YAML syntax errors in plain words, one per mistake', () => {
  it('an unquoted APL query is one error saying to quote it, with the quoted line', () => {
    const text = monitor().replace('  aplQuery: "x"', "  aplQuery: ['logs'] | count");
    expect(reported(text)).toEqual([
      `r.yaml:7:13: error: Monitor/m: the value of aplQuery starts with "[", which YAML reads as the start of a list: quote the value: aplQuery: "['logs'] | count"`,
    ]);
  });

  it('a 3-space indent under a key that has a value is an indentation problem at its line', () => {
    expect(reported(monitor('  description: x', '   extra: y'))).toEqual([
      'r.yaml:13:4: error: Monitor/m: indentation: indented 3 spaces, deeper than "description" above (line 12), which already has a value: indent it 2 spaces to continue the same mapping',
    ]);
  });

  it('a line indented to no level of the lines above is an indentation problem at its line', () => {
    const text = 'apiVersion: wsync/v1\nkind: Org\nmetadata:\n   name: acme\n  labels: {}\n';
    expect(reported(text)).toEqual([
      'r.yaml:5:3: error: Org/acme: indentation: indented 2 spaces, where the lines above it at this level, "name" (line 4), are indented 3: use the same indentation for all of them',
    ]);
  });

  it('tabs are one error, however many lines they indent', () => {
    expect(reported(monitor('\tdescription: x', '\tnotifiers:', '\t\t- a'))).toEqual([
      'r.yaml:12:1: error: Monitor/m: indented with a tab (3 lines, the first on line 12): YAML indents with spaces only; replace the tabs with spaces',
    ]);
  });

  it('a ": " inside a value', () => {
    expect(reported(monitor('  description: note: the rate is per minute'))).toEqual([
      'r.yaml:12:16: error: Monitor/m: the value of description holds ": ", which YAML reads as the start of another key: quote the value: description: "note: the rate is per minute"',
    ]);
  });

  it('a "#" at the start of a value (a comment: the value is empty)', () => {
    expect(reported(monitor('  description: #1 checkout alert'))).toEqual([
      'r.yaml:12:3: error: Monitor/m: spec.description: must be a string; the value of description starts with "#", which YAML reads as the start of a comment (the value is empty): quote the value: description: "#1 checkout alert"',
    ]);
  });

  it('a "{" at the start of a value', () => {
    expect(reported(monitor('  description: {service} is down'))).toEqual([
      'r.yaml:12:16: error: Monitor/m: the value of description starts with "{", which YAML reads as the start of a mapping: quote the value: description: "{service} is down"',
    ]);
  });

  it('a "*" at the start of a value', () => {
    expect(reported(monitor('  description: *all* errors'))).toEqual([
      'r.yaml:12:16: error: Monitor/m: the value of description starts with "*", which YAML reads as an alias (a reference to an &anchor): quote the value: description: "*all* errors"',
    ]);
    expect(reported(monitor('  description: *important'))).toEqual([
      'r.yaml:12:16: error: Monitor/m: the value of description starts with "*", which YAML reads as an alias (a reference to an &anchor): quote the value: description: "*important"',
    ]);
  });

  it('an "&" at the start of a value: the text changes without an error, so a warning says so', () => {
    expect(reported(monitor('  description: &copy checkout'))).toEqual([
      'r.yaml:12:16: warning: the value of description starts with "&", which YAML reads as an anchor (a name for the value, left out of it): quote the value: description: "&copy checkout"',
    ]);
  });

  it('an "@" or a backtick at the start of a value', () => {
    expect(reported(monitor('  description: @oncall look at this'))).toEqual([
      'r.yaml:12:16: error: Monitor/m: the value of description starts with "@", which YAML reads as a reserved character: quote the value: description: "@oncall look at this"',
    ]);
    expect(reported(monitor('  description: `kubectl logs` shows more'))).toEqual([
      'r.yaml:12:16: error: Monitor/m: the value of description starts with "`", which YAML reads as a reserved character: quote the value: description: "`kubectl logs` shows more"',
    ]);
  });

  it('a quoted start that ends before the value does', () => {
    expect(reported(monitor("  description: 'checkout's errors'"))).toEqual([
      `r.yaml:12:16: error: Monitor/m: the value of description starts with a single quote, which YAML reads as a quoted text that ends at the next one (column 25); inside '...' a ' is written twice: description: 'checkout''s errors'`,
    ]);
  });

  it('a missing space after "-"', () => {
    expect(reported(monitor('  notifiers:', '    -oncall', '    -email'))).toEqual([
      'r.yaml:12:3: error: Monitor/m: spec.notifiers: must be a list; "-oncall" needs a space after "-" to be a list item: - oncall',
    ]);
    expect(reported(monitor('  notifiers:', '    - oncall', '    -email'))).toEqual([
      'r.yaml:14:5: error: Monitor/m: "-email" needs a space after "-" to be a list item: - email',
    ]);
  });

  it('a missing space after ":"', () => {
    expect(reported(monitor('  description:checkout errors', '  notifiers: []'))).toEqual([
      'r.yaml:12:3: error: Monitor/m: "description:checkout errors" needs a space after ":" to be a key and its value: description: checkout errors',
    ]);
  });

  it('a quote that is not closed', () => {
    expect(reported('apiVersion: wsync/v1\nkind: Org\nmetadata:\n  name: "acme\n')).toEqual([
      'r.yaml:4:9: error: Org/acme: the value of name starts with a double quote and has no closing one on its line: end it with " (a quoted text may go on over lines, but rarely should)',
    ]);
  });

  it('leaves a mistake it has no words for to the parser, once per line', () => {
    expect(reported('apiVersion: wsync/v1\nkind: Org\nmetadata:\n  name: acme\n  - x\n')).toEqual([
      'r.yaml:5:1: error: Org/acme: A block sequence may not be used as an implicit map key',
    ]);
  });
});
