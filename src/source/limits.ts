// Bounds that keep a hostile or broken file from exhausting memory or time. Real resource files are
// a few kilobytes; these limits are orders of magnitude above anything a person writes by hand.

/** A larger file is refused before it is parsed. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Alias nodes (`*name`) in one document. */
export const MAX_ALIASES = 100;
/** Nodes produced by expanding aliases in one document (bounds "billion laughs" documents). */
export const MAX_ALIAS_EXPANSION = 10_000;
/**
 * Bytes that aliases expand to in one document: the text of the strings and keys each alias
 * repeats. What aliases expand to is counted toward the tree's byte limit as well, so that plan
 * output and request bodies stay in proportion to it (a long string repeated by aliases otherwise
 * makes a plan many times the tree's size: docs/incremental.md, "Figures behind the code").
 */
export const MAX_ALIAS_EXPANSION_BYTES = 1024 * 1024;
/**
 * Values (scalars and collections) in a file that the exact reader (the `yaml` library) must
 * read: its memory at its peak grows with them, so this bounds it (prescan.ts; the figures are in
 * docs/incremental.md, "Figures behind the code").
 */
export const MAX_EXACT_READ_NODES = 100_000;
/** Nodes in one document after alias expansion. */
export const MAX_DOCUMENT_NODES = 200_000;
/** Nesting depth of mappings and sequences. */
export const MAX_DEPTH = 64;
/** YAML errors reported per file; the parser often reports a cascade after the first one. */
export const MAX_YAML_ERRORS_PER_FILE = 10;
/**
 * Secret values (webhook header values, tokens, webhook URLs) in the whole tree. Each one is
 * compared by keyed hash, shown as its own sensitive field and recorded in the inventory, at about
 * 1 KB apiece while a plan or apply runs: 7 notifiers of 60,000 header values (7.5 MB, within the
 * byte limit) took plan past the Kubernetes example's 384 MiB and made a 55 MB inventory. A
 * notifier has one to a few; 20,000 is far above any real tree and bounds them near 20 MB.
 */
export const MAX_SECRET_VALUES = 20_000;
/** A file read through `${file:}` larger than this is refused. */
export const MAX_SECRET_FILE_BYTES = 1024 * 1024;

/**
 * Bounds on a whole tree, so a tree too large for the memory wsync runs in is refused with a clear
 * error before it is read, instead of the process being killed half-way. YAML takes many times its
 * size once parsed; the defaults keep a tree within the memory the shipped Kubernetes manifest
 * allows (the figures: docs/incremental.md, "Figures behind the code").
 * Flags and the environment raise them (never wsync.yaml: it is part of the tree it would limit).
 */
export interface TreeLimits {
  /** Bytes of all the YAML files together. */
  maxBytes: number;
  /** Resource documents in all the files together. */
  maxResources: number;
}

export const DEFAULT_TREE_LIMITS: TreeLimits = { maxBytes: 8 * 1024 * 1024, maxResources: 15_000 };
