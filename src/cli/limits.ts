import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError } from '../api/errors.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from '../source/limits.js';

export interface LimitFlags {
  maxInputBytes?: string;
  maxResources?: string;
}

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `8388608`, `8M`, `8MB`, `8MiB` (binary units, case-insensitive): a number of bytes, or undefined. */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  if (!match) return undefined;
  const bytes = Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

function wholeNumber(text: string): number | undefined {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The options that raise the bounds on a tree (for a tree larger than the defaults allow). */
export function addLimitOptions(cmd: Command): Command {
  const mib = DEFAULT_TREE_LIMITS.maxBytes / 1024 / 1024;
  return cmd
    .option('--max-input-bytes <size>', `most YAML the tree may hold, e.g. 32MiB (env WSYNC_MAX_INPUT_BYTES; default ${mib}MiB)`, (value: string) => {
      if (parseByteSize(value) === undefined) throw new InvalidArgumentError('expected a size such as 16MiB or 16777216');
      return value;
    })
    .option('--max-resources <n>', `most resources the tree may declare (env WSYNC_MAX_RESOURCES; default ${DEFAULT_TREE_LIMITS.maxResources})`, (value: string) => {
      if (wholeNumber(value) === undefined) throw new InvalidArgumentError('expected a whole number above 0');
      return value;
    });
}

/** Flags, then environment; never wsync.yaml, which is part of the tree these limits bound. Throws ConfigError. */
export function treeLimitsOf(flags: LimitFlags, env: Record<string, string | undefined>): Partial<TreeLimits> {
  const limits: Partial<TreeLimits> = {};
  const bytesText = flags.maxInputBytes ?? (env.WSYNC_MAX_INPUT_BYTES || undefined);
  if (bytesText !== undefined) {
    const bytes = parseByteSize(bytesText);
    if (bytes === undefined) throw new ConfigError(`WSYNC_MAX_INPUT_BYTES: "${bytesText}" is not a size such as 16MiB or 16777216`);
    limits.maxBytes = bytes;
  }
  const resourcesText = flags.maxResources ?? (env.WSYNC_MAX_RESOURCES || undefined);
  if (resourcesText !== undefined) {
    const resources = wholeNumber(resourcesText);
    if (resources === undefined) throw new ConfigError(`WSYNC_MAX_RESOURCES: "${resourcesText}" is not a whole number above 0`);
    limits.maxResources = resources;
  }
  return limits;
}
