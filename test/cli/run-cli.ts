import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/package-root.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`node bin/wsync.js ...`, loading dist/) with a controlled environment. */
export function runCli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  const root = packageRoot();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'wsync.js'), ...args], {
      cwd: cwd ?? root,
      // Only what Node needs, so no WSYNC_* of the machine running the tests leaks in.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
