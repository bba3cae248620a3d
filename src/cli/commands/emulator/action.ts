// `wsync emulator`: a local Workspace API v2 server. Scripts rely on the first stdout line being
// `listening on http://HOST:PORT`; it serves until SIGTERM or SIGINT, then closes cleanly (flushing
// --state) and returns.
import { startEmulator } from '../../../emulator/index.js';
import type { EmulatorFlags } from './command.js';

export async function runEmulator(flags: EmulatorFlags): Promise<void> {
  const emulator = await startEmulator({
    port: flags.port,
    host: flags.host,
    token: flags.token,
    rateLimit: flags.rateLimit,
    rateWindowSeconds: flags.rateWindow,
    seed: flags.seed,
    faultRate: flags.faultRate,
    latencyMs: flags.latency,
    resetRate: flags.resetRate,
    dropAfterWriteRate: flags.dropAfterWriteRate,
    stateFile: flags.state,
    seedFile: flags.seedFile,
    logRequests: flags.logRequests,
    rbac: flags.rbac,
  });
  process.stdout.write(`listening on ${emulator.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await emulator.close();
}
