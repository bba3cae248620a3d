// The workspace held in memory: one Collection per kind. No HTTP here.
import { Collection, type Stored } from './collection.js';
import { IdFactory } from './ids.js';
import type { JsonObject } from './json.js';
import type { Random } from './prng.js';
import { dashboardView, notifierView, orgView, tokenView, userView } from './views.js';

export interface WorkspaceSettings {
  /** The rate limit the org licenses report. */
  rateLimitPerSecond: () => number;
}

/**
 * Add-ons a workspace may lack (docs/wire-contract.md "RBAC not available"). Without RBAC every
 * /v2/rbac/* path answers `rbacStatus` and users cannot hold custom roles.
 */
export interface AddOns {
  rbac: boolean;
  rbacStatus: 403 | 404;
}

export class Workspace {
  readonly addOns: AddOns = { rbac: true, rbacStatus: 403 };
  /** Datasets keyed by name (a dataset's id is its name). */
  readonly datasets = new Collection<Stored>((dataset) => dataset);
  /** Each dataset's fields, keyed by field name, in the order they were seeded. */
  readonly datasetFields = new Map<string, Map<string, JsonObject>>();
  readonly notifiers = new Collection<Stored>(notifierView);
  readonly monitors = new Collection<Stored>((monitor) => monitor);
  readonly roles = new Collection<Stored>((role) => role);
  readonly groups = new Collection<Stored>((group) => group);
  /** Views keyed by name (a view's id is its name); answered without the id, as the OpenAPI View has none. */
  readonly views = new Collection<Stored>(({ id: _id, ...view }) => view);
  readonly users: Collection<Stored>;
  readonly vfields = new Collection<Stored>((vfield) => vfield);
  readonly starredQueries = new Collection<Stored>((query) => query);
  readonly annotations = new Collection<Stored>((annotation) => annotation);
  readonly tokens = new Collection<Stored>(tokenView);
  /** Dashboards keyed by uid. */
  readonly dashboards = new Collection<Stored>(dashboardView);
  /** uid -> a save "someone made in the UI", applied just before the next write to that dashboard (a test hook). */
  readonly pendingUiSaves = new Map<string, JsonObject>();
  /** Token secret -> token id, for authentication. */
  readonly tokenIdsBySecret = new Map<string, string>();
  readonly orgs: Collection<Stored>;
  readonly ids: IdFactory;
  private readonly changeListeners: (() => void)[] = [];

  constructor(random: Random, settings: WorkspaceSettings) {
    this.ids = new IdFactory(random);
    this.users = new Collection<Stored>((user) => userView(user, this.roles), false);
    this.orgs = new Collection<Stored>((org) => orgView(org, settings.rateLimitPerSecond()), false);
  }

  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Called after every mutation (persistence listens). */
  changed(): void {
    for (const listener of this.changeListeners) listener();
  }
}
