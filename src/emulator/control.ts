// /_emulator/*: test hooks, admin token only, never rate-limited or logged
// (docs/wire-contract.md "Test hooks").
import { ApiError, badRequest, forbidden, notFound, unauthorized } from './errors.js';
import type { Faults } from './faults.js';
import type { RateLimiter } from './rate-limit.js';
import type { RequestLog } from './request-log.js';
import { jsonOf, noContent, type Reply } from './routes.js';
import { uiSaveHook } from './kinds/dashboards.js';
import { exportSeed, importSeed } from './seed.js';
import type { Workspace } from './store.js';

export interface ControlDeps {
  workspace: Workspace;
  faults: Faults;
  limiter: RateLimiter;
  log: RequestLog;
  adminToken: string;
}

const ROUTES: Record<string, readonly string[]> = {
  '/_emulator/requests': ['GET', 'DELETE'],
  '/_emulator/faults': ['GET', 'POST'],
  '/_emulator/seed': ['POST'],
  '/_emulator/state': ['GET'],
  '/_emulator/dashboards/ui-save': ['POST'],
};

export function handleControl(
  deps: ControlDeps,
  method: string,
  pathname: string,
  authorization: string | undefined,
  body: unknown,
): Reply {
  const allowed = ROUTES[pathname];
  if (!allowed) throw notFound(`no emulator hook at ${pathname} (hooks: ${Object.keys(ROUTES).join(', ')})`);
  if (!allowed.includes(method)) {
    throw new ApiError(405, `${method} is not allowed on ${pathname}; use ${allowed.join(' or ')}`);
  }
  if (!authorization) throw unauthorized('missing Authorization header: /_emulator/* needs the admin token');
  if (authorization.replace(/^Bearer\s+/i, '').trim() !== deps.adminToken) {
    throw forbidden('/_emulator/* needs the admin token (--token), not an API token');
  }
  switch (`${method} ${pathname}`) {
    case 'GET /_emulator/requests':
      return jsonOf(deps.log.list());
    case 'DELETE /_emulator/requests':
      deps.log.clear();
      return noContent();
    case 'GET /_emulator/faults':
      return jsonOf(deps.faults.settings);
    case 'POST /_emulator/faults': {
      const settings = deps.faults.update(body);
      deps.limiter.setLimit(settings.rateLimit ?? undefined);
      return jsonOf(settings);
    }
    case 'POST /_emulator/dashboards/ui-save':
      return jsonOf(uiSaveHook(deps.workspace, body));
    case 'POST /_emulator/seed':
      if (body === undefined) throw badRequest('seed: a JSON request body is required');
      return jsonOf({ imported: importSeed(deps.workspace, body, 'seed') });
    default:
      return jsonOf(exportSeed(deps.workspace));
  }
}
