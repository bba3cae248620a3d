// Edits of one YAML document as splices of the file's text: everything not edited stays byte for
// byte (comments, key order, quoting, anchors, blank lines). A value is edited where the document
// writes it; one that comes from an anchor (a merge key, an alias) is overridden on this object
// instead of changing the anchor, and the edit says so.
import { isAlias, isMap, isPair, isScalar, isSeq, visit, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import type { JsonValue } from '../core/types.js';
import { blockText, flowText, isCollection, itemText, keyText, pairText, scalarText, type ScalarStyle } from './render.js';

export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** An edit that cannot be made in place (the caller reports it and leaves the object alone). */
export class EditRefused extends Error {}

type Segment = string | number;

function keyOf(pair: Pair): string | undefined {
  const key = pair.key;
  // A merge key reads as a symbol.
  if (isScalar(key)) return key.value === null || typeof key.value === 'symbol' ? undefined : String(key.value);
  return undefined;
}

function isMergePair(pair: Pair): boolean {
  return isScalar(pair.key) && typeof pair.key.value === 'symbol';
}

function rangeOf(node: unknown): [number, number, number] {
  const range = (node as { range?: [number, number, number] | null }).range;
  if (!range) throw new EditRefused('the node has no position');
  return range;
}

function dotted(path: readonly Segment[]): string {
  return path.map(String).join('.');
}

/** The value at `path` of a JSON value (a number segment indexes an array). */
export function valueAt(root: JsonValue | undefined, path: readonly Segment[]): JsonValue | undefined {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (node !== null && typeof node === 'object') node = Object.prototype.hasOwnProperty.call(node, String(segment)) ? node[String(segment)] : undefined;
    else return undefined;
  }
  return node;
}

export class YamlDocumentEditor {
  readonly splices: Splice[] = [];
  readonly notes: string[] = [];
  private readonly indent: number;

  constructor(
    private readonly text: string,
    private readonly doc: Document.Parsed,
    /** The text is JSON (a dashboard's document file): what is written is JSON too. */
    private readonly json = false,
  ) {
    this.indent = this.detectIndent();
  }

  /** A collection (or any value in JSON) as flow text at `offset`'s line. */
  private flow(value: JsonValue, offset: number): string {
    if (!this.json) return flowText(value);
    const pad = ' '.repeat(this.lineIndent(offset));
    return JSON.stringify(value, null, this.indent).split('\n').join(`\n${pad}`);
  }

  private keyFlow(key: string): string {
    return this.json ? JSON.stringify(key) : flowText(key);
  }

  /** The indentation step the document uses (the first nested mapping's), 2 when it has none. */
  private detectIndent(): number {
    const root = this.doc.contents;
    if (!isMap(root)) return 2;
    for (const pair of root.items) {
      if (isMap(pair.value) && !pair.value.flow && pair.value.items.length > 0) {
        const step = this.column(rangeOf(pair.value)[0]) - this.column(rangeOf(pair.key)[0]);
        if (step > 0) return step;
      }
    }
    return 2;
  }

  private lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  private column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  /** Just after the end of the line `offset` is on (or the end of the text). */
  private afterLine(offset: number): number {
    if (offset > 0 && this.text[offset - 1] === '\n') return offset;
    const newline = this.text.indexOf('\n', offset);
    return newline === -1 ? this.text.length : newline + 1;
  }

  private splice(start: number, end: number, text: string): void {
    this.splices.push({ start, end, text });
  }

