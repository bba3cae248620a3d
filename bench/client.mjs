// Client pacing benchmark: 60 creates against an emulator limited to 25 requests a second, four at
// a time. The pacing must cost little beyond the (60 / 25) s the limit imposes (target: at most
// 0.8 s more) and draw no 429. test/api/emulator.test.ts proves the pacing is correct; this is
// the speed claim that used to be a timed assertion there.
//
//   node bench/client.mjs            (after npm run build)
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOKEN = 'bench-admin-token';
const RATE = 25;
const TOTAL = 60;
const WORKERS = 4;
const SLACK_MS = 800;

export default async function bench({ dist }) {
  const { startEmulator } = await import(pathToFileURL(path.join(dist, 'emulator/index.js')).href);
  const { createApiClient } = await import(pathToFileURL(path.join(dist, 'api/client.js')).href);
  const emulator = await startEmulator({ port: 0, token: TOKEN, rateLimit: RATE, rateWindowSeconds: 1, seed: 1 });
  const client = createApiClient({ url: emulator.url, token: () => TOKEN });
  try {
    let next = 0;
    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        await client.request({
          method: 'POST',
          path: '/v2/notifiers',
          body: { name: `bench-${i}`, properties: { email: { emails: ['bench@example.com'] } } },
        });
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: WORKERS }, worker));
    const ms = performance.now() - started;
    const floor = (TOTAL / RATE) * 1000;
    return {
      rows: [
        {
          name: `client: ${TOTAL} creates at ${RATE}/s, ${WORKERS} at a time (time beyond ${floor} ms)`,
          value: Math.round(ms - floor),
          unit: 'ms',
          target: `<= ${SLACK_MS}`,
          ok: ms - floor <= SLACK_MS,
        },
        {
          name: 'client: requests refused with 429 while pacing',
          value: client.stats.rateLimited,
          unit: '',
          target: '0',
          ok: client.stats.rateLimited === 0,
        },
      ],
    };
  } finally {
    await client.close();
    await emulator.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
  const { rows } = await bench({ dist });
  for (const row of rows) console.log(`${row.ok ? 'ok  ' : 'FAIL'} ${row.name}: ${row.value} ${row.unit} (target ${row.target})`);
  process.exitCode = rows.every((row) => row.ok) ? 0 : 1;
}
