// Prints the plain closing line CI reads ("N passed, N failed") from vitest's JSON report; with
// --slowest N, first the N slowest test files and the sum of all files' durations (a figure that
// depends less on the machine's load than the wall time: files run side by side).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const slowestAt = args.indexOf('--slowest');
const slowest = slowestAt >= 0 ? Number(args.splice(slowestAt, 2)[1]) : 0;
const file = args[0] ?? 'test-results/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.log(`no test report at ${file}: ${err.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (slowest > 0) {
  const files = (report.testResults ?? [])
    .map((suite) => ({ name: relative(process.cwd(), suite.name), ms: (suite.endTime ?? 0) - (suite.startTime ?? 0) }))
    .sort((a, b) => b.ms - a.ms);
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`slowest ${Math.min(slowest, files.length)} of ${files.length} test files:`);
  for (const { name, ms } of files.slice(0, slowest)) console.log(`  ${seconds(ms).padStart(8)}  ${name}`);
  console.log(`sum of the files' durations: ${seconds(files.reduce((sum, f) => sum + f.ms, 0))}`);
}
let passed = report.numPassedTests ?? 0;
let failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// A test file that fails to load (syntax error, failing hook) has no test results of its own: count it.
for (const suite of report.testResults ?? []) {
  if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((a) => a.status === 'failed')) {
    failed += 1;
    console.log(`test file failed: ${suite.name}: ${String(suite.message ?? '').split('\n')[0]}`);
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
