import type { SourceLocation } from '../../core/types.js';

/**
 * Offset -> line and column. Nodes come mostly in file order, so the line of the previous node is
 * checked first; anything else is a binary search over the line starts.
 */
export class Positions {
  private line = 0;

  constructor(
    private readonly file: string,
    private readonly starts: readonly number[],
    /** 1 when the file starts with a byte order mark, which no editor counts as a column. */
    private readonly bom: number,
  ) {}

  at(offset: number): SourceLocation {
    const starts = this.starts;
    let i = this.line;
    if (starts.length === 0) return { file: this.file, line: 1, column: offset + 1 };
    if (starts[i]! <= offset && (i + 1 >= starts.length || starts[i + 1]! > offset)) {
      // same line as before
    } else if (i + 2 <= starts.length && starts[i + 1]! <= offset && (i + 2 >= starts.length || starts[i + 2]! > offset)) {
      i += 1;
    } else {
      let low = 0;
      let high = starts.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (starts[mid]! <= offset) low = mid + 1;
        else high = mid;
      }
      i = Math.max(0, low - 1);
    }
    this.line = i;
    const column = offset - starts[i]! + 1 - (i === 0 ? this.bom : 0);
    return { file: this.file, line: i + 1, column: column < 1 ? 1 : column };
  }
}
