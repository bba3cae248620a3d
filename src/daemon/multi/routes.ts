// The port of a daemon that syncs several environments: one section per workspace on the status
// page and in /status, every workspace's series on /metrics (label env), control per environment.
import { refuseWithoutToken, type ControlAction, type ControlAnswer, type ControlRequestOptions } from '../control.js';
import type { Routes } from '../http.js';
import { statusJson, type DaemonView } from '../routes.js';
import { escapeHtml, renderStatusSection, statusPageDocument } from '../status-page.js';
import { mergeExpositions } from './metrics-text.js';

export interface Workspace {
  /** The environment of wsync.yaml. */
  name: string;
  view: DaemonView;
}

export interface MultiPort {
  workspaces: readonly Workspace[];
  controlToken?: () => string;
  statusAuth?: boolean;
  stopping: () => boolean;
}

/** The workspaces a control request is for: `?env=NAME`, or every one; a 404 naming them for another name. */
function addressed(port: MultiPort, request: ControlRequestOptions): Workspace[] | ControlAnswer {
  if (request.env === undefined) return [...port.workspaces];
  const found = port.workspaces.find((w) => w.name === request.env);
  if (found !== undefined) return [found];
  const names = port.workspaces.map((w) => w.name).join(', ');
  return { status: 404, body: { error: `this daemon syncs no environment "${request.env}" (it syncs ${names})` } };
}

function control(port: MultiPort, action: ControlAction, authorization: string | undefined, request: ControlRequestOptions = {}): ControlAnswer {
  const refused = refuseWithoutToken(port.controlToken ?? null, authorization);
  if (refused) return refused;
  const targets = addressed(port, request);
  if (!Array.isArray(targets)) return targets;
  const environments: Record<string, Record<string, unknown>> = {};
  for (const w of targets) environments[w.name] = w.view.act(action, request);
  const suspended = targets.every((w) => w.view.status.suspendedSince !== null);
  return { status: 200, body: { ok: true, action, suspended, environments } };
}

/**
 * `POST /approve/FINGERPRINT`: for the workspace `?env=` names, or the one whose held changes have
 * that fingerprint (fingerprints name a plan, so at most one matches).
 */
function approve(port: MultiPort, fingerprint: string, authorization: string | undefined, request: ControlRequestOptions = {}): ControlAnswer {
  const refused = refuseWithoutToken(port.controlToken ?? null, authorization);
  if (refused) return refused;
  const targets = addressed(port, request);
  if (!Array.isArray(targets)) return targets;
  const holding = targets.length === 1 ? targets : targets.filter((w) => w.view.status.heldFingerprint === fingerprint);
  const target = holding[0];
  if (target === undefined) return { status: 409, body: { error: 'no environment of this daemon holds changes with this fingerprint (wsync ctl status shows them)' } };
  const answer = target.view.approve(fingerprint);
  return { status: answer.status, body: { ...answer.body, env: target.name } };
}

function readyz(port: MultiPort): { ok: boolean; body: string } {
  const lines = port.workspaces.map((w) => {
    w.view.refresh();
    const s = w.view.status;
    const suspended = s.suspendedSince === null ? '' : ' (suspended: nothing is written)';
    return `${w.name}: ${s.ready ? 'ready' : 'not ready: no reconcile has succeeded yet'}${suspended}`;
  });
  // Ready once every workspace has succeeded once (as one workspace's daemon is): a workspace that fails later shows in /status and the metrics.
  const ok = !port.stopping() && port.workspaces.every((w) => w.view.status.ready);
  return { ok, body: `${ok ? 'ready' : 'not ready'}\n${lines.join('\n')}\n` };
}

function statusPage(port: MultiPort): string {
  const sections = port.workspaces.map((w) => {
    w.view.refresh();
    const s = w.view.scheduler();
    const info = { dir: w.view.config.dir, mode: w.view.config.policy.mode, running: s.running, nextRetryAt: s.nextRetryAt };
    const name = escapeHtml(w.name);
    return `<section id="env-${name}">\n<h1>Environment ${name}</h1>\n${renderStatusSection(w.view.status, info)}</section>\n`;
  });
  return statusPageDocument(`<h1>wsync: ${port.workspaces.length} environments</h1>\n${sections.join('')}`);
}

/** The routes of the shared port. */
export function multiRoutes(port: MultiPort): Routes {
  return {
    healthz: () => ({ ok: true, body: 'ok\n' }),
    readyz: () => readyz(port),
    metrics: async () => {
      const texts = await Promise.all(port.workspaces.map((w) => (w.view.refresh(), w.view.metrics.text())));
      return { contentType: port.workspaces[0]?.view.metrics.contentType ?? 'text/plain', body: mergeExpositions(texts) };
    },
    statusPage: () => statusPage(port),
    statusJson: () => {
      const environments: Record<string, Record<string, unknown>> = {};
      for (const w of port.workspaces) environments[w.name] = statusJson(w.view);
      const ready = port.workspaces.every((w) => w.view.status.ready);
      return { ready, environments };
    },
    control: (action, authorization, request) => control(port, action, authorization, request),
    approve: (fingerprint, authorization, request) => approve(port, fingerprint, authorization, request),
    refuseStatus: (authorization) => (port.statusAuth === true ? refuseWithoutToken(port.controlToken ?? null, authorization) : undefined),
  };
}
