import { watch, type FSWatcher } from 'chokidar';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import type { Trigger } from './scheduler.js';
import { isInside, resolveSnapshot, type Snapshot } from './snapshot.js';

export interface DirWatcherOptions {
  dir: string;
  /** Absolute paths whose changes never trigger a reconcile (the state and token output directories). */
  ignore: readonly string[];
  /** A relevant change (debounced by the caller): `revision` when the link now points elsewhere. */
  onTrigger: (trigger: Trigger) => void;
  onError?: (err: unknown) => void;
  onRetarget?: (snapshot: Snapshot | null) => void;
}

const IGNORED_SEGMENTS = new Set(['.git', 'node_modules']);
// JSON: documents resource files name (a dashboard exported from the UI), which change on their own.
const RESOURCE_EXT = new Set(['.yaml', '.yml', '.json']);
// A burst of a thousand edits tells nothing more than one: stop keeping their paths.
const MAX_PENDING_PATHS = 1000;


/**
 * Watches DIR for edits and for git-sync's link swap. Two chokidar watchers: the directory that
 * holds the link (or DIR), depth 0, which sees the link renamed over; and the resolved target,
 * recursively, which sees edits. When the link points elsewhere the recursive watch moves to the
 * new target, and what happens in the old one (git-sync deleting it) is ignored.
 */
export class DirWatcher {
  private readonly dir: string;
  private readonly opts: DirWatcherOptions;
  private parentWatcher: FSWatcher | null = null;
  private parentRoot: string | null = null;
  private treeWatcher: FSWatcher | null = null;
  private current: Snapshot | null = null;
  private pendingPaths: string[] = [];
  /** Each file's state when an event about it last counted (inode, size, times): see fileEvent. */
  private readonly seen = new Map<string, string>();
  private overflow = false;
  private checkQueued = false;
  private checking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(opts: DirWatcherOptions) {
    this.opts = opts;
    this.dir = resolve(opts.dir);
  }

  /** The target being watched: what the last check (or reconcile) resolved DIR to. */
  get snapshot(): Snapshot | null {
    return this.current;
  }

  /** Resolves once both watchers have scanned their trees. */
  async start(): Promise<void> {
    const snap = await resolveSnapshot(this.dir);
    this.current = snap;
    await Promise.all([this.watchParent(snap), snap ? this.watchTree(snap.target) : Promise.resolve()]);
  }

  /**
   * A reconcile resolved DIR itself (e.g. a scheduled one ran before the swap was seen): watch what
   * it read, so the swap it already covered does not trigger another reconcile.
   */
  adopt(snapshot: Snapshot | null): void {
    if (this.closed || sameTarget(snapshot, this.current)) return;
    this.current = snapshot;
    this.retarget(snapshot);
  }

  async close(): Promise<void> {
    this.closed = true;
    const closing = [this.parentWatcher?.close(), this.treeWatcher?.close()];
    this.parentWatcher = null;
    this.treeWatcher = null;
    await Promise.allSettled(closing);
    await this.checking.catch(() => undefined);
  }

  /** Paths under `root` that never matter: the ignored directories, `.git`, `node_modules`. */
  private ignored(root: string, path: string): boolean {
    const abs = resolve(path);
    if (abs === root) return false;
    if (this.opts.ignore.some((dir) => isInside(abs, dir))) return true;
    return relative(root, abs).split(sep).some((segment) => IGNORED_SEGMENTS.has(segment));
  }

  private async watchParent(snap: Snapshot | null): Promise<void> {
    const root = dirname(snap?.link ?? this.dir);
    if (root === this.parentRoot && this.parentWatcher) return;
    const old = this.parentWatcher;
    this.parentWatcher = null;
    this.parentRoot = root;
    if (old) void old.close().catch(() => undefined);
    if (!existsSync(root)) {
      this.opts.onError?.(new Error(`cannot watch ${root}: it does not exist; waiting for the schedule instead`));
      return;
    }
    const watcher = watch(root, {
      depth: 0,
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (p: string) => this.ignored(root, p),
    });
    this.parentWatcher = watcher;
    watcher.on('all', () => this.queueCheck(null));
    watcher.on('error', (err) => this.opts.onError?.(err));
    await new Promise<void>((done) => watcher.once('ready', () => done()));
  }

