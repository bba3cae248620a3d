import { configDefaults, defineConfig } from 'vitest/config';

// Files that need a module registry of their own: they mock modules, spy on or stub globals, fake
// timers, or start processes (*.e2e.test.ts, where a fresh registry costs little next to the
// processes). Every other file shares its worker's loaded modules with the files run before it,
// so src/ (and the CLI that runCli runs in process) is loaded once per worker, not once per file;
// test/support/cli.ts checks that a run leaves no process-wide state behind for the next file.
const ISOLATED = [
  'test/**/*.e2e.test.ts',
  'test/api/client.test.ts',
  // Asserts on the process-wide registry of own credentials, which tests calling the layers directly fill.
  'test/core/own-credentials.test.ts',
  'test/apply/replace.test.ts',
  'test/emulator/auth.test.ts',
  'test/emulator/behaviour.test.ts',
  'test/emulator/faults.test.ts',
  'test/plan/deletion-opt-in.test.ts',
  'test/source/read/files-vanish.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Forks, not threads: runCli changes the working directory for a run with `cwd`, which a
    // worker thread cannot.
    pool: 'forks',
    // Vitest's default on 2 cores is one worker; the end-to-end files mostly wait (for a daemon's
    // debounce, an emulator's latency), so a third worker fills the cores while they do.
    maxWorkers: 3,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
