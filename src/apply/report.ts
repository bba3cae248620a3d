// What apply tells as it goes: one event per change (and per follow-up write), the counts of the
// result, and no secret in any message.
import { createRedactor } from '../core/redact.js';
import type { ApplyEvent, ApplyResult } from './types.js';

type Counts = Pick<ApplyResult, 'created' | 'updated' | 'replaced' | 'deleted' | 'adopted' | 'abandoned' | 'failed' | 'skipped'>;

export class ApplyReport {
  readonly events: ApplyEvent[] = [];
  readonly counts: Counts = { created: 0, updated: 0, replaced: 0, deleted: 0, adopted: 0, abandoned: 0, failed: 0, skipped: 0 };
  private readonly secrets: string[];
  private redactor: (text: string) => string;

  constructor(
    secretValues: readonly string[],
    private readonly onChange: ((event: ApplyEvent) => void) | undefined,
  ) {
    this.secrets = [...secretValues];
    this.redactor = createRedactor(this.secrets);
  }

  /** A secret learnt during the run (one the API issued): no message may show it from now on. */
  addSecret(secret: string): void {
    this.secrets.push(secret);
    this.redactor = createRedactor(this.secrets);
  }

  /** A change of the plan finished: counted by its outcome, or by its action when done. */
  changeFinished(event: ApplyEvent): void {
    const { counts } = this;
    if (event.outcome === 'failed') counts.failed++;
    else if (event.outcome === 'skipped') counts.skipped++;
    else if (event.action === 'create') counts.created++;
    else if (event.action === 'update') counts.updated++;
    else if (event.action === 'replace') counts.replaced++;
    else if (event.action === 'delete') counts.deleted++;
    else if (event.action === 'adopt') counts.adopted++;
    else if (event.action === 'abandon') counts.abandoned++;
    this.tell(event);
  }

  /** A second write of a change already counted (deferred references): only a failure counts. */
  followUpFinished(event: ApplyEvent): void {
    if (event.outcome === 'failed') this.counts.failed++;
    this.tell(event);
  }

  private tell(event: ApplyEvent): void {
    if (event.message !== undefined) event.message = this.redactor(event.message);
    this.events.push(event);
    this.onChange?.(event);
  }
}