  private async watchTree(target: string): Promise<void> {
    const watcher = watch(target, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (p: string) => this.ignored(target, p),
    });
    this.treeWatcher = watcher;
    watcher.on('all', (event: string, path: string) => {
      if (isRelevant(event, path)) this.fileEvent(event, resolve(path));
    });
    // chokidar drops a write that leaves the modification time as it was when the access time is
    // later (`cp -p`, `tar`, a restore keep both): the system's own event still says it was written.
    // The file cache then sees the change by its ctime, which no copy keeps. Only such a write is
    // taken from the system's event: an ordinary edit (access time not after the modification) is
    // chokidar's to report, so that one edit is one trigger.
    watcher.on('raw', (event: string, name: string, details: unknown) => {
      const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (event !== 'change' || watched === undefined) return;
      const path = basename(watched) === name ? watched : join(watched, name);
      if (!isRelevant(event, path) || this.ignored(target, path)) return;
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat && stat.atimeMs > stat.mtimeMs) this.fileEvent(event, resolve(path));
    });
    watcher.on('error', (err) => this.opts.onError?.(err));
    await new Promise<void>((done) => watcher.once('ready', () => done()));
  }

  private retarget(snap: Snapshot | null): void {
    const old = this.treeWatcher;
    this.treeWatcher = null;
    if (old) void old.close().catch(() => undefined);
    if (snap) void this.watchTree(snap.target).catch((err) => this.opts.onError?.(err));
    void this.watchParent(snap).catch((err) => this.opts.onError?.(err));
    this.opts.onRetarget?.(snap);
  }

  /**
   * An event about a file. A write that keeps its times may be seen twice, by the system's own event
   * and by chokidar's (when it moved the modification time after all), and counts once: the second
   * finds the file as the first did (same inode, size, modification and change times; no copy
   * keeps the change time) and is dropped. A later edit changes the ctime.
   */
  private fileEvent(event: string, path: string): void {
    if (event === 'add' || event === 'change') {
      const stat = statSync(path, { throwIfNoEntry: false });
      const state = stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : '';
      if (state !== '' && this.seen.get(path) === state) return;
      if (this.seen.size >= MAX_PENDING_PATHS) this.seen.clear();
      this.seen.set(path, state);
    } else {
      this.seen.delete(path);
    }
    this.queueCheck(path);
  }

  private queueCheck(path: string | null): void {
    if (this.closed) return;
    if (path !== null) {
      if (this.pendingPaths.length < MAX_PENDING_PATHS) this.pendingPaths.push(path);
      else this.overflow = true;
    }
    if (this.checkQueued) return;
    this.checkQueued = true;
    this.checking = this.checking.then(() => this.check()).catch((err) => this.opts.onError?.(err));
  }

  /** Decides what a batch of events means: a new revision, an edit of the current one, or nothing. */
  private async check(): Promise<void> {
    this.checkQueued = false;
    const paths = this.pendingPaths;
    const overflow = this.overflow;
    this.pendingPaths = [];
    this.overflow = false;
    if (this.closed) return;
    const snap = await resolveSnapshot(this.dir);
    if (this.closed) return;
    if (!sameTarget(snap, this.current)) {
      const revisionMoved = snap !== null && this.current !== null && snap.revision !== this.current.revision;
      this.current = snap;
      this.retarget(snap);
      this.opts.onTrigger(revisionMoved || (snap?.revision ?? null) !== null ? 'revision' : 'change');
      return;
    }
    if (snap === null) return;
    // Events from a target we no longer watch (git-sync deleting the old worktree) are not edits.
    if (overflow || paths.some((p) => isInside(p, snap.target))) this.opts.onTrigger('change');
  }
}

function sameTarget(a: Snapshot | null, b: Snapshot | null): boolean {
  return (a?.target ?? null) === (b?.target ?? null);
}

function isRelevant(event: string, path: string): boolean {
  if (event === 'addDir' || event === 'unlinkDir') return true;
  const ext = extname(path).toLowerCase();
  return RESOURCE_EXT.has(ext) || basename(path) === 'wsync.yaml';
}
