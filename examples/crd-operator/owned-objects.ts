// What a Website owns, written as createOrUpdate mutate functions: each sets only the fields this controller
// decides, on top of whatever the API server stored (its defaults included). Replacing whole specs instead
// would differ from the stored copy on every pass, so every reconcile would update, and each update would
// wake the controller again through Owns().
import { createHash } from 'node:crypto';
import { setControllerReference, type KubeObject } from 'controller-scope';
import { CONTENT_HASH_ANNOTATION, type WebsiteObject } from './website';

export const DEFAULT_IMAGE = 'nginx:1.27-alpine';
const CONTAINER = 'web';
const VOLUME = 'content';

interface Container {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  [field: string]: unknown;
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string; defaultMode?: number } }[];
  [field: string]: unknown;
}
interface DeploymentSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template?: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec?: PodSpec;
  };
  [field: string]: unknown;
}

export const contentConfigMapName = (site: WebsiteObject): string => `${site.metadata.name ?? ''}-content`;

/** The labels that tie a site's pods to its Service (also the Deployment's selector, which is immutable). */
export function selectorLabels(site: WebsiteObject): Record<string, string> {
  return { 'app.kubernetes.io/name': 'website', 'app.kubernetes.io/instance': site.metadata.name ?? '' };
}

function labels(site: WebsiteObject): Record<string, string> {
  return { ...selectorLabels(site), 'app.kubernetes.io/managed-by': 'website-controller' };
}

export function defaultPage(site: WebsiteObject): string {
  const title = site.spec?.title ?? site.metadata.name ?? 'Website';
  const escaped = title.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html>\n<title>${escaped}</title>\n<h1>${escaped}</h1>\n`;
}

export function contentHash(page: string): string {
  return createHash('sha256').update(page).digest('hex').slice(0, 16);
}

export function mutateContentConfigMap(site: WebsiteObject, page: string): (cm: KubeObject) => void {
  return (cm) => {
    setControllerReference(site, cm);
    cm.metadata.labels = { ...cm.metadata.labels, ...labels(site) };
    cm.data = { 'index.html': page };
  };
}

export function mutateDeployment(site: WebsiteObject, page: string): (d: KubeObject) => void {
  return (d) => {
    setControllerReference(site, d);
    d.metadata.labels = { ...d.metadata.labels, ...labels(site) };
    const spec = (d.spec ??= {}) as DeploymentSpec;
    spec.replicas = site.spec?.replicas ?? 1;
    spec.selector = { matchLabels: selectorLabels(site) };
    const template = (spec.template ??= {});
    const meta = (template.metadata ??= {});
    meta.labels = { ...meta.labels, ...selectorLabels(site) };
    meta.annotations = { ...meta.annotations, [CONTENT_HASH_ANNOTATION]: contentHash(page) };
    const pod = (template.spec ??= { containers: [] });
    let c = pod.containers.find((x) => x.name === CONTAINER);
    if (!c) {
      c = { name: CONTAINER };
      pod.containers.push(c);
    }
    c.image = site.spec?.image ?? DEFAULT_IMAGE;
    c.ports = [{ name: 'http', containerPort: 80, protocol: 'TCP' }];
    c.volumeMounts = [{ name: VOLUME, mountPath: '/usr/share/nginx/html', readOnly: true }];
    pod.volumes = [{ name: VOLUME, configMap: { name: contentConfigMapName(site), defaultMode: 0o644 } }];
  };
}

export function mutateService(site: WebsiteObject): (svc: KubeObject) => void {
  return (svc) => {
    setControllerReference(site, svc);
    svc.metadata.labels = { ...svc.metadata.labels, ...labels(site) };
    const spec = (svc.spec ??= {}) as Record<string, unknown>;
    spec.type = 'ClusterIP';
    spec.selector = selectorLabels(site);
    spec.ports = [{ name: 'http', port: 80, targetPort: 80, protocol: 'TCP' }];
  };
}
