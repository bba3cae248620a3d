import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const DIR = join(ROOT, 'config-examples', 'deploy', 'kubernetes');

type Doc = Record<string, unknown> & { kind: string; spec: Record<string, unknown> };

function docs(file: string): Doc[] {
  return parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as Doc;
  });
}

interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: { name: string; value?: string }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
}

describe('the Kubernetes example', () => {
  const all = docs('wsync.yaml');
  const deployment = all.find((d) => d.kind === 'Deployment') as Doc;
  const pod = (deployment.spec.template as { spec: Record<string, unknown> }).spec;
  const containers = pod.containers as Container[];
  const wsync = containers.find((c) => c.name === 'wsync') as Container;

  it('runs without a service account token, with a bounded emptyDir and resources on every container', () => {
    expect(pod.automountServiceAccountToken).toBe(false);
    const git = (pod.volumes as { name: string; emptyDir?: { sizeLimit?: string } }[]).find((v) => v.name === 'git');
    expect(git?.emptyDir?.sizeLimit).toMatch(/^\d+(Mi|Gi)$/);
    for (const c of containers) {
      expect(c.resources?.requests?.cpu, c.name).toBeDefined();
      expect(c.resources?.requests?.memory, c.name).toBeDefined();
      expect(c.resources?.limits?.memory, c.name).toBeDefined();
    }
  });

  it('keeps an old git-sync worktree for minutes after a swap, so that no read is cut short', () => {
    const gitSync = containers.find((c) => c.name === 'git-sync') as Container;
    const timeout = (gitSync.args ?? []).find((a) => a.startsWith('--stale-worktree-timeout='))?.split('=')[1] ?? '';
    expect(timeout).toMatch(/^\d+m$/);
    expect(Number.parseInt(timeout, 10)).toBeGreaterThanOrEqual(1);
    // The flag exists from git-sync v4.4 on.
    const [major, minor] = (/:v(\d+)\.(\d+)/.exec(gitSync.image ?? '') ?? []).slice(1).map(Number);
    expect((major ?? 0) > 4 || ((major ?? 0) === 4 && (minor ?? 0) >= 4)).toBe(true);
  });

  it('wires notifications and the control token from Secrets, never as values', () => {
    const env = new Map((wsync.env ?? []).map((e) => [e.name, e]));
    const tokenFile = env.get('WSYNC_CONTROL_TOKEN_FILE')?.value ?? '';
    expect(env.has('WSYNC_CONTROL_TOKEN')).toBe(false);
    const slack = (wsync.args ?? []).find((a) => a.startsWith('--notify-slack-url-file='))?.split('=')[1] ?? '';
    for (const file of [tokenFile, slack]) {
      expect(file).not.toBe('');
      expect((wsync.volumeMounts ?? []).some((m) => file.startsWith(`${m.mountPath}/`)), file).toBe(true);
    }
    // wsync ctl inside the container finds the daemon's port through the same variable.
    expect(env.get('WSYNC_LISTEN')?.value).toBe(`0.0.0.0:${wsync.ports?.[0]?.containerPort}`);
  });

  it('has a ServiceMonitor and a PodMonitor on the port that serves /metrics, and alerts on the metrics wsync has', () => {
    const monitoring = docs('monitoring.yaml');
    const service = all.find((d) => d.kind === 'Service') as Doc;
    const portName = (service.spec.ports as { name: string }[])[0]?.name;
    const serviceMonitor = monitoring.find((d) => d.kind === 'ServiceMonitor') as Doc;
    expect((serviceMonitor.spec.endpoints as { port: string; path: string }[])[0]).toMatchObject({ port: portName, path: '/metrics' });
    const podMonitor = monitoring.find((d) => d.kind === 'PodMonitor') as Doc;
    expect((podMonitor.spec.podMetricsEndpoints as { port: string }[])[0]?.port).toBe(wsync.ports?.[0]?.name);
    const rules = monitoring.find((d) => d.kind === 'PrometheusRule') as Doc;
    const exprs = JSON.stringify(rules.spec.groups);
    const metricsDoc = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
    for (const metric of new Set(exprs.match(/wsync_[a-z_]+/g) ?? [])) expect(metricsDoc, metric).toContain(`\`${metric}\``);
  });
});
