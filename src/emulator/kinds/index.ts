// Every kind module, in seed-import order: what an object refers to is imported before it.
import { annotations } from './annotations.js';
import type { KindModule } from './common.js';
import { dashboards } from './dashboards.js';
import { datasets } from './datasets.js';
import { groups } from './groups.js';
import { monitors } from './monitors.js';
import { notifiers } from './notifiers.js';
import { orgs } from './orgs.js';
import { roles } from './roles.js';
import { starredQueries } from './starred-queries.js';
import { tokens } from './tokens.js';
import { users } from './users.js';
import { views } from './views.js';
import { vfields } from './vfields.js';

export const KIND_MODULES: readonly KindModule[] = [
  datasets,
  roles,
  users,
  groups,
  notifiers,
  monitors,
  vfields,
  starredQueries,
  annotations,
  views,
  tokens,
  orgs,
  dashboards,
];
