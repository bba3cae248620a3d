// action.yml and the workflows as files: every action pinned by commit, the workspace token in
// one step, nothing installed from a registry; and the Action's own shell steps run as written
// (bash, with the environment the runner would give them) against the emulator.
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectReport } from '../../src/action/report.js';
import { COMMENT_LIMIT, reportMarkdown } from '../../src/render/pr-comment.js';
import { useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE, ROOT } from '../support/paths.js';
import { copyExamples, useScratch } from '../support/tree.js';
import { DEMO_SECRETS } from '../support/workspace.js';

const run = promisify(execFile);
const root = ROOT;
const FILES = [
  'action.yml',
  '.github/workflows/ci.yml',
  '.github/workflows/release.yml',
  'config-examples/deploy/github/.github/workflows/wsync-plan.yaml',
];

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { runs: { steps: Step[] } };
const stepById = (id: string): Step => {
  const step = action.runs.steps.find((s) => s.id === id);
  if (!step) throw new Error(`no step ${id} in action.yml`);
  return step;
};

describe('workflow hygiene', () => {
  it.each(FILES)('%s is valid YAML and pins every action by commit SHA with its version in a comment', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    expect(() => parse(text, { strict: true, uniqueKeys: true })).not.toThrow();
    const lines = text.split('\n');
    const uses = lines.filter((line) => /^\s*(- )?uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) {
      const ref = /uses:\s*(\S+)/.exec(line)![1]!;
      if (ref === './' || ref === 'OWNER/wsync@TAG') continue;
      expect(line, file).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    }
  });

  it('the workspace token reaches only the plan step of the Action, and the example installs nothing from a registry', () => {
    const text = readFileSync(join(root, 'action.yml'), 'utf8');
    expect(text.match(/inputs\.token/g)).toHaveLength(1);
    expect(stepById('plan').env?.WSYNC_INPUT_TOKEN).toBe('${{ inputs.token }}');
    expect(text.match(/inputs\.github-token/g)).toHaveLength(1);
    expect(stepById('report').with?.['github-token']).toBe('${{ inputs.github-token }}');
    const example = readFileSync(join(root, FILES[3]!), 'utf8');
    expect(example).not.toMatch(/npm (install|i) |wsync@\d/);
    const workflow = parse(example) as { env?: Record<string, string>; jobs: Record<string, { env?: Record<string, string> }> };
    // No secret in the workflow's or job's environment, where every step would see it.
    expect(JSON.stringify(workflow.env ?? {})).not.toContain('secrets.');
    for (const job of Object.values(workflow.jobs)) expect(JSON.stringify(job.env ?? {})).not.toContain('secrets.');
  });
});

