// One writer per workspace (#17.9). Each wsync that writes marks the workspace with a lease: an RBAC
// group named WRITER_LEASE_GROUP, with no members and no roles (it grants nothing), whose
// description holds the writer's id (one per state directory), host, state directory and the time
// the lease ends. A writer renews its lease while it runs; another writer (another state
// directory, so another inventory) is refused while the lease runs, instead of adopting everything
// the first one owns. An expired lease is taken over with a warning (a moved state directory, a
// writer that died). A second daemon is caught by this, not a race of two starting in the same
// second: both may then be refused, and one of them wins the next reconcile.
import { ApiError } from '../api/errors.js';
import type { ApiClient } from '../api/types.js';
import { safeText } from '../core/safe-text.js';
import type { JsonObject, JsonValue } from '../core/types.js';
import { GROUPS_PATH, WRITER_LEASE_GROUP } from '../core/writer-lease-record.js';
import { encodeSegment } from '../kinds/common.js';

/**
 * Without a lease, an apply of a new inventory that adopts at least this many objects is warned
 * about: they may be another wsync's (docs/deploy.md "Without the RBAC add-on").
 */
export const UNLEASED_ADOPTION_WARNING = 5;

/** How long a lease lasts unless renewed; a writer renews it once a quarter of it has passed. */
export const DEFAULT_WRITER_LEASE_MS = 5 * 60_000;
const PREFIX =
  'Marks the wsync that writes this workspace, so that a second one with another state directory is refused; ' +
  'do not edit or delete (it grants nothing). Lease: ';

/** Who writes, as the lease records it. */
export interface Writer {
  /** Stable per state directory (STATE_DIR/writer-id). */
  id: string;
  host: string;
  stateDir: string;
}

export interface LeaseRecord extends Writer {
  /** ISO time the lease ends unless renewed. */
  expiresAt: string;
}

export interface LeaseGroup {
  id: string;
  /** Undefined when the description is not a lease this wsync can read. */
  record: LeaseRecord | undefined;
}

export type LeaseDecision =
  | { action: 'create' }
  | { action: 'renew'; groupId: string }
  | { action: 'take-over'; groupId: string; previous: LeaseRecord | undefined }
  | { action: 'refuse'; holder: LeaseRecord };

/** Pure: what a writer does with the lease groups it found. */
export function decideLease(groups: readonly LeaseGroup[], writerId: string, nowMs: number): LeaseDecision {
  const active = groups
    .map((g) => g.record)
    .filter((r): r is LeaseRecord => r !== undefined && r.id !== writerId && Date.parse(r.expiresAt) > nowMs)
    .sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt));
  if (active[0] !== undefined) return { action: 'refuse', holder: active[0] };
  const ours = groups.find((g) => g.record?.id === writerId);
  if (ours) return { action: 'renew', groupId: ours.id };
  const first = groups[0];
  if (first) return { action: 'take-over', groupId: first.id, previous: first.record };
  return { action: 'create' };
}

export function leaseDescription(record: LeaseRecord): string {
  return `${PREFIX}${JSON.stringify(record)}`;
}

export function parseLease(description: JsonValue | undefined): LeaseRecord | undefined {
  if (typeof description !== 'string' || !description.startsWith(PREFIX)) return undefined;
  try {
    const value = JSON.parse(description.slice(PREFIX.length)) as Partial<LeaseRecord>;
    const { id, host, stateDir, expiresAt } = value;
    if ([id, host, stateDir, expiresAt].every((v) => typeof v === 'string') && !Number.isNaN(Date.parse(expiresAt as string))) {
      return { id: id as string, host: host as string, stateDir: stateDir as string, expiresAt: expiresAt as string };
    }
  } catch {
    // not ours to read
  }
  return undefined;
}

/** A lease as people read it (what it holds came from the API: escaped). */
function describe(record: LeaseRecord): string {
  return `writer ${safeText(record.id.slice(0, 8))} on ${safeText(record.host)}, state directory ${safeText(record.stateDir)}`;
}

