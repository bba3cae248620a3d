// `npm run demo`: the emulator on a free loopback port, then `wsync plan`, `wsync apply` and
// `wsync plan` again of config-examples/, with obvious demo secrets. Plain Node on dist/ (npm run
// demo builds first). Exits non-zero when a step fails or the last plan still shows changes.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const TOKEN = 'wsync-demo-admin-token';
// Obvious fakes: the demo shows that secret values never reach the output, not real channels.
const DEMO_SECRETS = {
  WSYNC_SLACK_WEBHOOK_URL: 'https://hooks.slack.example/services/T000DEMO/B000DEMO/demo-not-a-real-secret',
  WSYNC_PAGERDUTY_ROUTING_KEY: 'demo-pagerduty-routing-key-not-real',
  WSYNC_INCIDENT_WEBHOOK_TOKEN: 'demo-incident-webhook-token-not-real',
};

const bold = (text) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${text}\x1b[0m` : text);
const say = (text = '') => process.stdout.write(`${text}\n`);

/** Runs `node bin/wsync.js ...args` with its output passed through; resolves with the exit code. */
function wsync(args, env) {
  say();
  say(bold(`$ wsync ${args.join(' ')}`));
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: the emulator answering it lives in this process.
    const child = spawn(process.execPath, [join(root, 'bin', 'wsync.js'), ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function main() {
  let startEmulator;
  try {
    ({ startEmulator } = await import(pathToFileURL(join(root, 'dist', 'emulator', 'index.js')).href));
  } catch (err) {
    throw new Error(`dist/ is missing or stale (${err.message}); run \`npm run build\` first, or use \`npm run demo\``);
  }
  // A bare workspace, as a team starting from git has: config-examples/ declares its own datasets.
  const emulator = await startEmulator({ port: 0, host: '127.0.0.1', token: TOKEN });
  const work = await mkdtemp(join(tmpdir(), 'wsync-demo-'));
  const stateDir = join(work, 'state');
  const stop = async () => {
    await emulator.close();
    if (!keep) await rm(work, { recursive: true, force: true });
  };
  const onSignal = () => {
    stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const env = {
    ...process.env,
    WSYNC_URL: emulator.url,
    WSYNC_TOKEN: TOKEN,
    ...DEMO_SECRETS,
  };
  for (const name of ['WSYNC_TOKEN_FILE', 'WSYNC_ORG_ID', 'WSYNC_SECRETS_DIR', 'WSYNC_INSECURE']) delete env[name];
  const dir = relative(root, join(root, 'config-examples'));
  const common = [dir, '--state-dir', stateDir];

  say(`Emulator listening on ${emulator.url} (in memory, an empty workspace).`);
  say(`State directory for this demo: ${stateDir}`);
  const steps = [];
  try {
    steps.push(['plan', await wsync(['plan', ...common], env)]);
    steps.push(['apply', await wsync(['apply', ...common], env)]);
    // --detailed-exitcode: 0 means "no changes", 2 means the plan still has some.
    steps.push(['plan again', await wsync(['plan', ...common, '--detailed-exitcode'], env)]);
    let owned = 0;
    try {
      owned = JSON.parse(await readFile(join(stateDir, 'inventory.json'), 'utf8')).entries.length;
    } catch {
      // Reported through the steps below.
    }

    say();
    const failed = steps.filter(([, code]) => code !== 0);
    if (failed.length > 0) {
      const last = steps[steps.length - 1];
      for (const [name, code] of failed) {
        say(`demo: ${name} exited ${code}${name === 'plan again' && code === 2 ? ' (the last plan still shows changes)' : ''}`);
      }
      if (last && last[1] === 2) say('demo: apply did not converge the workspace');
      return 1;
    }
    say(bold('Demo complete: plan, apply, and a second plan with no changes.'));
    say(`wsync owned ${owned} objects; the inventory and the API token's secret (mode 0600) were in ${stateDir}${keep ? ' (kept: --keep)' : ' (removed now)'}.`);
    say();
    say('Where to look next:');
    say('  - README.md "The file format": the YAML files, ${env:}/${file:} secrets, yaml-language-server schemas');
    say('  - README.md "Commands": validate, plan --out / apply --plan, export, schema');
    say('  - README.md "Safety": ownership, --prune, the delete budget, adoption');
    say('  - config-examples/: the files this demo applied; edit one and run the steps again:');
    say('      wsync emulator --port 8080 --token dev-token &');
    say('      export WSYNC_URL=http://127.0.0.1:8080 WSYNC_TOKEN=dev-token');
    say('      wsync plan config-examples && wsync apply config-examples');
    say('  - `wsync run config-examples`: the daemon that reconciles on every change and on a schedule');
    say('    (docs/deploy.md: as a sidecar next to git-sync)');
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stop();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
