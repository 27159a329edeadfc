// The controller-runtime layer's expectations, shared by the sandbox and the real kube-apiserver suites so
// both servers are held to the same ones: a manager running the seed's PodCounter (it lists Pods through the
// informer cache and prints the count) and an owner-aware controller (ReplicaSet owning Pods), writes through
// the REST client, reconcile calls and their causes, the cache's contents, the prom-client metrics and leader
// election through a Lease.
//
// Each test works in its own namespace (a real apiserver has no garbage collector or kubelet here: pods stay
// Pending and nothing is cleaned up behind the test's back). The caller registers, before calling this, the
// hooks that bring the server up; `target()` is read only once those have run.
import type { Registry } from 'prom-client';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { PodCounter } from '../../../server/demo/pod-counter';
import {
  getConfig,
  newControllerManagedBy,
  newManager,
  newRegistry,
  reconcileFunc,
  requestKey,
} from '../../../server/runtime';
import type { Manager } from '../../../server/runtime';
import { RecordingProbe } from '../../../server/runtime/testing/recording-probe';

export interface ManagerSuiteTarget {
  /** A kubeconfig file for the server under test (admin rights). */
  kubeconfig: string;
}

const Pod = { apiVersion: 'v1', kind: 'Pod' } as const;
const ReplicaSet = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;
const Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' } as const;

