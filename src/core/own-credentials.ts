// wsync's own credentials (the API token, the control token, the notification keys and URLs), as
// the commands read them: `${env:}` and `${file:}` must never copy one into an object, whose
// notifier or webhook may send it anywhere (src/source/interpolate/interpolate.ts checks against this list).

export interface OwnCredential {
  /** What it is, for messages (never its value): "the API token". */
  what: string;
  /** The file it is read from, when it is one. */
  path?: string;
  /** Its current value ('' when it cannot be had). */
  value: () => string;
}

/** One entry per credential: a re-read configuration (SIGHUP) replaces the earlier one. */
const registered = new Map<string, OwnCredential>();

/** Called where a command reads one of its credentials (src/api/token-source.ts). */
export function registerOwnCredential(credential: OwnCredential): void {
  registered.set(credential.what, credential);
}

/**
 * Forgets them all: a run of the CLI starts with none (src/cli/main.ts), also when tests run one
 * after another in their own process.
 */
export function forgetOwnCredentials(): void {
  registered.clear();
}

/** Every credential this process has read so far. */
export function registeredOwnCredentials(): OwnCredential[] {
  return [...registered.values()];
}
