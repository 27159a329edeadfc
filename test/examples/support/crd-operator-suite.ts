// The crd-operator example's expectations, shared by the sandbox and the real kube-apiserver suites. The
// correct controller: the CRD gets installed, the sample's Websites get their owned ConfigMap, Deployment and
// Service (controller owner references), status with observedGeneration and conditions, a periodic requeue,
// a page ConfigMap edit reaches its site through the field index, and deletion runs the finalizer; the
// dashboard shows the reconciles and flags no hot loop. The buggy one: the dashboard flags the hot loop and
// its evidence is the controller's own status write.
//
// `cluster()` is read only once the caller's hooks have run. Each test runs its own manager; the two
// controllers never run at once (they would fight over the same Websites).
import { resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { newRestClient, type Client, type KubeObject, type Reader } from '../../../server/runtime';
import { SAMPLE_NAMESPACE } from '../../../examples/crd-operator/sample';
import {
  CONTENT_CONFIGMAP_INDEX,
  CONTENT_HASH_ANNOTATION,
  ConfigMap,
  Deployment,
  DIRECTORY_CONFIGMAP,
  FINALIZER,
  Service,
  Website,
  type WebsiteObject,
} from '../../../examples/crd-operator/website';
import { CHECK_EVERY_MS } from '../../../examples/crd-operator/website-reconciler';
import { eventually, inspect, runExample, type RunningExample } from './run-example';

const EXAMPLE = resolve(import.meta.dirname, '../../../examples/crd-operator');
const WEBSITE_ID = 'example.controller-scope.dev/v1alpha1/Website';

export interface CrdOperatorTarget {
  /** The cluster flags `run` is given: none (the sandbox), or ['--kubeconfig', FILE]. */
  clusterArgs: string[];
  /** True when Deployments become available (the sandbox runs their controllers and simulated nodes). */
  deploymentsBecomeAvailable: boolean;
}

export function defineCrdOperatorSuite(target: () => CrdOperatorTarget): void {
  let running: RunningExample | undefined;
  let reader: Client;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  const site = (name: string) => reader.get<WebsiteObject>(Website, { namespace: SAMPLE_NAMESPACE, name });

  it('the correct controller reconciles the sample into owned objects, status and a settled queue', async () => {
    const { clusterArgs, deploymentsBecomeAvailable } = target();
    running = await runExample(resolve(EXAMPLE, 'controller.ts'), clusterArgs);
    const r = running;
    reader = newRestClient(r.config);

    // Status: observedGeneration and both conditions, written by the controller.
    const landing = await eventually(async () => {
      const s = await site('landing');
      return s.status?.observedGeneration === s.metadata.generation && (s.status?.conditions?.length ?? 0) === 2
        ? s
        : undefined;
    }, 'the landing Website to get its status');
    expect(landing.metadata.finalizers).toContain(FINALIZER);
    expect(landing.status?.url).toBe(`http://landing.${SAMPLE_NAMESPACE}.svc.cluster.local`);
    const contentReady = landing.status?.conditions?.find((c) => c.type === 'ContentReady');
    expect(contentReady).toMatchObject({ status: 'True', reason: 'PageRendered' });
    expect(contentReady?.lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // Owned objects, each with a controller reference to its Website.
    for (const type of [ConfigMap, Deployment, Service]) {
      const name = type === ConfigMap ? 'landing-content' : 'landing';
      const obj = await reader.get(type, { namespace: SAMPLE_NAMESPACE, name });
      expect(obj.metadata.ownerReferences, `${type.kind} ${name}`).toEqual([
        expect.objectContaining({ kind: 'Website', name: 'landing', uid: landing.metadata.uid, controller: true }),
      ]);
    }
    const page = await reader.get(ConfigMap, { namespace: SAMPLE_NAMESPACE, name: 'landing-content' });
    expect((page.data as Record<string, string>)['index.html']).toContain('Hello from a ConfigMap');
    const dir = await reader.get(ConfigMap, { namespace: SAMPLE_NAMESPACE, name: DIRECTORY_CONFIGMAP });
    expect(dir.data).toEqual({
      landing: landing.status?.url,
      docs: `http://docs.${SAMPLE_NAMESPACE}.svc.cluster.local`,
    });

    if (deploymentsBecomeAvailable) {
      await eventually(async () => {
        const s = await site('landing');
        return s.status?.conditions?.find((c) => c.type === 'Available')?.status === 'True' &&
          s.status.availableReplicas === 2
          ? s
          : undefined;
      }, 'landing to become Available with 2 replicas');
    } else {
      // No kubelet or controller manager beside a bare kube-apiserver: the Deployment never becomes available.
      expect(landing.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({
        status: 'False',
        reason: 'ReplicasUnavailable',
      });
    }

    // The dashboard: the controller, For's informer and the owned kinds', both sample keys reconciled, each
    // pass asking to come back in CHECK_EVERY_MS.
    const view = await eventually(async () => {
      const v = r.cli.client.view;
      const c = v.controllers.website;
      const done = (k: string) => c?.keys[k]?.lastReconcile?.endTs !== undefined;
      return done(`${SAMPLE_NAMESPACE}/landing`) && done(`${SAMPLE_NAMESPACE}/docs`) ? v : undefined;
    }, 'the dashboard to show both sample keys reconciled');
    const ctl = view.controllers.website;
    expect(ctl?.forKind).toBe(WEBSITE_ID);
    expect(view.modules).toEqual([
      expect.objectContaining({
        file: expect.stringMatching(/controller\.ts$/),
        phase: 'loaded',
        controllers: ['website'],
      }),
    ]);
    for (const id of [WEBSITE_ID, 'v1/ConfigMap', 'apps/v1/Deployment', 'v1/Service']) {
      expect(view.informers[id], `informer ${id}`).toMatchObject({ synced: true });
    }
    // The Indexer panel: the Website cache holds both sites and the field index the Watches map reads.
    const cache = await inspect(r.cli.url, { target: 'cache', informer: WEBSITE_ID });
    expect(cache).toMatchObject({
      target: 'cache',
      keys: expect.arrayContaining([`${SAMPLE_NAMESPACE}/landing`, `${SAMPLE_NAMESPACE}/docs`]),
      indexes: expect.objectContaining({ [`field:${CONTENT_CONFIGMAP_INDEX}`]: expect.any(Number) }),
    });
    const history = ctl?.keys[`${SAMPLE_NAMESPACE}/landing`]?.history ?? [];
    expect(history.some((h) => h.outcome === 'requeueAfter' && h.requeueAfterMs === CHECK_EVERY_MS)).toBe(true);
    expect(ctl?.client.requests.patchStatus ?? 0).toBeGreaterThan(0);

    // Editing the page ConfigMap reaches the site through Watches + the field index, and rolls its pods.
    const hashBefore = (await podTemplateAnnotations(reader))[CONTENT_HASH_ANNOTATION];
    const cm = await reader.get(ConfigMap, { namespace: SAMPLE_NAMESPACE, name: 'landing-page' });
    const client = reader;
    await client.update({ ...cm, data: { 'index.html': '<h1>edited</h1>' } });
    await eventually(async () => {
      const owned = await reader.get(ConfigMap, { namespace: SAMPLE_NAMESPACE, name: 'landing-content' });
      return (owned.data as Record<string, string>)['index.html'] === '<h1>edited</h1>' ? owned : undefined;
    }, 'the edited page to reach landing-content');
    await eventually(
      async () => (await podTemplateAnnotations(reader))[CONTENT_HASH_ANNOTATION] !== hashBefore,
      "the Deployment's pod template to carry the new page's hash (its pods roll)",
    );
    const mapped = await eventually(async () => {
      const k = r.cli.client.view.controllers.website?.keys[`${SAMPLE_NAMESPACE}/landing`];
      return k?.history.find((h) =>
        h.causes.some(
          (c) => c.type === 'mapped' && c.source?.name === 'landing-page' && c.source.gvk === 'v1/ConfigMap',
        ),
      );
    }, 'a reconcile caused by the page ConfigMap through the map function');
    expect(mapped.outcome).toBe('requeueAfter');

    // Deleting a Website runs the finalizer: its directory entry goes, then the object.
    await client.delete(await site('docs'));
    await eventually(async () => {
      try {
        await site('docs');
        return undefined;
      } catch {
        return true;
      }
    }, 'docs to be deleted once its finalizer ran');
    const dirAfter = await reader.get(ConfigMap, { namespace: SAMPLE_NAMESPACE, name: DIRECTORY_CONFIGMAP });
    expect(dirAfter.data).toEqual({ landing: landing.status?.url });

    // The same run, on the dashboard: no hot loop, no failed reconcile.
    const last = r.cli.client.view;
    expect(last.controllers.website?.hotLoops).toEqual([]);
    const failed = Object.values(last.controllers.website?.keys ?? {}).flatMap((k) =>
      k.history.filter((h) => h.outcome === 'error').map((h) => `${k.key}: ${h.error ?? ''}`),
    );
    expect(failed).toEqual([]);
  });

  it('the buggy controller hot-loops on its own status write, and the dashboard says so', async () => {
    const { clusterArgs } = target();
    running = await runExample(resolve(EXAMPLE, 'controller-buggy.ts'), clusterArgs);
    const r = running;
    reader = newRestClient(r.config);
    const loop = await eventually(
      async () => r.cli.client.view.controllers['website-buggy']?.hotLoops[0],
      'a hot loop',
    );
    expect([`${SAMPLE_NAMESPACE}/landing`, `${SAMPLE_NAMESPACE}/docs`]).toContain(loop.key);
    const name = loop.key.split('/')[1] ?? '';
    expect(loop.selfRatio).toBeGreaterThan(0.5);
    // The newest evidence (the loop's steady state; the first passes also add the finalizer with a patch): the
    // update event that came back from this controller's own status write.
    const evidence = loop.evidence.findLast((e) => e.write !== undefined);
    expect(evidence?.cause).toMatchObject({ eventType: 'update' });
    expect(evidence?.write).toMatchObject({ verb: 'patchStatus', ref: expect.objectContaining({ name }) });
    const statusWrites = loop.evidence.filter((e) => e.write?.verb === 'patchStatus').length;
    expect(statusWrites, JSON.stringify(loop.evidence)).toBeGreaterThanOrEqual(loop.evidence.length / 2);
    // The Overview's Notable list says it in words, naming the write.
    const note = r.cli.client.view.notable.find((n) => n.controller === 'website-buggy' && n.key === loop.key);
    expect(note?.text).toMatch(
      /hot loop, \d+ reconciles in [\d.]+ s \(\d+ re-triggered by its own writes\), re-triggered by its own patchStatus of example\.controller-scope\.dev\/v1alpha1\/Website/,
    );
    // Nothing in the spec changed: the generation stayed where it was while the status kept moving.
    const s = await site(name);
    expect(s.status?.observedGeneration).toBe(s.metadata.generation);
    expect(s.status?.lastReconcileTime).toBeDefined();
  });
}

async function podTemplateAnnotations(reader: Reader): Promise<Record<string, string>> {
  const d = await reader.get<KubeObject>(Deployment, { namespace: SAMPLE_NAMESPACE, name: 'landing' });
  return (
    (d.spec as { template?: { metadata?: { annotations?: Record<string, string> } } }).template?.metadata
      ?.annotations ?? {}
  );
}
