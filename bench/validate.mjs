// `npm run bench -- validate`: wall time and peak memory of `wsync validate` as a whole process
// (Node start-up included) over 10,000 resources in 500 files.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, runWsync } from './lib/measure.mjs';

const RESOURCES = 10_000;
const FILES = 500;
const RUNS = 3;
const TARGET_MS = 2000;
const TARGET_MB = 250;

const SECRET_ENV = { BENCH_SLACK_URL: 'https://hooks.slack.example/services/T000/B000/XXXX', BENCH_PD_KEY: 'pd-routing-key-0000' };

/** A realistic mix: mostly monitors and fields, some users and queries, few notifiers and roles. */
const MIX = [
  ['Monitor', 40],
  ['VirtualField', 12],
  ['DatasetField', 12],
  ['StarredQuery', 10],
  ['User', 10],
  ['Annotation', 6],
  ['Notifier', 5],
  ['ApiToken', 2],
  ['Role', 2],
  ['Org', 1],
];

function document(kind, i, counts) {
  const notifier = `notifier-${i % counts.Notifier}`;
  const role = `role-${i % counts.Role}`;
  const user = `user-${i % counts.User}@example.com`;
  const dataset = `dataset-${i % 40}`;
  switch (kind) {
    case 'Notifier':
      return i % 2 === 0
        ? `kind: Notifier\nmetadata:\n  name: notifier-${i}\nspec:\n  properties:\n    slack:\n      slackUrl: \${env:BENCH_SLACK_URL}\n`
        : `kind: Notifier\nmetadata:\n  name: notifier-${i}\nspec:\n  properties:\n    pagerduty:\n      routingKey: \${env:BENCH_PD_KEY}\n`;
    case 'Monitor':
      return [
        'kind: Monitor',
        'metadata:',
        `  name: monitor-${i}`,
        '  annotations:',
        '    wsync/prune: disabled',
        'spec:',
        '  type: Threshold',
        `  description: Errors of service ${i} above the line.`,
        `  aplQuery: "['${dataset}'] | where status >= 500 | summarize count() by bin_auto(_time)"`,
        '  operator: Above',
        `  threshold: ${i % 100}`,
        '  intervalMinutes: 5',
        '  rangeMinutes: 10',
        '  alertOnNoData: false',
        `  notifiers: [${notifier}, notifier-${(i + 1) % counts.Notifier}]`,
        '',
      ].join('\n');
    case 'VirtualField':
      return `kind: VirtualField\nmetadata:\n  name: vfield_${i}\nspec:\n  dataset: ${dataset}\n  expression: "duration_ms / 1000"\n  description: Duration in seconds.\n  type: float\n  unit: s\n`;
    case 'DatasetField':
      return `kind: DatasetField\nmetadata:\n  name: field_${i}\nspec:\n  dataset: ${dataset}\n  description: A field from ingest.\n  unit: ms\n  hidden: false\n`;
    case 'StarredQuery':
      return `kind: StarredQuery\nmetadata:\n  name: Query ${i}\nspec:\n  owner: ${user}\n  dataset: ${dataset}\n  query:\n    apl: "['${dataset}'] | summarize count() by path"\n    queryOptions:\n      priority: low\n`;
    case 'User':
      return `kind: User\nmetadata:\n  name: user-${i}@example.com\nspec:\n  name: User ${i}\n  role: ${i % 3 === 0 ? 'user' : role}\n`;
    case 'Annotation':
      return `kind: Annotation\nmetadata:\n  name: Deploy ${i}\nspec:\n  type: production-deployment\n  datasets: [${dataset}]\n  time: "2026-11-02T09:30:00Z"\n  url: https://example.com/deploys/${i}\n`;
    case 'ApiToken':
      return `kind: ApiToken\nmetadata:\n  name: token-${i}\nspec:\n  description: CI token ${i}\n  orgCapabilities:\n    annotations: [create, read]\n  datasetCapabilities:\n    ${dataset}:\n      ingest: [create]\n`;
    case 'Role':
      return `kind: Role\nmetadata:\n  name: role-${i}\nspec:\n  description: Role ${i}\n  members: [${user}]\n  orgCapabilities:\n    monitors: [create, read, update, delete]\n  datasetCapabilities:\n    "*":\n      query: [read]\n`;
    case 'Org':
      return `kind: Org\nmetadata:\n  name: org-${i}\n`;
    default:
      throw new Error(kind);
  }
}

