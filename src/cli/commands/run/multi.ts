// `wsync run --env A --env B DIR` (or --all-environments): one daemon, one port, a workspace per environment.
import { ConfigError } from '../../../api/errors.js';
import { MultiDaemon } from '../../../daemon/multi/multi-daemon.js';
import type { DaemonConfig } from '../../../daemon/config.js';
import { policyFromFlags } from '../../policy.js';
import type { CommandIo } from '../../io.js';
import { daemonConfigOf, isStartError, runLogger, untilStopped } from './action.js';
import type { RunFlags } from './command.js';
import { modeOf, reloadedConfig, settingsFrom, type Settings } from './settings.js';
import { checkSuffixes, environmentView } from './workspaces.js';

interface Resolved {
  name: string;
  settings: Settings;
  config: (log: DaemonConfig['logger']) => DaemonConfig;
}

/** Every environment's settings, each checked before anything starts (a mistake in one refuses the start). */
async function resolveAll(dirArg: string, flags: RunFlags, io: CommandIo, environments: readonly string[]): Promise<Resolved[]> {
  checkSuffixes(environments);
  const policy = policyFromFlags(flags, modeOf(flags));
  const resolved: Resolved[] = [];
  for (const name of environments) {
    const view = environmentView(name, flags, io.env);
    let settings: Settings;
    try {
      settings = await settingsFrom(dirArg, view.flags, view.env, io.cwd);
    } catch (err) {
      if (err instanceof Error) err.message = `environment ${name}: ${err.message}`;
      throw err;
    }
    // One branch, one pull request: what several workspaces changed would be mixed into it.
    if (settings.writeBack !== undefined) throw new ConfigError('--write-back brings one workspace\'s changes into git: run one daemon per environment for it (docs/deploy.md)');
    resolved.push({
      name,
      settings,
      config: (log) => ({
        ...daemonConfigOf(settings, policy, log, view.env),
        // Its own variables, read again at SIGHUP (a rotated token file, a moved URL).
        reloadConfig: () => {
          const again = environmentView(name, flags, io.env);
          return reloadedConfig(settings.dir, again.flags, again.env);
        },
      }),
    });
  }
  return resolved;
}

/** Starts the daemon of several environments; the exit code once stopped by a signal. */
export async function runMultiDaemon(dirArg: string, flags: RunFlags, io: CommandIo, environments: readonly string[]): Promise<number> {
  let resolved: Resolved[];
  try {
    resolved = await resolveAll(dirArg, flags, io, environments);
  } catch (err) {
    if (isStartError(err)) {
      io.stderr.write(`run: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const first = resolved[0] as Resolved;
  const log = runLogger(first.settings, io, undefined);
  const starting = MultiDaemon.start({
    listen: first.settings.listen,
    workspaces: resolved.map((r) => ({ name: r.name, config: r.config(log.child({ env: r.name })) })),
    controlToken: first.settings.controlToken,
    statusAuth: first.settings.statusAuth,
    logger: log,
  }).catch((err: unknown) => {
    log.fatal({ err: err instanceof Error ? err.message : String(err) }, 'could not start');
    return null;
  });
  return untilStopped(starting, log, io);
}
