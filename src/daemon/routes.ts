import { handleControl, refuseWithoutToken, type ControlAction, type ControlAnswer, type ControlRequestOptions } from './control.js';
import type { DaemonConfig } from './config.js';
import type { Routes } from './http.js';
import type { DaemonMetrics } from './metrics.js';
import type { SchedulerStatus } from './scheduler.js';
import { renderStatusPage } from './status-page.js';
import type { DaemonStatus } from './status.js';

/** What the daemon's port reads of it, and the one thing it asks of it (a control action). */
export interface DaemonView {
  config: DaemonConfig;
  status: DaemonStatus;
  metrics: DaemonMetrics;
  scheduler: () => SchedulerStatus;
  stopping: () => boolean;
  act: (action: ControlAction, request: ControlRequestOptions) => Record<string, unknown>;
  /** POST /approve/FINGERPRINT, once the control token is checked. */
  approve: (fingerprint: string) => ControlAnswer;
  /** Brings what changes with the time alone (the freeze) up to date before it is shown. */
  refresh: () => void;
}

/** The routes of the daemon's port: health, readiness, metrics, status and control. */
export function daemonRoutes(view: DaemonView): Routes {
  const { config, status, metrics } = view;
  return {
    healthz: () => ({ ok: true, body: 'ok\n' }),
    readyz: () => {
      view.refresh();
      const frozen = status.freeze?.active ? ` (frozen until ${status.freeze.active.until}: nothing is written)` : '';
      const ok = status.ready && !view.stopping();
      const suspended = status.suspendedSince === null ? '' : ` (suspended since ${status.suspendedSince}: nothing is written)`;
      const degraded = status.degraded === undefined ? '' : ` (${status.degraded})`;
      return { ok, body: `${ok ? 'ready' : 'not ready: no reconcile has succeeded yet'}${suspended}${frozen}${degraded}\n` };
    },
    metrics: async () => {
      view.refresh();
      return { contentType: metrics.contentType, body: await metrics.text() };
    },
    statusPage: () => {
      view.refresh();
      const s = view.scheduler();
      return renderStatusPage(status, { dir: config.dir, mode: config.policy.mode, running: s.running, nextRetryAt: s.nextRetryAt });
    },
    statusJson: () => statusJson(view),
    control: (action, authorization, request) =>
      otherEnvironment(config, request) ?? handleControl({ token: config.controlToken ?? null, act: view.act }, action, authorization, request),
    approve: (fingerprint, authorization, request) =>
      otherEnvironment(config, request) ?? refuseWithoutToken(config.controlToken ?? null, authorization) ?? view.approve(fingerprint),
    refuseStatus: (authorization) => (config.statusAuth === true ? refuseWithoutToken(config.controlToken ?? null, authorization) : undefined),
  };
}

/** The refusal of a request for an environment (wsync ctl --env) this daemon does not sync. */
function otherEnvironment(config: DaemonConfig, request: ControlRequestOptions | undefined): ControlAnswer | undefined {
  if (request?.env === undefined || request.env === config.environment) return undefined;
  const syncs = config.environment === undefined ? 'a tree without environments' : `environment ${config.environment} only`;
  return { status: 404, body: { error: `this daemon syncs ${syncs}, not "${request.env}"` } };
}

/** GET /status: what `wsync ctl status` shows. */
export function statusJson(view: DaemonView): Record<string, unknown> {
  view.refresh();
  const { status } = view;
  const s = view.scheduler();
  const last = status.last;
  return {
    ready: status.ready,
    env: view.config.environment ?? null,
    suspended: status.suspendedSince !== null,
    suspendedSince: status.suspendedSince,
    mode: view.config.policy.mode,
    dir: view.config.dir,
    revision: status.revision,
    running: s.running,
    nextRetryAt: s.nextRetryAt === null ? null : new Date(s.nextRetryAt).toISOString(),
    lastSuccessAt: status.lastSuccessAt,
    pendingDrift: status.pendingDrift.length,
    held: status.held.length,
    degraded: status.degraded ?? null,
    heldFingerprint: status.heldFingerprint ?? null,
    approval: status.approval,
    freeze: status.freeze,
    last: last ?? null,
  };
}
