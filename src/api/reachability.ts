// Whether the server can be reached at all. A run of failures to connect (refused, no such host,
// unreachable network, a certificate that is not accepted) says the server is gone: from then on
// requests fail at once, without sending anything, instead of each spending its whole retry budget.
// One request is let through every PROBE_AFTER_MS to find out whether it is back.

/** Failures before any byte of the request left: the server cannot be reached. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Consecutive failures to connect, with no answer in between, that mean the server is gone. */
export const FAIL_FAST_AFTER = 5;
/** While the server is gone, one request tries again after this long. */
export const PROBE_AFTER_MS = 5_000;

/** The TLS handshake refused the server's certificate (wrong name, expired, unknown issuer): nothing was sent. */
export function isCertificateError(code: string): boolean {
  return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|INVALID_CA|^ERR_TLS_/.test(code);
}

/** The connection could not be made: nothing of the request was sent. */
export function isConnectFailure(code: string): boolean {
  return UNREACHABLE_CODES.has(code) || isCertificateError(code);
}

/** What a connect failure means, in words: "connection refused", "no such host". */
export function connectFailureText(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
      return 'no such host (DNS)';
    case 'EAI_AGAIN':
      return 'the host name could not be resolved (DNS)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the network cannot reach the host';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'no connection could be made in time';
    default:
      return isCertificateError(code) ? "the server's TLS certificate was not accepted" : 'the connection failed';
  }
}

export class Reachability {
  private failures = 0;
  private lastCode = '';
  private goneSince: number | undefined;
  private lastTryAt = 0;
  private probing = false;

  constructor(private readonly clock: () => number = Date.now) {}

  /** An attempt got an answer (any status), or failed after connecting: the server is there. */
  reached(): void {
    this.failures = 0;
    this.goneSince = undefined;
    this.probing = false;
  }

  /** An attempt could not connect (`code` as isConnectFailure accepts). */
  failedToConnect(code: string): void {
    this.failures++;
    this.lastCode = code;
    this.lastTryAt = this.clock();
    this.probing = false;
    if (this.failures >= FAIL_FAST_AFTER) this.goneSince ??= this.lastTryAt;
  }

  /** The server is taken to be gone: no retries, no new requests but the probe. */
  get gone(): boolean {
    return this.goneSince !== undefined;
  }

  /** Why the server is taken to be gone, or undefined while it is not. */
  get reason(): string | undefined {
    if (this.goneSince === undefined) return undefined;
    return (
      `the server is unreachable: ${connectFailureText(this.lastCode)} (${this.lastCode}) ` +
      `${this.failures} times in a row since ${new Date(this.goneSince).toISOString()}`
    );
  }

  /**
   * Why a request may not start now, or undefined when it may: always while the server is
   * reachable; while it is gone, one request (the probe) every PROBE_AFTER_MS.
   */
  refusal(): string | undefined {
    if (this.goneSince === undefined) return undefined;
    if (!this.probing && this.clock() - this.lastTryAt >= PROBE_AFTER_MS) {
      this.probing = true;
      return undefined;
    }
    return this.reason;
  }
}
