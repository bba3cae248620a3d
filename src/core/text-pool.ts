// Equal texts kept for long as one string, not a copy per place (docs/incremental.md, "Memory of a
// one-shot plan"): a parser makes a new string for each occurrence of a text, and a large tree or
// list holds the same creator, time or query thousands of times.

/** Shares equal texts; holds at most `max` distinct ones at a time (a run of unique texts costs no more). */
export class TextPool {
  private readonly texts = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** The pool's string equal to `text` (`text` itself the first time). */
  share(text: string): string {
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    if (this.texts.size >= this.max) this.texts.clear();
    this.texts.set(text, text);
    return text;
  }
}
