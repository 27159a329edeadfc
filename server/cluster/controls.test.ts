// ClusterControlsImpl against an in-process sandbox with a fake clock: targets reach the injector, stalls
// and expiries act on the right watches, durations lift faults, clearing by id, refusals with reasons.
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, KubeStatus, WatchEvent } from '../../shared/models/object';
import { RestConfig } from '../runtime/client';
import { FakeClock, flushMicrotasks } from '../runtime/testing/fake-clock';
import type { RunningCluster } from './connect';
import { ClusterControlsImpl, watchTargetOf } from './controls';
import { SandboxServer } from './sandbox';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };
const SECRET = { apiVersion: 'v1', kind: 'Secret' };
const servers: SandboxServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

function cluster(kind: RunningCluster['kind'] = 'sandbox'): {
  c: ClusterControlsImpl;
  s: SandboxServer;
  clock: FakeClock;
} {
  const clock = new FakeClock();
  const s = new SandboxServer({ clock, garbageCollector: false, random: () => 0 });
  servers.push(s);
  const running: RunningCluster = {
    kind,
    name: kind,
    server: 'https://127.0.0.1:6443',
    config: new RestConfig({ kubeConfig: new KubeConfig() }),
    ...(kind === 'sandbox' ? { sandbox: s } : {}),
    stop: async () => undefined,
  };
  return { c: new ClusterControlsImpl(running, true, clock), s, clock };
}

async function watch(s: SandboxServer, ref = CM, namespace?: string) {
  const events: WatchEvent[] = [];
  let ended = false;
  s.store.watch(
    ref,
    { resourceVersion: s.store.resourceVersion, ...(namespace ? { namespace } : {}) },
    (e) => events.push(e),
    () => (ended = true),
  );
  await flushMicrotasks();
  const names = () =>
    events.map((e) =>
      e.type === 'ERROR'
        ? `ERROR ${(e.object as KubeStatus).code}`
        : `${e.type} ${(e.object as KubeObject).metadata.name}`,
    );
  return { names, ended: () => ended };
}

const cm = (name: string, namespace = 'default') => ({ ...CM, metadata: { name, namespace } });

