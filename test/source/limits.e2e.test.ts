// Inputs within the tree's limits (8 MiB, 15,000 documents) that once exhausted memory, each run
// as a process with the heap the shipped Kubernetes example gives node: each must end with an
// error naming the file and line, or with its plan, not with an aborted process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli, type CliResult } from '../support/cli.js';
import { useTestEmulator } from '../support/emulator.js';
import { EXAMPLES_DIR, ROOT } from '../support/paths.js';
import { useScratch, type Files } from '../support/tree.js';

type Container = { name: string; env?: { name: string; value?: string }[]; resources?: { limits?: { memory?: string } } };

/** The wsync container of the Kubernetes example. */
function wsyncContainer(): Container {
  const text = readFileSync(join(EXAMPLES_DIR, 'deploy', 'kubernetes', 'wsync.yaml'), 'utf8');
  for (const doc of parseAllDocuments(text)) {
    const value = doc.toJS() as { kind?: string; spec?: { template?: { spec?: { containers?: unknown[] } } } } | null;
    if (value?.kind !== 'Deployment') continue;
    const container = ((value.spec?.template?.spec?.containers ?? []) as Container[]).find((c) => c.name === 'wsync');
    if (container) return container;
  }
  throw new Error('no wsync container in the Kubernetes example');
}

/** The container's memory limit and the heap the example gives node through NODE_OPTIONS, in MiB. */
/** The container's memory limit, and the node flags its NODE_OPTIONS gives (the heap among them). */
function podMemory(): { limitMiB: number; nodeFlags: string[] } {
  const container = wsyncContainer();
  const limit = /^(\d+)Mi$/.exec(container.resources?.limits?.memory ?? '');
  const nodeFlags = (container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '').split(/\s+/).filter((flag) => flag !== '');
  if (!limit || !nodeFlags.some((flag) => /^--max-old-space-size=\d+$/.test(flag))) {
    throw new Error('the wsync container sets no memory limit or no --max-old-space-size');
  }
  return { limitMiB: Number(limit[1]), nodeFlags };
}

const POD = podMemory();
/** Node as the pod runs it: its heap and young generation (NODE_OPTIONS). */
const HEAP = POD.nodeFlags;
/** Preloaded into a process: writes its peak RSS in bytes (and CPU time) to WSYNC_BENCH_RSS_FILE at exit. */
const REPORT_RSS = ['--import', pathToFileURL(join(ROOT, 'bench', 'lib', 'report-rss.mjs')).href];
const scratch = useScratch('wsync-limits-');

function treeOf(files: Files): string {
  return scratch.tree(files);
}

/** The run ended by itself (no abort), refused the tree (exit 1) and said `line`. */
function expectRefused(run: CliResult, line: string): void {
  expect(run.signal, run.stderr.slice(-2000)).toBeNull();
  expect(run.stderr).not.toContain('heap out of memory');
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).toContain(line);
}