/** Another wsync, with another state directory, holds the workspace's writer lease: nothing was written. */
export class WriterLeaseError extends Error {
  constructor(
    readonly holder: LeaseRecord,
    writer: Writer,
  ) {
    super(
      `the workspace is being written by another wsync (${describe(holder)}; its lease runs until ${safeText(holder.expiresAt)}), ` +
        `and this one uses state directory ${writer.stateDir}: two writers with different inventories would each adopt ` +
        'what the other owns, so nothing was written. Stop the other one (its lease then ends), or run this one with its state directory',
    );
    this.name = 'WriterLeaseError';
  }
}

export interface WriterLeaseOptions {
  leaseMs?: number;
  clock?: () => number;
  /** A lease taken over, or a token that cannot keep one. */
  warn: (message: string) => void;
}

export class WriterLease {
  readonly leaseMs: number;
  private readonly clock: () => number;
  private groupId: string | undefined;
  private renewedAt: number | undefined;
  /** The token cannot read or write groups: said once, then the lease is not kept. */
  private unsupported = false;

  constructor(
    /** The client to use now (the daemon makes a new one when its configuration is read again). */
    private readonly clientNow: () => ApiClient,
    readonly writer: Writer,
    private readonly options: WriterLeaseOptions,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_WRITER_LEASE_MS;
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Takes the lease, or renews it once a quarter of it has passed. Throws WriterLeaseError when
   * another writer holds it; ApiError when the API fails (nothing should be written then either).
   */
  async hold(): Promise<void> {
    if (this.unsupported) return;
    if (this.renewedAt !== undefined && this.clock() < this.renewedAt + this.leaseMs / 4) return;
    const groups = await this.list();
    if (groups === undefined) return;
    const decision = decideLease(groups, this.writer.id, this.clock());
    if (decision.action === 'refuse') {
      this.renewedAt = undefined;
      throw new WriterLeaseError(decision.holder, this.writer);
    }
    if (decision.action === 'renew') {
      await this.write(decision.groupId);
      return;
    }
    if (decision.action === 'take-over') {
      await this.write(decision.groupId);
      if (decision.previous !== undefined) {
        this.options.warn(
          `took over the workspace's writer lease from ${describe(decision.previous)}, which ended at ` +
            `${safeText(decision.previous.expiresAt)}: objects that wsync owns in its inventory are adopted into this one`,
        );
      }
    } else {
      await this.create();
    }
    // Another writer may have done the same at the same moment: both step back then.
    const again = await this.list();
    const after = again === undefined ? undefined : decideLease(again, this.writer.id, this.clock());
    if (after?.action === 'refuse') {
      await this.release();
      throw new WriterLeaseError(after.holder, this.writer);
    }
  }

  /**
   * After `hold`: when no lease could be kept (the token cannot read groups: no RBAC add-on),
   * nothing stops a second writer, which adopts every object the first made. A new inventory
   * (`owned()` 0) that is about to adopt `adopting` >= UNLEASED_ADOPTION_WARNING objects is how that
   * looks from the second writer's side: said loudly, before the write.
   */
  warnUnleasedAdoption(adopting: number, owned: () => number): void {
    if (!this.unsupported || adopting < UNLEASED_ADOPTION_WARNING || owned() > 0) return;
    this.options.warn(
      `ADOPTING ${adopting} OBJECTS WITHOUT A WRITER LEASE: this state directory (${safeText(this.writer.stateDir)}) is new, the ` +
        `${adopting} objects exist in the workspace and no inventory here made them, and no writer lease can be kept (no RBAC ` +
        'add-on, or a token without the rbac read capability). If another wsync writes this workspace with another state ' +
        'directory, both now own these objects and each writes over the other. If this is the only wsync, nothing to do; ' +
        'otherwise stop this one and run it with the other\'s state directory',
    );
  }

  /**
   * Throws WriterLeaseError when another writer holds the lease; writes nothing to the workspace
   * (export, before it records what it wrote as owned).
   */
  async check(): Promise<void> {
    const groups = await this.list();
    if (groups === undefined) return;
    const decision = decideLease(groups, this.writer.id, this.clock());
    if (decision.action === 'refuse') throw new WriterLeaseError(decision.holder, this.writer);
  }

  /**
   * Renews a lease this writer holds, if due (the daemon's timer): a lease found taken over is
   * reported and dropped, and the next reconcile is refused.
   */
  async renew(): Promise<void> {
    if (this.renewedAt === undefined) return;
    try {
      await this.hold();
    } catch (err) {
      if (!(err instanceof WriterLeaseError)) throw err;
      this.options.warn(`the workspace's writer lease was lost: ${err.message}`);
    }
  }

  /** Ends the lease now (the record stays, expired), so the next writer takes over without waiting. */
  async release(): Promise<void> {
    if (this.groupId === undefined || this.renewedAt === undefined) return;
    this.renewedAt = undefined;
    await this.clientNow().request({ method: 'PUT', path: `${GROUPS_PATH}/${encodeSegment(this.groupId)}`, body: this.body(this.clock()) });
  }

  private body(expiresAtMs: number): JsonObject {
    const record: LeaseRecord = { ...this.writer, expiresAt: new Date(expiresAtMs).toISOString() };
    return { name: WRITER_LEASE_GROUP, description: leaseDescription(record), members: [], roles: [] };
  }

  private async write(groupId: string): Promise<void> {
    const now = this.clock();
    try {
      await this.clientNow().request({ method: 'PUT', path: `${GROUPS_PATH}/${encodeSegment(groupId)}`, body: this.body(now + this.leaseMs) });
    } catch (err) {
      // Deleted between the list and the write (by hand): made again.
      if (err instanceof ApiError && err.status === 404) return this.create();
      throw err;
    }
    this.groupId = groupId;
    this.renewedAt = now;
  }

  /**
   * Creates the lease group. A POST whose fate is unknown (no answer, a 5xx) is not sent again
   * blindly: the groups are listed, and a lease of this writer found there is the one it made.
   */
  private async create(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const now = this.clock();
      try {
        const response = await this.clientNow().request<JsonObject>({ method: 'POST', path: GROUPS_PATH, body: this.body(now + this.leaseMs) });
        const id = response.body?.id;
        if (typeof id !== 'string' || id === '') throw new Error(`POST ${GROUPS_PATH}: the answer has no id`);
        this.groupId = id;
        this.renewedAt = now;
        return;
      } catch (err) {
        const unknown = err instanceof ApiError && ((err.noAnswer && !err.notSent) || err.maybeApplied);
        if (!unknown || attempt >= 3) throw err;
        const made = (await this.list())?.find((group) => group.record?.id === this.writer.id);
        if (made) {
          this.groupId = made.id;
          this.renewedAt = now;
          return;
        }
      }
    }
  }

  /** The lease groups, or undefined when this token cannot see groups (said once). */
  private async list(): Promise<LeaseGroup[] | undefined> {
    let body: JsonValue;
    try {
      body = (await this.clientNow().request({ method: 'GET', path: GROUPS_PATH })).body;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
        this.unsupported = true;
        this.options.warn(
          `the workspace cannot be marked as written by this wsync (${err.message}): a second wsync with another ` +
            'state directory would not be refused. Give the token the rbac read and create capabilities to have it checked',
        );
        return undefined;
      }
      throw err;
    }
    const items = Array.isArray(body) ? body : [];
    const out: LeaseGroup[] = [];
    for (const item of items) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      if (item.name !== WRITER_LEASE_GROUP || typeof item.id !== 'string') continue;
      out.push({ id: item.id, record: parseLease(item.description) });
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
