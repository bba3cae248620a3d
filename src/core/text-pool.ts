// Equal values kept for long as one, not a copy per place (docs/incremental.md, "Memory of a
// one-shot plan"): a parser makes a new string for each occurrence of a text, and a large tree or
// list holds the same creator, time, query or annotations thousands of times.

/** Shares equal values, told apart by a text (`key`); holds at most `max` at a time (a run of unique ones costs no more). */
export class SharedValues<T> {
  private readonly known = new Map<string, T>();

  constructor(private readonly max: number) {}

  /** The value kept for `key` (`value` itself the first time). */
  share(key: string, value: T): T {
    const known = this.known.get(key);
    if (known !== undefined) return known;
    if (this.known.size >= this.max) this.known.clear();
    this.known.set(key, value);
    return value;
  }
}

/** Equal texts as one string. */
export class TextPool {
  private readonly texts: SharedValues<string>;

  constructor(max: number) {
    this.texts = new SharedValues(max);
  }

  /** The pool's string equal to `text` (`text` itself the first time). */
  share(text: string): string {
    return this.texts.share(text, text);
  }
}
