// What a tree may still read within its limits (limits.ts, TreeLimits), shared by every file read
// for one rendering: the base files and the chosen environment's overlay files alike.
import type { FileResult } from '../process-file.js';
import type { TreeLimits } from '../limits.js';

export interface TreeBudget {
  limits: TreeLimits;
  /** Bytes the tree may still read (negative once past the limit). */
  bytesLeft: number;
  /** Documents counted so far. */
  resources: number;
  /** Said in a limit's error when files other than the one where reading stopped were read first. */
  readFirst?: string;
}

export function treeBudget(limits: TreeLimits): TreeBudget {
  return { limits, bytesLeft: limits.maxBytes, resources: 0 };
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

/** The error that stops reading a tree past one of its limits, at the file where it stopped. */
function overLimit(file: string, what: string, variable: string, flag: string, notes: readonly (string | undefined)[]): FileResult {
  const said = notes.filter((note) => note !== undefined).map((note) => ` (${note})`).join('');
  const message =
    `${what}: reading stopped here, before the rest could exhaust memory${said}. If the files are meant to be this large, ` +
    `raise the limit with ${flag} or ${variable} (and the memory wsync may use)`;
  return { diagnostics: [{ severity: 'error', code: 'limit', file, line: 1, column: 1, message }], documents: [] };
}

export function tooManyBytes(file: string, budget: TreeBudget, aliases = false): FileResult {
  const note = aliases ? 'what aliases expand to counts as written out' : undefined;
  const what = `the files hold more than ${sizeText(budget.limits.maxBytes)} in total`;
  return overLimit(file, what, 'WSYNC_MAX_INPUT_BYTES', '--max-input-bytes', [note, budget.readFirst]);
}

export function tooManyDocuments(file: string, budget: TreeBudget): FileResult {
  const what = `the files declare more than ${budget.limits.maxResources} resources`;
  return overLimit(file, what, 'WSYNC_MAX_RESOURCES', '--max-resources', ['every YAML document counts, a resource or not', budget.readFirst]);
}
