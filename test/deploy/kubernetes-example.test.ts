import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { ROOT } from '../support/paths.js';

const DIR = join(ROOT, 'config-examples', 'deploy', 'kubernetes');

type Doc = Record<string, unknown> & { kind: string; spec: Record<string, unknown> };

function docs(file: string): Doc[] {
  return parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as Doc;
  });
}

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef } }[];
  envFrom?: { secretRef?: { name: string; optional?: boolean }; configMapRef?: { name: string; optional?: boolean } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  securityContext?: Record<string, unknown>;
}

interface Volume {
  name: string;
  emptyDir?: { sizeLimit?: string };
  persistentVolumeClaim?: { claimName: string };
  secret?: { secretName: string; optional?: boolean };
  configMap?: { name: string; optional?: boolean };
}

/** What both containers run with: no root file system to write, no privilege to gain. */
const LOCKED_DOWN = { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };

/** The models that validate each manifest, by apiVersion/kind. */
const MODELS: Record<string, (new (data: never) => { validate(): void }) | undefined> = {
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

describe('the Kubernetes example', () => {
  const all = docs('wsync.yaml');
  const deployment = all.find((d) => d.kind === 'Deployment') as Doc;
  const pod = (deployment.spec.template as { spec: Record<string, unknown> }).spec;
  const containers = pod.containers as Container[];
  const wsync = containers.find((c) => c.name === 'wsync') as Container;
  const volumes = pod.volumes as Volume[];
  const volume = (name: string | undefined): Volume | undefined => volumes.find((v) => v.name === name);

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

  it("scrapes /metrics once: one ServiceMonitor on the Service's port, no PodMonitor; alerts on the metrics wsync has", () => {
    const monitoring = docs('monitoring.yaml');
    const service = all.find((d) => d.kind === 'Service') as Doc;
    const portName = (service.spec.ports as { name: string }[])[0]?.name;
    expect(monitoring.filter((d) => d.kind === 'ServiceMonitor' || d.kind === 'PodMonitor').map((d) => d.kind)).toEqual(['ServiceMonitor']);
    const serviceMonitor = monitoring.find((d) => d.kind === 'ServiceMonitor') as Doc;
    expect((serviceMonitor.spec.endpoints as { port: string; path: string }[])).toEqual([{ port: portName, path: '/metrics', interval: '30s' }]);
    const rules = monitoring.find((d) => d.kind === 'PrometheusRule') as Doc;
    const exprs = JSON.stringify(rules.spec.groups);
    const metricsDoc = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
    for (const metric of new Set(exprs.match(/wsync_[a-z_]+/g) ?? [])) expect(metricsDoc, metric).toContain(`\`${metric}\``);
  });

  it('git-sync, read-only everywhere else, has a writable /tmp (its git config at start) and /git', () => {
    const gitSync = containers.find((c) => c.name === 'git-sync') as Container;
    expect(gitSync.securityContext).toMatchObject(LOCKED_DOWN);
    const mounts = new Map((gitSync.volumeMounts ?? []).map((m) => [m.mountPath, m]));
    for (const path of ['/tmp', '/git']) {
      expect(mounts.get(path)?.readOnly, path).toBeUndefined();
      expect(volume(mounts.get(path)?.name)?.emptyDir, path).toBeDefined();
    }
  });

  it('wsync reads the checkout read-only, writes its state to the claim, and reads its token from a Secret', () => {
    expect(wsync.securityContext).toMatchObject(LOCKED_DOWN);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, fsGroup: 65533 });
    const mounts = new Map((wsync.volumeMounts ?? []).map((m) => [m.mountPath, m]));
    expect(mounts.get('/git')).toEqual({ name: 'git', mountPath: '/git', readOnly: true });
    const arg = (flag: string): string => (wsync.args ?? []).find((a) => a.startsWith(`${flag}=`))?.split('=')[1] ?? '';
    const state = mounts.get(arg('--state-dir'));
    expect(state?.readOnly).toBeUndefined();
    expect(volume(state?.name)?.persistentVolumeClaim?.claimName).toBe((all.find((d) => d.kind === 'PersistentVolumeClaim')?.metadata as { name: string }).name);
    const token = [...mounts.values()].find((m) => arg('--token-file').startsWith(`${m.mountPath}/`));
    expect(token?.readOnly).toBe(true);
    expect(volume(token?.name)?.secret?.secretName).toBe('wsync-api-token');
    // Every mount has its volume, every volume is mounted.
    const mounted = new Set(containers.flatMap((c) => (c.volumeMounts ?? []).map((m) => m.name)));
    expect([...mounted].sort()).toEqual(volumes.map((v) => v.name).sort());
  });

  it('names no optional Secret or ConfigMap, and the documented setup creates each with the keys the pod reads', () => {
    // The header of wsync.yaml and docs/deploy.md, with continued lines (`\` at the end) joined.
    const setup = [readFileSync(join(DIR, 'wsync.yaml'), 'utf8'), readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8')].map((text) =>
      text.replace(/\\\n#? */g, ' '),
    );
    const refs: { name: string; key?: string; optional?: boolean; type: 'secret' | 'configmap' }[] = [];
    for (const v of volumes) {
      if (v.secret) refs.push({ name: v.secret.secretName, optional: v.secret.optional, type: 'secret' });
      if (v.configMap) refs.push({ name: v.configMap.name, optional: v.configMap.optional, type: 'configmap' });
    }
    for (const c of containers) {
      for (const e of c.env ?? []) {
        const s = e.valueFrom?.secretKeyRef;
        const m = e.valueFrom?.configMapKeyRef;
        if (s) refs.push({ name: s.name, key: s.key, optional: s.optional, type: 'secret' });
        if (m) refs.push({ name: m.name, key: m.key, optional: m.optional, type: 'configmap' });
      }
      for (const e of c.envFrom ?? []) {
        if (e.secretRef) refs.push({ name: e.secretRef.name, optional: e.secretRef.optional, type: 'secret' });
        if (e.configMapRef) refs.push({ name: e.configMapRef.name, optional: e.configMapRef.optional, type: 'configmap' });
      }
    }
    expect(new Set(refs.map((r) => r.name))).toEqual(new Set(['wsync-api-token', 'wsync-control', 'wsync-notify', 'wsync-notifier-secrets']));
    for (const ref of refs) {
      expect(ref.optional, ref.name).toBeUndefined();
      for (const text of setup) {
        const create = new RegExp(`kubectl create ${ref.type === 'secret' ? 'secret generic' : 'configmap'} ${ref.name} (.*)`).exec(text);
        expect(create, ref.name).not.toBeNull();
        if (ref.key !== undefined) expect(create![1], `${ref.name}/${ref.key}`).toMatch(new RegExp(`--from-(file|literal)=${ref.key}=`));
      }
    }
  });

  it('every manifest is valid against the Kubernetes and Prometheus Operator schemas (offline)', () => {
    const manifests = [...all, ...docs('monitoring.yaml')];
    expect(manifests.map((d) => `${d.apiVersion as string}/${d.kind}`)).toEqual([
      'v1/PersistentVolumeClaim',
      'apps/v1/Deployment',
      'v1/Service',
      'monitoring.coreos.com/v1/ServiceMonitor',
      'monitoring.coreos.com/v1/PrometheusRule',
    ]);
    for (const manifest of manifests) {
      const Model = MODELS[`${manifest.apiVersion as string}/${manifest.kind}`];
      expect(() => new Model!(manifest as never).validate(), manifest.kind).not.toThrow();
    }
    // The check is real: a wrong type, a missing required field and a wrong type deep down are each refused.
    const broken = structuredClone(deployment) as Doc & { spec: { replicas: unknown; template: { spec: { containers: Record<string, unknown>[] } } } };
    broken.spec.replicas = 'one';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
    const noImage = structuredClone(deployment) as typeof broken;
    delete noImage.spec.template.spec.containers[0]!.name;
    expect(() => new Deployment(noImage as never).validate()).toThrow(/name/);
    const wrongNested = structuredClone(deployment) as typeof broken;
    wrongNested.spec.template.spec.containers[0]!.securityContext = { readOnlyRootFilesystem: 'yes' };
    expect(() => new Deployment(wrongNested as never).validate()).toThrow(/readOnlyRootFilesystem must be boolean/);
  });
});
