// The log behind GET /_emulator/requests: method, path (with query), status (0 when the connection
// was destroyed) and time of every /v2 request, so tests can count writes.
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  at: string;
}

/** Oldest entries are dropped past this many, so a long benchmark cannot exhaust memory. */
const MAX_ENTRIES = 100_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  record(method: string, path: string, at: string): RequestLogEntry {
    const entry: RequestLogEntry = { method, path, status: 0, at };
    this.entries.push(entry);
    if (this.entries.length > 2 * MAX_ENTRIES) this.entries = this.entries.slice(-MAX_ENTRIES);
    return entry;
  }

  list(): readonly RequestLogEntry[] {
    return this.entries.length > MAX_ENTRIES ? this.entries.slice(-MAX_ENTRIES) : this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
