// --state FILE: the workspace as JSON, reloaded at start and rewritten after changes, debounced and
// atomically (write a temporary file, fsync, rename), so a crash never leaves half a file.
import { readFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';

const DEBOUNCE_MS = 50;

export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private lastError: Error | undefined;

  constructor(
    readonly path: string,
    private readonly snapshot: () => unknown,
  ) {}

  /** The saved workspace, or undefined when the file does not exist yet. */
  load(): unknown {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new Error(`state file ${this.path} is not valid JSON: ${(error as Error).message}`);
    }
  }

  /** Marks the workspace changed; a write follows shortly. */
  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeNow();
    }, DEBOUNCE_MS);
    this.timer.unref();
  }

  /** Writes any pending change now and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.writeNow();
    if (this.lastError) throw this.lastError;
  }

  private writeNow(): Promise<void> {
    // Writes are chained so two never race on the temporary file.
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await writeAtomically(this.path, JSON.stringify(this.snapshot(), null, 2) + '\n');
        this.lastError = undefined;
      } catch (error) {
        this.lastError = error as Error;
        process.stderr.write(`wsync emulator: could not write state file ${this.path}: ${this.lastError.message}\n`);
      }
    });
    return this.writing;
  }
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
