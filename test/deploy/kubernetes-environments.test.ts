// One Deployment per environment from one Kustomize base (#25 item 7): each overlay rendered
// offline by `kubectl kustomize`, every manifest checked against the Kubernetes schemas, and the
// two environments' pods, claims, tokens and Services kept apart.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { ROOT } from '../support/paths.js';

const OVERLAYS = join(ROOT, 'config-examples', 'deploy', 'kubernetes-environments');
const ENVIRONMENTS = ['staging', 'prod'] as const;

type Doc = Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec: Record<string, unknown> };

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
};

/** `kubectl kustomize` of an overlay: no cluster, no network. */
function rendered(environment: string): Doc[] {
  const text = execFileSync('kubectl', ['kustomize', join(OVERLAYS, environment)], { encoding: 'utf8', timeout: 60_000 });
  return parseAllDocuments(text).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as Doc;
  });
}

interface PodSpec {
  volumes: { name: string; secret?: { secretName: string }; persistentVolumeClaim?: { claimName: string } }[];
  containers: { name: string; env?: { name: string; value?: string }[] }[];
}

describe('the Kubernetes example, one Deployment per environment', () => {
  const byEnvironment = new Map(ENVIRONMENTS.map((environment) => [environment, rendered(environment)]));

  it.each(ENVIRONMENTS)('%s renders a claim, a Deployment and a Service, each valid against the Kubernetes schemas', (environment) => {
    const docs = byEnvironment.get(environment) ?? [];
    expect(docs.map((d) => `${d.apiVersion}/${d.kind}`).sort()).toEqual(['apps/v1/Deployment', 'v1/PersistentVolumeClaim', 'v1/Service']);
    for (const doc of docs) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(() => new Model!(doc as never).validate(), doc.kind).not.toThrow();
      expect(doc.metadata.name.endsWith(`-${environment}`), doc.metadata.name).toBe(true);
      expect(doc.metadata.labels?.['app.kubernetes.io/instance']).toBe(environment);
    }
  });

  it.each(ENVIRONMENTS)('%s syncs its environment with its own token, state claim and selector', (environment) => {
    const docs = byEnvironment.get(environment) ?? [];
    const deployment = docs.find((d) => d.kind === 'Deployment') as Doc;
    const pod = (deployment.spec.template as { spec: PodSpec }).spec;
    const wsync = pod.containers.find((c) => c.name === 'wsync');
    const env = new Map((wsync?.env ?? []).map((e) => [e.name, e.value]));
    expect(env.get('WSYNC_ENV')).toBe(environment);
    expect(env.get('WSYNC_URL')).toMatch(/^https:\/\//);
    expect(pod.volumes.find((v) => v.name === 'api-token')?.secret?.secretName).toBe(`wsync-api-token-${environment}`);
    const claim = docs.find((d) => d.kind === 'PersistentVolumeClaim') as Doc;
    expect(pod.volumes.find((v) => v.name === 'state')?.persistentVolumeClaim?.claimName).toBe(claim.metadata.name);
    // One writer per workspace: still one replica, Recreate.
    expect(deployment.spec.replicas).toBe(1);
    expect((deployment.spec.strategy as { type: string }).type).toBe('Recreate');
    const selector = (deployment.spec.selector as { matchLabels: Record<string, string> }).matchLabels;
    expect(selector['app.kubernetes.io/instance']).toBe(environment);
    const service = docs.find((d) => d.kind === 'Service') as Doc;
    expect((service.spec.selector as Record<string, string>)['app.kubernetes.io/instance']).toBe(environment);
  });

  it('the environments share no name: both can be applied to one namespace', () => {
    const names = [...byEnvironment.values()].flat().map((d) => `${d.kind}/${d.metadata.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('each overlay says how to create the token Secret it names', () => {
    for (const environment of ENVIRONMENTS) {
      const text = readFileSync(join(OVERLAYS, environment, 'kustomization.yaml'), 'utf8');
      expect(text).toContain(`kubectl create secret generic wsync-api-token-${environment} --from-file=token=`);
    }
  });
});
