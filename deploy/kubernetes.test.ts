import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';

// deploy/kubernetes/ against the Kubernetes schemas (kubernetes-models), then what the schemas cannot say: the pods
// run as the image's non-root user on a read-only root filesystem, the probes use the server's health endpoints,
// and the Service, Ingress, PDB and HPA point at what exists.

const ROOT = resolve(import.meta.dirname, '..');
const DIR = join(ROOT, 'deploy/kubernetes');

interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  [key: string]: unknown;
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Service': Service,
};

function validate(resource: Resource): void {
  const Model = MODELS[`${resource.apiVersion}/${resource.kind}`];
  if (!Model) throw new Error(`no schema here for ${resource.apiVersion} ${resource.kind}`);
  new Model(resource as never).validate();
}

const files = readdirSync(DIR).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
const resources: (Resource & { file: string })[] = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((doc) => ({ ...(doc.toJS() as Resource), file })),
);
const find = (kind: string, name: string) => {
  const found = resources.find((resource) => resource.kind === kind && resource.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};

interface Container {
  args?: string[];
  image: string;
  ports?: { name: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  startupProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { httpGet?: { path: string; port: string } };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean; capabilities: object };
  volumeMounts: { name: string; mountPath: string }[];
}
interface PodSpec {
  securityContext: { runAsNonRoot: boolean; runAsUser: number; runAsGroup: number };
  containers: Container[];
  volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[];
}
const podOf = (name: string) =>
  (find('Deployment', name) as unknown as { spec: { template: { metadata: { labels: object }; spec: PodSpec } } }).spec
    .template;

describe('deploy/kubernetes', () => {
  it.each(resources.map((resource) => [`${resource.file}: ${resource.kind} ${resource.metadata.name}`, resource]))(
    '%s is valid against the Kubernetes schema',
    (_name, resource) => {
      expect(() => validate(resource)).not.toThrow();
    },
  );

  it('is checked by a validation that finds mistakes', () => {
    const web = structuredClone(find('Deployment', 'datalab-web')) as unknown as Resource & {
      spec: { replicas: unknown; template: { spec: { containers: Record<string, unknown>[] } } };
    };
    expect(() => validate({ ...web, spec: { ...web.spec, replicas: 'two' } })).toThrow();
    const { name: _name, ...nameless } = web.spec.template.spec.containers[0]!;
    web.spec.template.spec.containers[0] = nameless;
    expect(() => validate(web)).toThrow();
  });

  it('lists every manifest in kustomization.yaml', () => {
    const kustomization = parseAllDocuments(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as {
      resources: string[];
    };
    expect([...kustomization.resources].sort()).toEqual([...files].sort());
  });

  it('runs web and worker as the image, non-root, read-only root, bounded memory, settings from the ConfigMap and Secret', () => {
    const containerfile = readFileSync(join(ROOT, 'Containerfile'), 'utf8');
    const [, user, group] = /^USER (\d+):(\d+)$/m.exec(containerfile) ?? [];
    expect(user).toBeDefined();
    find('ConfigMap', 'datalab-config');
    for (const [name, role] of [
      ['datalab-web', 'web'],
      ['datalab-worker', 'worker'],
    ] as const) {
      const { spec } = podOf(name);
      expect(spec.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: Number(user),
        runAsGroup: Number(group),
      });
      const [container] = spec.containers;
      expect(container!.args).toEqual([role]);
      expect(container!.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
      expect(container!.securityContext.capabilities).toEqual({ drop: ['ALL'] });
      expect(container!.resources.requests['memory']).toMatch(/^\d+Mi$/);
      expect(container!.resources.limits['memory']).toMatch(/^\d+Mi$/);
      expect(container!.envFrom).toEqual([
        { configMapRef: { name: 'datalab-config' } },
        { secretRef: { name: 'datalab-secrets' } },
      ]);
      // DATA_DIR (the download files every pod shares) is the one claim; /tmp an emptyDir; nothing else writable.
      expect(container!.volumeMounts.map((mount) => mount.mountPath).sort()).toEqual(['/data', '/tmp']);
      const data = spec.volumes.find((volume) => volume.persistentVolumeClaim);
      find('PersistentVolumeClaim', data!.persistentVolumeClaim!.claimName);
    }
  });

  it('probes web on the health endpoints: live for startup and liveness, ready for readiness', () => {
    const [web] = podOf('datalab-web').spec.containers;
    expect(web!.ports).toEqual([{ name: 'http', containerPort: 8080 }]);
    expect(web!.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
    expect(web!.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
    expect(web!.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    const [worker] = podOf('datalab-worker').spec.containers;
    expect(worker!.ports).toBeUndefined();
  });

  it('points the Service, Ingress, PodDisruptionBudget and HPA at the web pods', () => {
    const labels = podOf('datalab-web').metadata.labels;
    const service = find('Service', 'datalab-web') as unknown as { spec: { selector: object; ports: object[] } };
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    const ingress = find('Ingress', 'datalab') as unknown as {
      spec: { rules: { http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }[] };
    };
    expect(ingress.spec.rules[0]!.http.paths[0]!.backend.service).toEqual({
      name: 'datalab-web',
      port: { name: 'http' },
    });
    const pdb = find('PodDisruptionBudget', 'datalab-web') as unknown as {
      spec: { selector: { matchLabels: object } };
    };
    expect(pdb.spec.selector.matchLabels).toEqual(labels);
    const hpa = find('HorizontalPodAutoscaler', 'datalab-web') as unknown as {
      spec: { scaleTargetRef: object; minReplicas: number };
    };
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'datalab-web' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });
});
