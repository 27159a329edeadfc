// Shared helpers for the conformance cases: a fresh namespace per test (envtest never finishes deleting
// namespaces and runs no controllers, so tests must not share or clean up state), error capture, watch
// collection with a guard, and polling for effects of the server's own controllers (CRD establishment).
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import { ApiError } from '../../../server/runtime/util/errors';
import type { WatchStream } from '../../../server/runtime/client';
import type { ConformanceTarget } from './target';

export const CONFIGMAP = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
export const SECRET = { apiVersion: 'v1', kind: 'Secret' } as const;
export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
export const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace' } as const;
export const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
export const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' } as const;

export const CONFIGMAPS_GVR = { group: '', version: 'v1', resource: 'configmaps' };
export const PODS_GVR = { group: '', version: 'v1', resource: 'pods' };
/**
 * The resource the compaction cases use. envtest runs kube-apiserver with the watch cache off for it
 * (envtest.test.ts), so its lists and watches read etcd and see an etcd compaction at once.
 */
export const SERVICEACCOUNTS_GVR = { group: '', version: 'v1', resource: 'serviceaccounts' };
export const SERVICEACCOUNT = { apiVersion: 'v1', kind: 'ServiceAccount' } as const;
export const DEPLOYMENTS_GVR = { group: 'apps', version: 'v1', resource: 'deployments' };

/** Creates a namespace with a generated name and returns the name. */
export async function newNamespace(t: ConformanceTarget, prefix = 'conf-'): Promise<string> {
  const ns = await t.client.create<KubeObject>({ ...NAMESPACE, metadata: { generateName: prefix } });
  return ns.metadata.name!;
}

export function configMap(
  namespace: string,
  name: string,
  extra: { labels?: Record<string, string>; data?: Record<string, string>; finalizers?: string[] } = {},
): KubeObject {
  return {
    ...CONFIGMAP,
    metadata: { name, namespace, labels: extra.labels, finalizers: extra.finalizers },
    data: extra.data ?? { k: 'v' },
  };
}

export function serviceAccount(namespace: string, name: string): KubeObject {
  return { ...SERVICEACCOUNT, metadata: { name, namespace } };
}

export function deployment(namespace: string, name: string, replicas = 1): KubeObject {
  return {
    ...DEPLOYMENT,
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
      },
    },
  };
}

export function pod(namespace: string, name: string, nodeName?: string): KubeObject {
  return {
    ...POD,
    metadata: { name, namespace, labels: { suite: 'conformance' } },
    spec: { nodeName, containers: [{ name: 'c', image: 'registry.example/app:1' }] },
  };
}

/** Awaits a promise that must reject with an ApiError and returns it. */
export async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw new Error(`expected an ApiError, got ${String(err)}`);
  }
  throw new Error('expected the request to fail, it succeeded');
}

/** The Status body of an ApiError (present whenever the server answered with one). */
export function statusOf(err: ApiError): KubeStatus {
  if (!err.status) throw new Error(`ApiError ${err.code} ${err.reason} carries no Status body`);
  return err.status;
}

export const rvNum = (o: { metadata?: { resourceVersion?: string } }): bigint =>
  BigInt(o.metadata?.resourceVersion ?? 'NaN');

/**
 * Reads events until `done(events)` holds or the stream ends; then stops the stream. The guard only
 * keeps a broken server from hanging the suite: a test that hits it fails on its own expectations.
 */
export async function collect<T extends KubeObject>(
  stream: WatchStream<T>,
  done: (events: WatchEvent<T>[]) => boolean = () => false,
  guardMs = 20_000,
): Promise<{ events: WatchEvent<T>[]; ended: boolean }> {
  const events: WatchEvent<T>[] = [];
  let ended = false;
  const guard = setTimeout(() => stream.stop(), guardMs);
  try {
    for await (const ev of stream) {
      events.push(ev);
      if (done(events)) return { events, ended };
    }
    ended = true;
    return { events, ended };
  } finally {
    clearTimeout(guard);
    stream.stop();
  }
}

/** Polls `fn` until it returns a value other than undefined (errors count as "not yet"). */
export async function eventually<R>(what: string, fn: () => Promise<R | undefined>, timeoutMs = 30_000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const r = await fn();
      if (r !== undefined) return r;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const names = (items: readonly KubeObject[]): string[] => items.map((i) => i.metadata.name ?? '');
