// `wsync emulator`: a local Workspace API v2 server. Scripts rely on the first stdout line being
// `listening on http://HOST:PORT`; it serves until SIGTERM or SIGINT, then closes cleanly (flushing
// --state) and returns.
import { resolve } from 'node:path';
import { startEmulator } from '../../../emulator/index.js';
import type { CommandIo } from '../../io.js';
import { DEFAULT_TOKEN, type EmulatorFlags } from './command.js';

export async function runEmulator(flags: EmulatorFlags, io: CommandIo): Promise<void> {
  const emulator = await startEmulator({
    port: flags.port,
    host: flags.host,
    token: flags.token ?? io.env.WSYNC_EMULATOR_TOKEN ?? DEFAULT_TOKEN,
    rateLimit: flags.rateLimit,
    rateWindowSeconds: flags.rateWindow,
    seed: flags.seed,
    faultRate: flags.faultRate,
    latencyMs: flags.latency,
    resetRate: flags.resetRate,
    dropAfterWriteRate: flags.dropAfterWriteRate,
    stateFile: flags.state === undefined ? undefined : resolve(io.cwd, flags.state),
    seedFile: flags.seedFile === undefined ? undefined : resolve(io.cwd, flags.seedFile),
    logRequests: flags.logRequests,
    rbac: flags.rbac,
  });
  io.stdout.write(`listening on ${emulator.url}\n`);
  await new Promise<void>((stopped) => {
    const stop = (): void => {
      io.signals.off('SIGTERM', stop);
      io.signals.off('SIGINT', stop);
      stopped();
    };
    io.signals.on('SIGTERM', stop);
    io.signals.on('SIGINT', stop);
  });
  await emulator.close();
}