describe("the Action's validate and plan steps, as written", () => {
  const emulator = useTestEmulator({ seedFile: DEMO_SEED_FILE });
  const scratch = useScratch('wsync-action-steps-');
  let tree: string;
  let temp: string;
  let bin: string;

  beforeAll(async () => {
    tree = await copyExamples(await scratch.dir());
    temp = await scratch.dir();
    bin = join(temp, 'wsync-bin');
    mkdirSync(bin);
    mkdirSync(join(temp, 'wsync'));
    // What the install step does: the checkout's bin/wsync.js as `wsync`.
    symlinkSync(join(root, 'bin', 'wsync.js'), join(bin, 'wsync'));
  });

  /** Runs a step's script with bash; returns what it wrote to $GITHUB_OUTPUT and printed. */
  async function step(id: string, env: Record<string, string>): Promise<{ outputs: Record<string, string>; stdout: string }> {
    const output = join(temp, `output-${id}-${Math.random().toString(36).slice(2)}`);
    const result = await run('bash', ['-e', '-c', stepById(id).run!], {
      env: {
        PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
        HOME: temp,
        RUNNER_TEMP: temp,
        GITHUB_OUTPUT: output,
        ...DEMO_SECRETS,
        ...env,
      },
    });
    const outputs = Object.fromEntries(
      readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return { outputs, stdout: result.stdout };
  }

  const planEnv = (extra: Record<string, string>): Record<string, string> => ({
    WSYNC_DIR: tree,
    WSYNC_PLAN_BASE: '',
    WSYNC_PLAN_FORMAT: 'markdown',
    WSYNC_PLAN_ARGS: '',
    WSYNC_INPUT_URL: emulator.url,
    WSYNC_INPUT_ORG_ID: '',
    WSYNC_FROM_FORK: 'false',
    WSYNC_INPUT_TOKEN: emulator.env.WSYNC_TOKEN!,
    ...extra,
  });

  it('validate records its exit code and output', async () => {
    const { outputs } = await step('validate', { WSYNC_DIR: tree });
    expect(outputs).toEqual({ exitcode: '0' });
    expect(readFileSync(join(temp, 'wsync', 'validate.txt'), 'utf8')).toMatch(/resources in \d+ files/);
  });

  it('validate in a fork\'s run (secrets empty) checks the references as written and passes', async () => {
    const empty = Object.fromEntries(Object.keys(DEMO_SECRETS).map((name) => [name, '']));
    expect((await step('validate', { WSYNC_DIR: tree, ...empty })).outputs).toEqual({ exitcode: '1' });
    expect((await step('validate', { WSYNC_DIR: tree, WSYNC_FROM_FORK: 'true', ...empty })).outputs).toEqual({ exitcode: '0' });
  });

  it('plan runs wsync plan against the workspace and records the file, exit code 2 and "planned"', async () => {
    const { outputs } = await step('plan', planEnv({}));
    expect(outputs).toEqual({ exitcode: '2', file: join(temp, 'wsync', 'plan.md'), status: 'planned' });
    expect(readFileSync(outputs.file!, 'utf8')).toContain('checkout-error-rate');
    expect(await emulator.writes()).toEqual([]);
  });

  it('plan passes the extra arguments, and a bad one is "failed" with the error kept', async () => {
    const { outputs } = await step('plan', planEnv({ WSYNC_PLAN_ARGS: '--no-such-flag', WSYNC_PLAN_FORMAT: 'json' }));
    expect(outputs.status).toBe('failed');
    expect(outputs.exitcode).not.toBe('0');
    expect(readFileSync(join(temp, 'wsync', 'plan.err'), 'utf8')).toContain('no-such-flag');
  });

  it('from a fork, or without a token, plan is skipped with the reason, not failed', async () => {
    const fork = await step('plan', planEnv({ WSYNC_FROM_FORK: 'true', WSYNC_INPUT_TOKEN: '' }));
    expect(fork.outputs).toEqual({ status: 'skipped', reason: 'plan skipped: no access to the workspace from a fork' });
    expect(fork.stdout).toContain('::notice title=wsync::plan skipped: no access to the workspace from a fork');
    const tokenless = await step('plan', planEnv({ WSYNC_INPUT_TOKEN: '' }));
    expect(tokenless.outputs.status).toBe('skipped');
    expect(tokenless.outputs.reason).toContain('no token');
  });

  it('with environments: one plan per environment, each with its own URL and token, in one report with a section each; a failing one says so', async () => {
    const envTree = scratch.tree({
      'wsync.yaml': 'environments:\n  staging:\n    vars: { team: checkout-staging }\n  prod:\n    vars: { team: checkout }\n',
      'notifiers.yaml': 'apiVersion: wsync/v1\nkind: Notifier\nmetadata:\n  name: team-email\nspec:\n  properties:\n    email:\n      emails: ["${var:team}@example.com"]\n',
    });
    const { outputs, stdout } = await step(
      'plan',
      planEnv({
        WSYNC_DIR: envTree,
        WSYNC_INPUT_TOKEN: '',
        WSYNC_ENVIRONMENTS: 'staging, prod',
        // prod's server is not there: its plan fails, staging's stands.
        WSYNC_INPUT_ENV_URLS: `staging=${emulator.url}\n  prod=http://127.0.0.1:1`,
        WSYNC_INPUT_ENV_TOKENS: `staging=${emulator.env.WSYNC_TOKEN!}\nprod=${emulator.env.WSYNC_TOKEN!}`,
        WSYNC_PLAN_ARGS: '--timeout 2000',
      }),
    );
    expect(outputs).toMatchObject({ status: 'failed', exitcode: '1', 'environments-file': join(temp, 'wsync', 'environments.tsv') });
    expect(stdout).toContain('::group::wsync plan --env staging (exit 2)');
    expect(stdout).not.toContain(emulator.env.WSYNC_TOKEN!);
    const report = collectReport({
      env: { RUNNER_TEMP: temp, VALIDATE_EXIT: '0', PLAN_STATUS: outputs.status, WSYNC_PLAN_FORMAT: 'markdown', WSYNC_ENVIRONMENTS_FILE: outputs['environments-file'] },
      context: { eventName: 'pull_request', sha: 'abc', repo: { owner: 'o', repo: 'r' }, issue: { number: 1 }, payload: {} },
      fs: { existsSync, readFileSync: (path: string) => readFileSync(path, 'utf8'), writeFileSync, appendFileSync },
    });
    const markdown = reportMarkdown(report, { limit: COMMENT_LIMIT });
    expect(markdown).toMatch(/^### :x: wsync plan, 2 environments: failed in prod; changes in staging \(abc\)\n/);
    expect(markdown).toContain('#### Environment staging: changes');
    expect(markdown).toContain('team-email');
    expect(markdown).toMatch(/#### Environment prod: :x: plan failed\n\n```\n[^`]*127\.0\.0\.1:1/);
    expect(await emulator.writes()).toEqual([]);
  });
});