  /**
   * Makes the document hold `target`'s value at `path` (`target`: the whole document as it should
   * read, so that an override or a written-out alias gets the whole value of its place).
   */
  set(path: readonly Segment[], target: JsonValue): void {
    this.detachSharedAnchors(path);
    let node: unknown = this.doc.contents;
    let inFlow = false;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i] as Segment;
      const here = path.slice(0, i);
      if (isAlias(node)) {
        this.writeOutAlias(node, here, target);
        return;
      }
      if (isMap(node)) {
        const pair = node.items.find((p) => keyOf(p) === String(segment));
        if (!pair) {
          if (this.inheritedFrom(node, String(segment))) {
            this.notes.push(`${dotted(path.slice(0, i + 1))} came from a merge key (<<) shared with others: written as an override on this object, the anchor is unchanged`);
          }
          this.insertPair(node, String(segment), valueAt(target, path.slice(0, i + 1)) ?? null, inFlow || node.flow === true);
          return;
        }
        if (i === path.length - 1 || pair.value === null || !(isMap(pair.value) || isSeq(pair.value) || isAlias(pair.value))) {
          this.replaceValue(pair, node, valueAt(target, path.slice(0, i + 1)) ?? null, inFlow || node.flow === true);
          return;
        }
        inFlow ||= node.flow === true;
        node = pair.value;
        continue;
      }
      if (isSeq(node)) {
        const index = Number(segment);
        const item = node.items[index];
        const value = valueAt(target, path.slice(0, i + 1)) ?? null;
        if (item === undefined) {
          this.appendItem(node, value, inFlow || node.flow === true);
          return;
        }
        if (item === null) throw new EditRefused(`${dotted(path.slice(0, i + 1))} is an empty item`);
        if (i === path.length - 1 || !(isMap(item) || isSeq(item) || isAlias(item))) {
          this.replaceNode(item as Node, value, inFlow || node.flow === true);
          return;
        }
        inFlow ||= node.flow === true;
        node = item;
        continue;
      }
      throw new EditRefused(`${dotted(here)} is not a mapping or a list in the file`);
    }
    throw new EditRefused('nothing to edit');
  }

  /** Removes the value at `path`, which the document writes (not one it inherits through a merge key). */
  remove(path: readonly Segment[], target: JsonValue): void {
    this.detachSharedAnchors(path);
    const parentPath = path.slice(0, -1);
    const last = path[path.length - 1] as Segment;
    let node: unknown = this.doc.contents;
    for (let i = 0; i < parentPath.length; i++) {
      if (isAlias(node)) {
        this.writeOutAlias(node, parentPath.slice(0, i), target);
        return;
      }
      const segment = parentPath[i] as Segment;
      node = isMap(node) ? node.items.find((p) => keyOf(p) === String(segment))?.value : isSeq(node) ? node.items[Number(segment)] : undefined;
      if (node === undefined || node === null) return;
    }
    if (isAlias(node)) {
      this.writeOutAlias(node, parentPath, target);
      return;
    }
    if (isMap(node)) {
      const pair = node.items.find((p) => keyOf(p) === String(last));
      if (!pair) {
        if (this.inheritedFrom(node, String(last))) throw new EditRefused(`${dotted(path)} comes from a merge key (<<): YAML cannot unset an inherited key; edit the anchor or drop the merge by hand`);
        return;
      }
      this.removeEntry(node, pair, rangeOf(pair.key)[0], pair.value ? rangeOf(pair.value)[2] : rangeOf(pair.key)[2]);
      return;
    }
    if (isSeq(node)) {
      const item = node.items[Number(last)];
      if (item === undefined) return;
      const [start, , end] = rangeOf(item);
      // A block item starts at its dash.
      const dash = node.flow ? start : this.text.lastIndexOf('-', start);
      this.removeEntry(node, item, dash, end);
      return;
    }
    throw new EditRefused(`${dotted(parentPath)} is not a mapping or a list in the file`);
  }

  private readonly detached = new Set<string>();

  /**
   * An anchor on the way to the value to edit that other places alias: editing it would change
   * them too. Each of them gets the anchor's value written out where the alias was, and the anchor
   * is dropped; then the value is this object's own and is edited as such.
   */
  private detachSharedAnchors(path: readonly Segment[]): void {
    let node: unknown = this.doc.contents;
    for (let i = 0; i <= path.length && node !== undefined && node !== null; i++) {
      const anchor = (node as { anchor?: string }).anchor;
      if (typeof anchor === 'string' && !this.detached.has(anchor)) this.detach(node as Node, anchor);
      if (i === path.length) break;
      const segment = path[i] as Segment;
      node = isMap(node) ? node.items.find((p) => keyOf(p) === String(segment))?.value : isSeq(node) ? node.items[Number(segment)] : undefined;
    }
  }

  private detach(node: Node, anchor: string): void {
    const aliases: Node[] = [];
    visit(this.doc, {
      Alias: (_, alias) => {
        if (alias.source === anchor) aliases.push(alias);
      },
    });
    if (aliases.length === 0) return;
    this.detached.add(anchor);
    const value = (node as unknown as { toJS(doc: Document): JsonValue }).toJS(this.doc);
    for (const alias of aliases) {
      const [start, end] = rangeOf(alias);
      this.splice(start, end, flowText(value));
    }
    const mark = this.text.lastIndexOf(`&${anchor}`, rangeOf(node)[0]);
    if (mark !== -1) this.splice(mark, mark + anchor.length + 1 + (this.text[mark + anchor.length + 1] === ' ' ? 1 : 0), '');
    this.notes.push(`&${anchor} was read by ${aliases.length} other place(s): their value is written out where they read it, so that this change stays this object's own; the anchor is dropped`);
  }

  private inheritedFrom(map: YAMLMap, key: string): boolean {
    return map.items.some((pair) => {
      if (!isMergePair(pair)) return false;
      const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
      return sources.some((source) => {
        const resolved = isAlias(source) ? source.resolve(this.doc) : source;
        return isMap(resolved) && resolved.items.some((p) => keyOf(p) === key);
      });
    });
  }

  /** An alias stands where the change is: the value is written out for this use, the anchor is left as it is. */
  private writeOutAlias(alias: Node, path: readonly Segment[], target: JsonValue): void {
    const name = isAlias(alias) ? alias.source : '?';
    this.notes.push(`${dotted(path)} was *${name}, an anchor shared with others: written out here for this object, the anchor is unchanged`);
    // On the alias's own line: a collection is written in flow style there.
    this.replaceNode(alias, valueAt(target, path) ?? null, true);
  }

  private replaceValue(pair: Pair, map: YAMLMap, value: JsonValue, inFlow: boolean): void {
    const node = pair.value;
    if (node !== null && node !== undefined && !(isCollection(value) && isScalar(node) && !inFlow)) {
      this.replaceNode(node as Node, value, inFlow);
      return;
    }
    // No value written (`key:`), or a scalar becoming a block collection: the whole entry is written again.
    const keyStart = rangeOf(pair.key)[0];
    const end = node ? rangeOf(node)[1] : rangeOf(pair.key)[2];
    const source = this.text.slice(keyStart, rangeOf(pair.key)[1]);
    if (inFlow) {
      this.splice(keyStart, end, `${source}: ${this.flow(value, keyStart)}`);
      return;
    }
    this.splice(keyStart, end, pairText(source, value, this.column(rangeOf(map.items[0]?.key ?? pair.key)[0]), this.indent));
  }

  /** The node's text replaced by `value`'s, in the node's style. */
  private replaceNode(node: Node, value: JsonValue, inFlow: boolean): void {
    const [start, valueEnd] = rangeOf(node);
    if (isScalar(node) && !isCollection(value)) {
      const style = node.type as ScalarStyle;
      const block = style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED';
      const column = this.lineIndent(start) + this.indent;
      let text = this.json ? JSON.stringify(value) : scalarText(value, style, inFlow, column);
      const original = this.text.slice(start, valueEnd);
      if (block && !text.endsWith('\n') && original.endsWith('\n')) text += '\n';
      if (!block && original.endsWith('\n')) text += '\n';
      this.splice(start, valueEnd, text);
      return;
    }
    if (inFlow || (node as { flow?: boolean }).flow === true || !isCollection(value) || (isCollection(value) && Object.keys(value).length === 0)) {
      const original = this.text.slice(start, valueEnd);
      const text = isCollection(value) || this.json ? this.flow(value, start) : scalarText(value, 'PLAIN', inFlow, this.lineIndent(start) + this.indent);
      this.splice(start, valueEnd, `${text}${original.endsWith('\n') && !isScalar(node) && !(node as { flow?: boolean }).flow ? '\n' : ''}`);
      return;
    }
    const original = this.text.slice(start, valueEnd);
    const text = blockText(value, this.column(start), this.indent);
    this.splice(start, valueEnd, `${text}${original.endsWith('\n') ? '\n' : ''}`);
  }

  /** Spaces at the start of the line `offset` is on. */
  private lineIndent(offset: number): number {
    const start = this.lineStart(offset);
    let i = start;
    while (this.text[i] === ' ') i++;
    return i - start;
  }

  private insertPair(map: YAMLMap, key: string, value: JsonValue, inFlow: boolean): void {
    const [start, end] = rangeOf(map);
    if (inFlow || map.flow === true) {
      const close = this.text.lastIndexOf('}', end - 1);
      if (close < start) throw new EditRefused('a flow mapping without its closing brace');
      let at = close;
      while (at > start && /\s/.test(this.text[at - 1] ?? '')) at--;
      const first = map.items[0];
      const multiLine = first !== undefined && this.text.slice(start, rangeOf(first.key)[0]).includes('\n');
      const column = first !== undefined ? this.column(rangeOf(first.key)[0]) : 0;
      const lead = map.items.length === 0 ? '' : multiLine ? `,\n${' '.repeat(column)}` : ', ';
      this.splice(at, at, `${lead}${this.keyFlow(key)}: ${this.json ? this.flow(value, first ? rangeOf(first.key)[0] : start) : flowText(value)}`);
      return;
    }
    const first = map.items[0];
    if (!first) throw new EditRefused('an empty block mapping');
    const column = this.column(rangeOf(first.key)[0]);
    const at = this.afterLine(end);
    const lead = at === this.text.length && !this.text.endsWith('\n') ? '\n' : '';
    this.splice(at, at, `${lead}${' '.repeat(column)}${pairText(keyText(key), value, column, this.indent)}\n`);
  }

  private appendItem(seq: YAMLSeq, value: JsonValue, inFlow: boolean): void {
    const [start, end] = rangeOf(seq);
    if (inFlow || seq.flow === true) {
      const close = this.text.lastIndexOf(']', end - 1);
      if (close < start) throw new EditRefused('a flow list without its closing bracket');
      let at = close;
      while (at > start && /\s/.test(this.text[at - 1] ?? '')) at--;
      const first = seq.items[0];
      const firstStart = first ? rangeOf(first)[0] : start;
      const multiLine = first !== undefined && this.text.slice(start, firstStart).includes('\n');
      const lead = seq.items.length === 0 ? '' : multiLine ? `,\n${' '.repeat(this.column(firstStart))}` : ', ';
      this.splice(at, at, `${lead}${this.json ? this.flow(value, firstStart) : flowText(value)}`);
      return;
    }
    const first = seq.items[0];
    if (!first) throw new EditRefused('an empty block list');
    const dash = this.text.lastIndexOf('-', rangeOf(first)[0]);
    const column = this.column(dash);
    const at = this.afterLine(end);
    const lead = at === this.text.length && !this.text.endsWith('\n') ? '\n' : '';
    // Items written in flow style (`- {i: a, x: 0}`) get one more of theirs, as the last one is written.
    const last = seq.items[seq.items.length - 1];
    const item = (last as { flow?: boolean } | null)?.flow === true && isCollection(value) ? `- ${flowText(value)}` : itemText(value, column, this.indent);
    this.splice(at, at, `${lead}${' '.repeat(column)}${item}\n`);
  }

  /** Removes one entry of a collection: its lines in block style, the entry and a comma in flow style. */
  private removeEntry(collection: YAMLMap | YAMLSeq, entry: unknown, start: number, end: number): void {
    if (collection.flow === true) {
      const items = collection.items as unknown[];
      const index = items.indexOf(entry);
      const next = items[index + 1];
      const previous = items[index - 1];
      const startOf = (item: unknown): number => rangeOf(isPair(item) ? item.key : item)[0];
      const endOf = (item: unknown): number => rangeOf(isPair(item) ? (item.value ?? item.key) : item)[1];
      if (next !== undefined) this.splice(start, startOf(next), '');
      else if (previous !== undefined) this.splice(endOf(previous), end, '');
      else this.splice(start, end, '');
      return;
    }
    if (this.text.slice(this.lineStart(start), start).trim() !== '') {
      throw new EditRefused('the entry shares its line with another (the first key of a list item)');
    }
    this.splice(this.lineStart(start), this.afterLine(end), '');
  }
}

/** `text` with the splices made (they never overlap; two at one place keep their order). */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const ordered = splices.map((s, i) => ({ s, i })).sort((a, b) => b.s.start - a.s.start || b.i - a.i);
  let out = text;
  for (const { s } of ordered) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}