describe('ClusterControlsImpl faults', () => {
  it('refuses faults on envtest and kubeconfig clusters, saying how to get them', () => {
    for (const kind of ['envtest', 'kubeconfig'] as const) {
      const { c } = cluster(kind);
      expect(() => c.injectFault({ kind: 'latency', ms: 100 })).toThrow(
        /needs the embedded sandbox API server.*--sandbox/,
      );
      expect(c.clearFaults()).toBe(0);
    }
  });

  it('hands resource, namespace and verbs to the injector and clears the fault by id', () => {
    const { c, s } = cluster();
    const f = c.injectFault({
      kind: 'latency',
      ms: 300,
      resource: 'configmaps',
      namespace: 'default',
      verbs: ['list'],
    });
    expect(f.description).toBe('+300 ms latency on list of configmaps in namespace default');
    expect(s.faults.activeRules()).toEqual([
      expect.objectContaining({
        kind: 'latency',
        ms: 300,
        resource: 'configmaps',
        namespace: 'default',
        verbs: ['list'],
      }),
    ]);
    const g = c.injectFault({ kind: 'errors', rate: 0.5, code: 503, resource: 'widgets.demo.io' });
    expect(s.faults.activeRules()[1]).toMatchObject({ group: 'demo.io', resource: 'widgets', code: 503 });
    expect(c.activeFaults().map((x) => x.id)).toEqual([f.id, g.id]);
    expect(c.clearFaults(f.id)).toBe(1);
    expect(c.clearFaults(f.id)).toBe(0);
    expect(s.faults.activeRules().map((r) => r.kind)).toEqual(['errors']);
    expect(c.clearFaults()).toBe(1);
    expect(s.faults.snapshot()).toEqual({ rules: [], stalls: [] });
  });

  it('lifts a timed fault by itself and reports when', () => {
    const { c, s, clock } = cluster();
    const f = c.injectFault({ kind: 'conflicts', rate: 1 }, 5000);
    expect(f.until).toBe(clock.now() + 5000);
    expect(c.activeFaults()).toEqual([{ id: f.id, description: f.description, until: f.until }]);
    clock.step(4999);
    expect(s.faults.activeRules()).toHaveLength(1);
    clock.step(1);
    expect(c.activeFaults()).toEqual([]);
    expect(s.faults.activeRules()).toEqual([]);
  });

  it('answers conflicts only on writes', () => {
    const { c, s } = cluster();
    c.injectFault({ kind: 'conflicts', rate: 0.5 });
    c.injectFault({ kind: 'conflicts', rate: 0.5, verbs: ['list'] });
    const only = c.injectFault({ kind: 'conflicts', rate: 0.5, verbs: ['create', 'list'] });
    expect(s.faults.activeRules().map((r) => r.verbs)).toEqual([['update', 'patch'], ['update', 'patch'], ['create']]);
    expect(only.description).toBe('50% of create answered 409 Conflict');
  });

  it('stalls the targeted watches until cleared, then they catch up', async () => {
    const { c, s } = cluster();
    const cms = await watch(s);
    const secrets = await watch(s, SECRET);
    const f = c.injectFault({ kind: 'stallWatches', resource: 'configmaps' });
    expect(f.description).toMatch(/^watches of configmaps stalled \(1 open watch now\)/);
    s.store.create(cm('a'));
    s.store.create({ ...SECRET, metadata: { name: 's', namespace: 'default' } });
    expect(cms.names()).toEqual([]);
    expect(secrets.names()).toEqual(['ADDED s']);
    expect(c.clearFaults(f.id)).toBe(1);
    expect(cms.names()).toEqual(['ADDED a']);
    expect(cms.ended()).toBe(false);
  });

  it('lifts a stall after its duration', async () => {
    const { c, s, clock } = cluster();
    const cms = await watch(s);
    c.injectFault({ kind: 'stallWatches' }, 2000);
    s.store.create(cm('a'));
    clock.step(2000);
    expect(cms.names()).toEqual(['ADDED a']);
    expect(c.activeFaults()).toEqual([]);
  });

  it('expires only the targeted watches with 410, leaving nothing active', async () => {
    const { c, s } = cluster();
    s.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    const inDefault = await watch(s, CM, 'default');
    const inOther = await watch(s, CM, 'other');
    const f = c.injectFault({ kind: 'expireWatches', namespace: 'default' }, 10_000);
    expect(f.description).toMatch(/ended 1 watch in namespace default with 410 Expired/);
    expect(f.until).toBeUndefined();
    expect(inDefault.names()).toEqual(['ERROR 410']);
    expect(inDefault.ended()).toBe(true);
    expect(inOther.ended()).toBe(false);
    expect(c.activeFaults()).toEqual([]);
  });

  it('closes only the targeted watches', async () => {
    const { c, s } = cluster();
    const cms = await watch(s);
    const secrets = await watch(s, SECRET);
    expect(c.injectFault({ kind: 'closeWatches', resource: 'secrets' }).description).toBe(
      'closed 1 open watch of secrets',
    );
    expect(secrets.ended()).toBe(true);
    expect(secrets.names()).toEqual([]);
    expect(cms.ended()).toBe(false);
  });

  it('rejects nonsense with a reason', () => {
    const { c } = cluster();
    expect(() => c.injectFault({ kind: 'latency', ms: 0 })).toThrow(/latency must be 1..60000 ms/);
    expect(() => c.injectFault({ kind: 'errors', rate: 1, code: 200 })).toThrow(/4xx\/5xx/);
    expect(() => c.injectFault({ kind: 'errors', rate: 0, code: 500 })).toThrow(/error rate/);
    expect(() => c.injectFault({ kind: 'stallWatches', verbs: ['list'] })).toThrow(/acts on watches/);
    expect(c.activeFaults()).toEqual([]);
  });

  it('fails targeted requests over HTTP and lets the rest through', async () => {
    const { c, s } = cluster();
    const { url } = await s.start();
    c.injectFault({
      kind: 'errors',
      rate: 1,
      code: 503,
      resource: 'configmaps',
      namespace: 'default',
      verbs: ['list'],
    });
    const list = await fetch(`${url}/api/v1/namespaces/default/configmaps`);
    expect([list.status, ((await list.json()) as KubeStatus).reason]).toEqual([503, 'ServiceUnavailable']);
    expect((await fetch(`${url}/api/v1/namespaces/kube-system/configmaps`)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/namespaces/default/secrets`)).status).toBe(200);
    c.clearFaults();
    expect((await fetch(`${url}/api/v1/namespaces/default/configmaps`)).status).toBe(200);
  });
});

describe('watchTargetOf', () => {
  it('splits group from resource the way kubectl spells it', () => {
    expect(watchTargetOf({ resource: 'pods' })).toEqual({ resource: 'pods' });
    expect(watchTargetOf({ resource: 'deployments.apps', namespace: 'x' })).toEqual({
      resource: 'deployments',
      group: 'apps',
      namespace: 'x',
    });
    expect(watchTargetOf({ resource: ' ', namespace: '' })).toEqual({});
  });
});
