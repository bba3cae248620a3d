// The order of writes: level by level (roles and notifiers before the users and monitors that
// need them; deletes in reverse), within a level a change after the changes it depends on, at
// most `concurrency` changes at once.
import pLimit from 'p-limit';
import { changeRef, type Change } from '../core/types.js';
import type { ApplyOutcome } from './types.js';

/** Why a change cannot run: a dependency failed, was skipped, or comes after it. */
export interface Blocked {
  outcome: Exclude<ApplyOutcome, 'done'>;
  message: string;
}

/** Runs `work` over `items`, at most `concurrency` at once, starting them in the order given. */
export async function runBounded<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  await pLimit(Math.max(1, concurrency)).map(items, work);
}

export function groupByLevel(changes: readonly Change[], order: 'ascending' | 'descending'): Change[][] {
  const levels = [...new Set(changes.map((c) => c.level))].sort((a, b) => (order === 'ascending' ? a - b : b - a));
  return levels.map((level) => changes.filter((c) => c.level === level));
}

/** Within one level, a change comes after the changes it depends on (so no worker waits on a queued one). */
export function orderByDependencies(changes: readonly Change[]): Change[] {
  const byRef = new Map(changes.map((c) => [changeRef(c.kind, c.key), c]));
  const placed = new Set<string>();
  const out: Change[] = [];
  const visit = (change: Change, path: Set<string>): void => {
    const ref = changeRef(change.kind, change.key);
    if (placed.has(ref) || path.has(ref)) return;
    path.add(ref);
    for (const dependency of change.dependsOn) {
      const target = byRef.get(dependency);
      if (target) visit(target, path);
    }
    placed.add(ref);
    out.push(change);
  };
  for (const change of changes) visit(change, new Set());
  return out;
}

/** The outcome of every change of a run, as a promise the changes that depend on it wait for. */
export class Schedule {
  private readonly outcomes = new Map<string, Promise<ApplyOutcome>>();
  private readonly settlers = new Map<string, (outcome: ApplyOutcome) => void>();
  /** Changes a worker has picked up: a dependency not among them would be waited on forever. */
  private readonly started = new Set<string>();

  constructor(
    changes: readonly Change[],
    private readonly concurrency: number,
  ) {
    for (const change of changes) {
      const ref = changeRef(change.kind, change.key);
      this.outcomes.set(ref, new Promise((resolve) => this.settlers.set(ref, resolve)));
    }
  }

  /** Runs the changes level by level in the given order. */
  async runLevels(changes: readonly Change[], order: 'ascending' | 'descending', run: (change: Change) => Promise<void>): Promise<void> {
    for (const level of groupByLevel(changes, order)) await runBounded(orderByDependencies(level), this.concurrency, run);
  }

  /** Marks the change started and waits for what it depends on; says why it cannot run, if so. */
  async waitForDependencies(change: Change): Promise<Blocked | undefined> {
    this.started.add(changeRef(change.kind, change.key));
    for (const dependency of change.dependsOn) {
      if (this.outcomes.has(dependency) && !this.started.has(dependency)) {
        return { outcome: 'failed', message: `depends on ${dependency}, which the plan orders after it` };
      }
      const outcome = await this.outcomes.get(dependency);
      if (outcome !== undefined && outcome !== 'done') {
        return { outcome: 'skipped', message: `depends on ${dependency}, which ${outcome === 'failed' ? 'failed' : 'was skipped'}` };
      }
    }
    return undefined;
  }

  settle(change: Change, outcome: ApplyOutcome): void {
    this.settlers.get(changeRef(change.kind, change.key))?.(outcome);
  }

  /** The outcome of a change of this run, once it is known. */
  outcomeOf(change: Change): Promise<ApplyOutcome> | undefined {
    return this.outcomes.get(changeRef(change.kind, change.key));
  }
}
