// Where the time of one plan goes, phase by phase (`wsync plan --stats`, the daemon's reconcile log).
// The pure layers never read a clock: the shell hands them `measure`, which times a piece of work.

export const PHASES = ['read', 'parse', 'validate', 'live', 'plan', 'references', 'apply', 'render'] as const;
export type Phase = (typeof PHASES)[number];

/** Runs `work` and counts its time against `phase`. */
export type Measure = <T>(phase: Phase, work: () => T) => T;

/** Phase times; a phase measured inside another counts for itself only (plan's time leaves out its references). */
export class PhaseTimes {
  readonly ms: Partial<Record<Phase, number>> = {};
  /** Time of the phases measured inside each synchronous measure still running. */
  private readonly inner: number[] = [];

  add(phase: Phase, ms: number): void {
    this.ms[phase] = (this.ms[phase] ?? 0) + ms;
  }

  readonly measure: Measure = (phase, work) => {
    const started = performance.now();
    this.inner.push(0);
    try {
      return work();
    } finally {
      const total = performance.now() - started;
      const inner = this.inner.pop() ?? 0;
      this.add(phase, total - inner);
      if (this.inner.length > 0) this.inner[this.inner.length - 1] = (this.inner[this.inner.length - 1] ?? 0) + total;
    }
  };

  /** For work that awaits: not to be nested in another measure. */
  async measureAsync<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(phase, performance.now() - started);
    }
  }

  /** Whole milliseconds per phase, in PHASES order, phases that did not run left out. */
  rounded(): Partial<Record<Phase, number>> {
    const out: Partial<Record<Phase, number>> = {};
    for (const phase of PHASES) {
      const ms = this.ms[phase];
      if (ms !== undefined) out[phase] = Math.round(ms);
    }
    return out;
  }

  /** `read 40 ms, parse 310 ms, ...` */
  text(): string {
    return Object.entries(this.rounded())
      .map(([phase, ms]) => `${phase} ${ms} ms`)
      .join(', ');
  }
}
