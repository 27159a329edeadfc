// A demo to look at: a namespace with a page ConfigMap and two Websites, one reading that page and one with
// the default page. Created only when the namespace does not exist yet, so restarts leave your edits alone.
// Drop the call from controller.ts when you copy the controller into your own project.
import { isAlreadyExists, type KubeObject, type Manager } from 'controller-scope';
import { ConfigMap, Namespace, Website, type WebsiteObject } from './website';

export const SAMPLE_NAMESPACE = 'websites-demo';

export function sampleObjects(namespace = SAMPLE_NAMESPACE): KubeObject[] {
  const page: KubeObject = {
    ...ConfigMap,
    metadata: { namespace, name: 'landing-page' },
    data: { 'index.html': '<!doctype html>\n<title>Hello</title>\n<h1>Hello from a ConfigMap</h1>\n' },
  };
  const landing: WebsiteObject = {
    ...Website,
    metadata: { namespace, name: 'landing' },
    spec: { replicas: 2, contentFrom: { configMapName: 'landing-page' } },
  };
  const docs: WebsiteObject = {
    ...Website,
    metadata: { namespace, name: 'docs' },
    spec: { title: 'Docs', replicas: 1 },
  };
  return [page, landing, docs];
}

export async function createSample(mgr: Manager, namespace = SAMPLE_NAMESPACE): Promise<void> {
  const client = mgr.getClient();
  try {
    await client.create({ ...Namespace, metadata: { name: namespace } });
  } catch (err) {
    if (isAlreadyExists(err)) return;
    throw err;
  }
  for (const obj of sampleObjects(namespace)) await client.create(obj);
}