describe('the tree limits bound memory (under the pod heap)', () => {
  it('refuses 1 MB of nested [ at the line and column past the depth limit', async () => {
    const dir = treeOf({ 'deep.yaml': '['.repeat(1_000_000) });
    expectRefused(await runCli(['validate', dir], { nodeArgs: HEAP }), 'deep.yaml:1:66: nested deeper than 64 levels');
  });

  it('refuses a block mapping nested 1,000 deep with a depth error, not a stack overflow', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i)}k${i}:`);
    const dir = treeOf({ 'deep.yaml': `${lines.join('\n')} 1\n` });
    const run = await runCli(['validate', dir], { nodeArgs: HEAP });
    expectRefused(run, 'deep.yaml:66:66: nested deeper than 64 levels');
    expect(run.stdout).not.toContain('call stack');
  });

  it('counts every document toward the limit before parsing: 900,000 documents that are not resources', async () => {
    const dir = treeOf({ 'many.yaml': 'a: 1\n---\n'.repeat(900_000) });
    expectRefused(
      await runCli(['validate', dir], { nodeArgs: HEAP }),
      'many.yaml:1:1: the files declare more than 15000 resources: reading stopped here, before the rest could exhaust memory (every YAML document counts, a resource or not)',
    );
  });

  it('refuses one document of a million values before the exact reader builds it', async () => {
    // A tab in the indentation sends the file to the exact (`yaml`) reader.
    const dir = treeOf({ 'flat.yaml': `k:\n\t- 0\n${'- 1\n'.repeat(1_000_000)}` });
    expectRefused(await runCli(['validate', dir], { nodeArgs: HEAP }), 'flat.yaml:99999:3: more than 100000 values in one file');
  });

  describe('with the API', () => {
    const emulator = useTestEmulator();

    /** Notifiers of `headers` custom webhook headers each: every header value is a secret. */
    function notifierFiles(count: number, headers: number): Files {
      const files: Files = {};
      for (let n = 0; n < count; n++) {
        const lines = ['apiVersion: wsync/v1', 'kind: Notifier', 'metadata:', `  name: wide-${n}`, 'spec:', '  properties:', '    customWebhook:'];
        lines.push('      url: https://hooks.example.com/x', '      body: "{{.AlertName}}"', '      headers:');
        for (let h = 0; h < headers; h++) lines.push(`        h${h}: v`);
        files[`n${n}.yaml`] = `${lines.join('\n')}\n`;
      }
      return files;
    }

    it('refuses a tree of more secret values than the limit at the file and line, before the API: 14 notifiers of 30,000 headers', async () => {
      // 7.4 MB, within the byte limit; planned, it once took minutes and then more than the pod's heap.
      const dir = treeOf(notifierFiles(14, 30_000));
      const run = await runCli(['plan', dir, '--format', 'json', '--state-dir', join(dir, '.state')], { nodeArgs: HEAP, env: emulator.env });
      expectRefused(run, 'n0.yaml:28010:9: Notifier/wide-0: spec.properties.customWebhook.headers.h27999: the files hold more than 20000 secret values');
      expect(run.stderr).toContain('nothing was read from the API');
    });

    it('plans in every format and applies a tree at the secret value limit: 4 notifiers of 4,999 headers and a URL', async () => {
      const dir = treeOf(notifierFiles(4, 4_999));
      const state = ['--state-dir', join(dir, '.state')];
      for (const format of ['json', 'text', 'markdown']) {
        const plan = await runCli(['plan', dir, '--format', format, ...state], { nodeArgs: HEAP, env: emulator.env });
        expect(plan.signal, plan.stderr.slice(-2000)).toBeNull();
        expect(plan.code, plan.stderr.slice(-2000)).toBe(0);
        expect(plan.stdout).toContain('wide-3');
        expect(plan.stdout).not.toMatch(/"v"|: v$/m);
      }
      const apply = await runCli(['apply', dir, ...state], { nodeArgs: HEAP, env: emulator.env });
      expect(apply.code, apply.stderr.slice(-2000)).toBe(0);
      expect(apply.stdout).toContain('4 created');
      const again = await runCli(['plan', dir, '--detailed-exitcode', ...state], { nodeArgs: HEAP, env: emulator.env });
      expect(again.code, again.stdout.slice(-2000)).toBe(0);
    });

    it('plans a tree of 518,000 plain values in 14 dashboards (7.5 MB, within the byte limit)', async () => {
      // Every field of a create is a field of the plan: the largest plan the limits allow.
      const files: Files = {};
      for (let d = 0; d < 14; d++) {
        const extra = Object.fromEntries(Array.from({ length: 37_000 }, (_, i) => [`k${i}`, i]));
        const document = { name: `Wide ${d}`, owner: 'X-AXIOM-EVERYONE', charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: 'qr-now-1h', timeWindowEnd: 'qr-now', extra };
        files[`d${d}.json`] = JSON.stringify(document);
        files[`d${d}.yaml`] = `apiVersion: wsync/v1\nkind: Dashboard\nmetadata:\n  name: wide-${d}\nspec:\n  file: d${d}.json\n`;
      }
      const dir = treeOf(files);
      const [rssFile, planFile] = [join(dir, '.rss'), join(dir, '.plan.json')];
      // The text on stdout, the JSON into a file (as CI keeps it): both renderings in one process.
      const plan = await runCli(['plan', dir, '--out', planFile, '--state-dir', join(dir, '.state')], {
        nodeArgs: [...HEAP, ...REPORT_RSS],
        env: { ...emulator.env, WSYNC_BENCH_RSS_FILE: rssFile },
      });
      expect(plan.signal, plan.stderr.slice(-2000)).toBeNull();
      expect(plan.stderr).not.toContain('heap out of memory');
      expect(plan.code, plan.stderr.slice(-2000)).toBe(0);
      expect(plan.stdout).toContain('extra.k36999: 36999');
      const changes = (JSON.parse(readFileSync(planFile, 'utf8')) as { changes: { action: string; diffs: unknown[] }[] }).changes;
      expect(changes).toHaveLength(14);
      for (const change of changes) {
        expect(change.action).toBe('create');
        expect(change.diffs.length).toBeGreaterThan(37_000);
      }
      // The heap is not the process: code and buffers come on top, and the container is killed at its limit.
      const peakRss = Number(readFileSync(rssFile, 'utf8').split(' ')[0]);
      expect(peakRss).toBeLessThan(POD.limitMiB * 1024 * 1024);
    });

    it('counts the bytes an alias expands to: a 4 MiB string repeated by 90 aliases is refused, not planned', async () => {
      const headers = Array.from({ length: 90 }, (_, i) => `          h${i}: *big`).join('\n');
      const notifier = [
        'apiVersion: wsync/v1',
        'kind: Notifier',
        'metadata:',
        '  name: amplified',
        'spec:',
        '  properties:',
        '    customWebhook:',
        '      url: https://hooks.example.com/x',
        `      body: &big "${'x'.repeat(4 * 1024 * 1024)}"`,
        '      headers:',
        headers,
        '',
      ].join('\n');
      const dir = treeOf({ 'notifier.yaml': notifier });
      const run = await runCli(['plan', dir, '--format', 'json', '--state-dir', join(dir, '.state')], {
        nodeArgs: HEAP,
        env: emulator.env,
      });
      expectRefused(run, 'notifier.yaml:11:15: Notifier/amplified: aliases expand to more than 1048576 bytes');
      expect(run.stderr).toContain('nothing was read from the API');
      expect(run.stdout.length).toBeLessThan(10_000);
    });
  });
});
