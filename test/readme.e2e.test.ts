// The README's quick start, run as a new user would: its block read from README.md itself (so the
// test breaks when the README drifts), line by line in bash, in a fresh clone of the repository,
// against the bare emulator the block starts. Every line must exit 0, as the README says.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/paths.js';
import { removeDir, tempDir } from './support/tree.js';

/** The first ```sh block under `## Quick start`, its continuation lines joined. */
function quickStartBlock(readme: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Quick start\n'));
  if (section === undefined) throw new Error('README.md has no "## Quick start" section');
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('the quick start of README.md has no ```sh block');
  return block
    .replace(/\s*\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

/** The line that only fetches and builds: the suite has built dist/, and the clone links it. */
const PREPARE = /^npm ci && npm run build(\s+#.*)?$/;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
}

/** A port nobody listens on now (the README's 8080 may be taken on a machine running tests in parallel). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The repository as `git clone` gives it (tracked and new files, nothing ignored), plus npm ci's and build's output. */
async function freshClone(into: string): Promise<string> {
  const clone = join(into, 'wsync');
  const files = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter((f) => f !== '');
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    await mkdir(dirname(join(clone, file)), { recursive: true });
    await cp(join(ROOT, file), join(clone, file));
  }
  await symlink(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  await symlink(join(ROOT, 'dist'), join(clone, 'dist'));
  git(clone, 'init', '-q');
  git(clone, 'add', '-A');
  git(clone, 'commit', '-q', '-m', 'clone');
  return clone;
}

interface Step {
  line: string;
  code: number;
  output: string;
}

/** One bash, fed a line at a time, as a terminal would be; aliases on, as in an interactive shell. */
class Shell {
  private readonly child: ChildProcess;
  private buffer = '';
  private waiter: (() => void) | undefined;

  constructor(cwd: string, env: Record<string, string>) {
    this.child = spawn('bash', ['--noprofile', '--norc', '-O', 'expand_aliases', '-s'], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group: the emulator the block starts in the background goes with it.
      detached: true,
    });
    const take = (chunk: Buffer): void => {
      this.buffer += chunk.toString('utf8');
      this.waiter?.();
    };
    this.child.stdout?.on('data', take);
    this.child.stderr?.on('data', take);
  }

  private until(found: (text: string) => boolean, line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`README line did not finish: ${line}\n${this.buffer}`)), 60_000);
      this.waiter = () => {
        if (!found(this.buffer)) return;
        clearTimeout(timer);
        this.waiter = undefined;
        resolve();
      };
      this.waiter();
    });
  }

  async run(line: string): Promise<Step> {
    const marker = `__readme_step_${Math.random().toString(36).slice(2)}__`;
    this.buffer = '';
    this.child.stdin?.write(`${line}\necho "${marker} $?"\n`);
    const exit = new RegExp(`${marker} (\\d+)\\n`);
    await this.until((text) => exit.test(text), line);
    // A server started in the background is ready once it says where it listens.
    if (/&\s*(#.*)?$/.test(line)) await this.until((text) => /listening on http:\/\/\S+\n/.test(text), line);
    const code = Number(exit.exec(this.buffer)?.[1]);
    return { line, code, output: this.buffer.replace(exit, '') };
  }

  close(): void {
    this.child.stdin?.end('exit\n');
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

describe('README.md quick start', () => {
  let work: string;
  let shell: Shell | undefined;
  beforeAll(async () => {
    work = await tempDir('wsync-readme-');
  });
  afterAll(async () => {
    shell?.close();
    await removeDir(work);
  });

  it('every line works as written on a fresh clone and a bare emulator, and exits 0', async () => {
    const lines = quickStartBlock(await readFile(join(ROOT, 'README.md'), 'utf8'));
    expect(lines[0]).toMatch(PREPARE);
    expect(lines.some((line) => line.includes('wsync emulator'))).toBe(true);
    const clone = await freshClone(work);
    const port = String(await freePort());
    shell = new Shell(clone, { PATH: process.env.PATH ?? '', HOME: work, NO_COLOR: '1' });

    const steps: Step[] = [];
    for (const line of lines.slice(1)) {
      // The one change to the text: the port, as the README's 8080 may be in use here.
      const step = await shell.run(line.replaceAll('8080', port));
      steps.push(step);
      expect(step.code, `${step.line}\n${step.output}`).toBe(0);
    }
    const last = steps.filter((step) => step.line.includes('--detailed-exitcode')).at(-1);
    expect(last?.output).toContain('No changes');
    // What apply wrote stays out of git.
    expect(existsSync(join(clone, 'config-examples', '.wsync', 'inventory.json'))).toBe(true);
    expect(git(clone, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('reads the block from the README: a line changed there is a line changed here', () => {
    const readme = '# x\n\n## Quick start\n\n```sh\nnpm ci && npm run build   # deps\n# a comment\nwsync plan a \\\n  --detailed-exitcode\n```\n\n## Next\n';
    expect(quickStartBlock(readme)).toEqual(['npm ci && npm run build   # deps', 'wsync plan a --detailed-exitcode']);
    expect(() => quickStartBlock('# no quick start\n')).toThrow(/no "## Quick start" section/);
  });
});
