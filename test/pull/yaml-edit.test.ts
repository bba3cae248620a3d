// The text editor under pull: each edit changes only the lines of the value, in the style of its
// place, and the text reads back as the value asked for.
import { parseAllDocuments, type Document } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/core/types.js';
import { applySplices, EditRefused, YamlDocumentEditor } from '../../src/pull/yaml-edit.js';

type Segment = string | number;

/** `text` with `edit` made through the editor, checked to read back as `target`. */
function edited(text: string, change: (target: JsonObject) => void, edit: (editor: YamlDocumentEditor, target: JsonObject) => void, json = false): string {
  const doc = parseAllDocuments(text, { merge: true })[0] as Document.Parsed;
  const target = structuredClone(doc.toJS()) as JsonObject;
  change(target);
  const editor = new YamlDocumentEditor(text, doc, json);
  edit(editor, target);
  const out = applySplices(text, editor.splices);
  expect((parseAllDocuments(out, { merge: true })[0] as Document.Parsed).toJS()).toEqual(target);
  return out;
}

const set = (path: Segment[], value: JsonValue) => [
  (target: JsonObject) => {
    let node = target as Record<string, JsonValue>;
    for (const s of path.slice(0, -1)) node = node[String(s)] as Record<string, JsonValue>;
    node[String(path[path.length - 1])] = value;
  },
  (editor: YamlDocumentEditor, target: JsonObject) => editor.set(path, target),
] as const;

const remove = (path: Segment[]) => [
  (target: JsonObject) => {
    let node = target as Record<string, JsonValue>;
    for (const s of path.slice(0, -1)) node = node[String(s)] as Record<string, JsonValue>;
    const last = path[path.length - 1] as Segment;
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[String(last)];
  },
  (editor: YamlDocumentEditor, target: JsonObject) => editor.remove(path, target),
] as const;

describe('YamlDocumentEditor', () => {
  it('rewrites a literal block scalar as a literal block at its indentation', () => {
    const text = 'spec:\n  query: |\n    one\n    two\n  after: 1 # kept\n';
    expect(edited(text, ...set(['spec', 'query'], 'one\nthree\n'))).toBe('spec:\n  query: |\n    one\n    three\n  after: 1 # kept\n');
  });

  it('quotes a plain scalar only when the new text needs it', () => {
    const text = 'a: plain\nb: other\n';
    expect(edited(text, ...set(['a'], 'yes'))).toBe('a: "yes"\nb: other\n');
    expect(edited(text, ...set(['a'], 'x: y'))).toBe('a: "x: y"\nb: other\n');
    expect(edited(text, ...set(['a'], 'still plain'))).toBe('a: still plain\nb: other\n');
  });

  it('adds a key to a flow mapping and removes an item of a flow list', () => {
    const text = 'a: {x: 1}\nb: [1, 2, 3]\n';
    expect(edited(text, ...set(['a', 'z'], 'two words'))).toBe('a: {x: 1, z: two words}\nb: [1, 2, 3]\n');
    expect(edited(text, ...remove(['b', 1]))).toBe('a: {x: 1}\nb: [1, 3]\n');
    expect(edited(text, ...remove(['b', 2]))).toBe('a: {x: 1}\nb: [1, 2]\n');
  });

  it('writes a nested mapping under a new key in block style at the mapping indentation', () => {
    const text = 'spec:\n    a: 1 # four spaces\n';
    expect(edited(text, ...set(['spec', 'b'], { c: [1, 2], d: 'e' }))).toBe('spec:\n    a: 1 # four spaces\n    b:\n        c:\n            - 1\n            - 2\n        d: e\n');
  });

  it('edits a JSON document as JSON: a value in place, an item appended to a multi-line list', () => {
    const text = '{\n  "name": "Board",\n  "charts": [\n    {\n      "id": "a"\n    }\n  ],\n  "layout": [{ "i": "a", "x": 0 }]\n}\n';
    expect(edited(text, ...set(['name'], 'Board "2"'), true)).toBe(text.replace('"Board"', '"Board \\"2\\""'));
    const appended = edited(text, ...set(['charts', 1], { id: 'b', query: { apl: 'x' } }), true);
    expect(appended).toBe(text.replace('      "id": "a"\n    }\n', '      "id": "a"\n    },\n    {\n      "id": "b",\n      "query": {\n        "apl": "x"\n      }\n    }\n'));
    expect(() => JSON.parse(appended) as unknown).not.toThrow();
    const flowAppended = edited(text, ...set(['layout', 1], { i: 'b', x: 1 }), true);
    expect(flowAppended).toContain('"layout": [{ "i": "a", "x": 0 }, {\n');
    expect(() => JSON.parse(flowAppended) as unknown).not.toThrow();
  });

  it('refuses to unset a key a merge key brings in', () => {
    const text = 'base: &b {x: 1}\nuse:\n  <<: *b\n  y: 2\n';
    const editor = new YamlDocumentEditor(text, parseAllDocuments(text, { merge: true })[0] as Document.Parsed);
    expect(() => editor.remove(['use', 'x'], {})).toThrow(EditRefused);
  });
});
