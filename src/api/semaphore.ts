/** At most `size` holders at a time; the rest wait in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Resolves with a release function once a place is free. */
  async acquire(): Promise<() => void> {
    if (this.active < this.size) {
      this.active++;
    } else {
      // The releasing holder hands its place over directly, so `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