/** Writes the tree; names are numbered per kind so references resolve (notifier-3, role-1, ...). */
export async function generateTree(dir, resources = RESOURCES, files = FILES) {
  const total = MIX.reduce((sum, [, weight]) => sum + weight, 0);
  const plan = [];
  for (const [kind, weight] of MIX) {
    const n = Math.max(1, Math.round((resources * weight) / total));
    for (let i = 0; i < n; i++) plan.push([kind, i]);
  }
  plan.length = Math.min(plan.length, resources);
  const counts = Object.fromEntries(MIX.map(([kind]) => [kind, plan.filter(([k]) => k === kind).length]));
  const perFile = Math.ceil(plan.length / files);
  for (let f = 0; f < files; f++) {
    const docs = plan.slice(f * perFile, (f + 1) * perFile);
    if (docs.length === 0) break;
    const folder = join(dir, `team-${f % 25}`);
    await mkdir(folder, { recursive: true });
    const text = docs
      .map(([kind, i]) => `# yaml-language-server: $schema=../schemas/${kind.toLowerCase()}.json\napiVersion: wsync/v1\n${document(kind, i, counts)}`)
      .join('---\n');
    await writeFile(join(folder, `resources-${String(f).padStart(3, '0')}.yaml`), text);
  }
  return plan.length;
}

/** Runs `wsync validate DIR` as a whole process; wall time includes Node start-up. */
async function runOnce(root, dir) {
  const run = await runWsync(root, ['validate', dir], SECRET_ENV);
  if (run.code !== 0) throw new Error(`wsync validate exited ${run.code}: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}`);
  return run;
}

export default async function bench({ root }) {
  const dir = await mkdtemp(join(tmpdir(), 'wsync-bench-validate-'));
  try {
    const count = await generateTree(dir);
    await runOnce(root, dir); // warm the file cache: the first read of a fresh tree measures the disk
    // Other work on the machine shows in wall time; the load says how much there was.
    const load = loadavg()[0];
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await runOnce(root, dir));
    const wall = runs.map((r) => r.wallMs);
    const rss = Math.max(...runs.map((r) => r.maxRssMb));
    const label = `validate ${count} resources in ${FILES} files`;
    return {
      rows: [
        { name: `${label}: wall time, median of ${RUNS}`, value: Math.round(median(wall)), unit: 'ms', target: `< ${TARGET_MS}`, ok: median(wall) < TARGET_MS },
        { name: `${label}: wall time, best of ${RUNS}`, value: Math.round(Math.min(...wall)), unit: 'ms', target: `< ${TARGET_MS}`, ok: Math.min(...wall) < TARGET_MS },
        { name: `${label}: peak RSS, max of ${RUNS}`, value: Math.round(rss), unit: 'MB', target: `< ${TARGET_MB}`, ok: rss < TARGET_MB },
        { name: 'load average (1 min) when the runs started', value: Math.round(load * 100) / 100, unit: '' },
      ],
      summary: runs[0].stdout.trim().split('\n').pop(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// `node bench/validate.mjs` runs it alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const result = await bench({ root, dist: join(root, 'dist') });
  for (const row of result.rows) console.log(`${row.ok ? 'ok  ' : 'FAIL'} ${row.name}: ${row.value} ${row.unit} (target ${row.target})`);
  console.log(result.summary);
}