function pod(namespace: string, name: string, owner?: KubeObject): KubeObject {
  return {
    ...Pod,
    metadata: {
      namespace,
      name,
      labels: { app: 'demo' },
      ...(owner
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: owner.metadata.name ?? '',
                uid: owner.metadata.uid ?? '',
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
  };
}

export async function eventually(cond: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Sum of a prom-client metric's samples whose labels include `labels` (histograms: the _count samples). */
export async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`metric ${name} is not registered`);
  const { values } = await metric.get();
  return values
    .filter((v) => !('metricName' in v) || v.metricName === undefined || v.metricName === `${name}_count`)
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}

export function defineManagerSuite(target: () => ManagerSuiteTarget): void {
  let mgr: Manager;
  let registry: Registry;
  const ac = new AbortController();
  let run: Promise<void> | undefined;
  const printf = vi.fn<(line: string) => void>();
  const rsReconciles: string[] = [];
  const probe = new RecordingProbe();
  let nsCount = 0;

  const config = () => getConfig({ kubeconfig: target().kubeconfig, argv: [] });

  /** A fresh namespace for one test. */
  async function namespace(purpose: string): Promise<string> {
    const name = `it-${purpose}-${++nsCount}`;
    await mgr.getClient().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  }

  const lines = (): string[] => printf.mock.calls.map((c) => c[0]);

  beforeAll(async () => {
    registry = newRegistry(false);
    mgr = newManager(config(), { registry, probe, gracefulShutdownTimeoutMs: 5_000 });
    // The seed's controller, unchanged: it counts every Pod in the cluster, read from the cache.
    await new PodCounter(mgr.getClient(), printf).setupWithManager(mgr);
    await newControllerManagedBy(mgr)
      .for(ReplicaSet)
      .owns(Pod)
      .complete(
        reconcileFunc(async (_ctx, req) => {
          rsReconciles.push(requestKey(req));
          // Each reconcile reports an events.k8s.io/v1 Event about its ReplicaSet.
          mgr
            .getEventRecorderFor('replicaset-controller')
            .eventf(
              { ...ReplicaSet, metadata: { namespace: req.namespace, name: req.name } },
              undefined,
              'Normal',
              'Reconciled',
              'Reconcile',
              'reconciled %s',
              req.name,
            );
        }),
      );
    run = mgr.start(ac.signal);
    await mgr.elected();
  }, 60_000);

  afterAll(async () => {
    ac.abort();
    await run;
  });

  it('runs the PodCounter: pods created through the REST client are counted from the informer cache', async () => {
    const ns = await namespace('count');
    const client = mgr.getClient();
    await client.create(pod(ns, 'p1'));
    await client.create(pod(ns, 'p2'));
    // The count covers every namespace; the API reader (no cache) says how many that is now.
    const total = (await mgr.getAPIReader().list(Pod)).items.length;
    expect(total).toBeGreaterThanOrEqual(2);
    await eventually(() => lines().at(-1) === `Number of pods: ${total}`, `"Number of pods: ${total}" printed`);

    // Both pods reconciled, each for its own add event.
    const started = probe.ofKind('reconcile.start').filter((e) => e.controller === 'pod-counter');
    expect(started.map((e) => e.key)).toEqual(expect.arrayContaining([`${ns}/p1`, `${ns}/p2`]));
    const forP1 = started.find((e) => e.key === `${ns}/p1`);
    expect(forP1?.causes.map((c) => c.type)).toContain('event');
    const ended = probe.ofKind('reconcile.end').filter((e) => e.controller === 'pod-counter' && e.key.startsWith(ns));
    expect(ended.every((e) => e.outcome === 'success')).toBe(true);

    // The reconcile's list came from the cache; the creates went to the server.
    const requests = probe.ofKind('client.request');
    expect(requests.some((e) => e.cached && e.verb === 'list' && e.controller === 'pod-counter')).toBe(true);
    expect(requests.some((e) => !e.cached && e.verb === 'create' && e.ref.name === 'p1')).toBe(true);
  });

  it('holds the created pods in the informer cache as the server sent them (managedFields too)', async () => {
    const ns = await namespace('cache');
    const client = mgr.getClient();
    await client.create(pod(ns, 'c1'));
    await client.create(pod(ns, 'c2'));
    const cache = mgr.getCache();
    await eventually(async () => (await cache.list(Pod, { namespace: ns })).items.length === 2, 'both pods cached');
    const cached = await cache.list(Pod, { namespace: ns });
    expect(cached.items.map((p) => p.metadata.name).sort()).toEqual(['c1', 'c2']);
    const got = await client.get<KubeObject>(Pod, { namespace: ns, name: 'c1' });
    expect(got.metadata.name).toBe('c1');
    expect(got.metadata.uid).toBeTruthy();
    // Upstream's cache has no default transform: managedFields stay unless the user strips them.
    const fromServer = await mgr.getAPIReader().get<KubeObject>(Pod, { namespace: ns, name: 'c1' });
    expect(got.metadata.managedFields).toEqual(fromServer.metadata.managedFields);
    // The informer filled itself with a WatchList stream (the default) and never had to fall back to LIST.
    // (A WatchList starts from resourceVersion "", a first LIST from "0".)
    expect(probe.ofKind('reflector.listBegin').find((e) => e.informer === 'v1/Pod')?.resourceVersion).toBe('');
    expect(probe.ofKind('reflector.error').filter((e) => e.informer === 'v1/Pod')).toEqual([]);
    // Label selectors are answered by the cache too.
    expect((await cache.list(Pod, { namespace: ns, labelSelector: 'app=demo' })).items).toHaveLength(2);
    expect((await cache.list(Pod, { namespace: ns, labelSelector: 'app=other' })).items).toHaveLength(0);
    expect(cache.kinds()).toEqual(expect.arrayContaining(['v1/Pod', 'apps/v1/ReplicaSet']));
  });

  it('reconciles the owning ReplicaSet when an owned pod changes', async () => {
    const ns = await namespace('owner');
    const client = mgr.getClient();
    const rs = await client.create<KubeObject>({
      ...ReplicaSet,
      metadata: { namespace: ns, name: 'rs1' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'owned' } },
        template: {
          metadata: { labels: { app: 'owned' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    });
    await eventually(() => rsReconciles.includes(`${ns}/rs1`), 'rs1 reconciled for itself');
    const before = rsReconciles.length;
    await client.create(pod(ns, 'owned-1', rs));
    await eventually(() => rsReconciles.length > before, 'rs1 reconciled for its pod');
    expect(rsReconciles.at(-1)).toBe(`${ns}/rs1`);
    const causes = probe
      .ofKind('reconcile.start')
      .filter((e) => e.controller === 'replicaset' && e.key === `${ns}/rs1`)
      .flatMap((e) => e.causes.map((c) => c.type));
    expect(causes).toContain('owner');
    // The reconcile's event reached the server, and its write is attributed to the controller.
    const Event = { apiVersion: 'events.k8s.io/v1', kind: 'Event' };
    await eventually(
      async () => (await mgr.getAPIReader().list(Event, { namespace: ns })).items.length > 0,
      'an events.k8s.io Event about rs1',
    );
    const [ev] = (await mgr.getAPIReader().list<KubeObject>(Event, { namespace: ns })).items;
    expect(ev).toMatchObject({
      reason: 'Reconciled',
      note: 'reconciled rs1',
      reportingController: 'replicaset-controller',
    });
    expect(ev?.['regarding']).toMatchObject({ kind: 'ReplicaSet', name: 'rs1' });
    expect(
      probe
        .ofKind('client.request')
        .some((e) => e.verb === 'create' && e.controller === 'replicaset' && e.ref.gvk === 'events.k8s.io/v1/Event'),
    ).toBe(true);
    // A pod with no owner wakes no ReplicaSet.
    const after = rsReconciles.length;
    await client.create(pod(ns, 'orphan'));
    await eventually(
      () => probe.ofKind('reconcile.end').some((e) => e.controller === 'pod-counter' && e.key === `${ns}/orphan`),
      'the orphan pod counted',
    );
    expect(rsReconciles.slice(after).filter((k) => k === `${ns}/rs1`)).toEqual([]);
  });

  it('reports controller-runtime and workqueue metrics to the registry', async () => {
    const successes = probe
      .ofKind('reconcile.end')
      .filter((e) => e.controller === 'pod-counter' && e.outcome === 'success').length;
    expect(successes).toBeGreaterThan(0);
    const reconciled = await metricValue(registry, 'controller_runtime_reconcile_total', {
      controller: 'pod-counter',
      result: 'success',
    });
    expect(reconciled).toBeGreaterThanOrEqual(successes);
    expect(
      await metricValue(registry, 'controller_runtime_reconcile_errors_total', { controller: 'pod-counter' }),
    ).toBe(0);
    expect(
      await metricValue(registry, 'controller_runtime_reconcile_time_seconds', { controller: 'pod-counter' }),
    ).toBeGreaterThanOrEqual(successes);
    expect(
      await metricValue(registry, 'controller_runtime_max_concurrent_reconciles', { controller: 'pod-counter' }),
    ).toBe(1);
    expect(await metricValue(registry, 'workqueue_adds_total', { name: 'pod-counter' })).toBeGreaterThanOrEqual(
      successes,
    );
    expect(await metricValue(registry, 'workqueue_adds_total', { name: 'replicaset' })).toBeGreaterThan(0);
    // client-go's REST client metrics for the manager's HTTP client (creates answered 201, lists and the
    // watch stream 200), under the server's host:port.
    const host = new URL(mgr.getConfig()?.host ?? '').host;
    expect(
      await metricValue(registry, 'rest_client_requests_total', { code: '201', method: 'POST', host }),
    ).toBeGreaterThan(0);
    expect(
      await metricValue(registry, 'rest_client_requests_total', { code: '200', method: 'GET', host }),
    ).toBeGreaterThan(0);
    expect(await metricValue(registry, 'workqueue_work_duration_seconds', { name: 'pod-counter' })).toBeGreaterThan(0);
    expect(await metricValue(registry, 'workqueue_queue_duration_seconds', { name: 'pod-counter' })).toBeGreaterThan(0);
    expect(await metricValue(registry, 'workqueue_retries_total', { name: 'pod-counter' })).toBe(0);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE controller_runtime_reconcile_total counter');
    expect(text).toMatch(/workqueue_depth\{[^}]*name="pod-counter"/);
  });

  it('elects a leader through a coordination.k8s.io/v1 Lease and releases it on stop', async () => {
    const ns = await namespace('lease');
    const le = newManager(config(), {
      registry: newRegistry(false),
      leaderElection: true,
      leaderElectionID: 'it-lease',
      leaderElectionNamespace: ns,
      leaderElectionReleaseOnCancel: true,
      identity: 'it-manager',
    });
    const stop = new AbortController();
    const leRun = le.start(stop.signal);
    await le.elected();
    const reader = mgr.getAPIReader();
    const lease = await reader.get<KubeObject>(Lease, { namespace: ns, name: 'it-lease' });
    expect((lease.spec as { holderIdentity?: string }).holderIdentity).toBe('it-manager');
    stop.abort();
    await leRun;
    const released = await reader.get<KubeObject>(Lease, { namespace: ns, name: 'it-lease' });
    expect((released.spec as { holderIdentity?: string }).holderIdentity ?? '').toBe('');
  });
}
