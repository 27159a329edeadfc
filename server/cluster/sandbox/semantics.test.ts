// Server semantics through the in-process store (no HTTP): create/update/delete rules of §5.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../../runtime/testing/fake-clock';
import { SandboxServer } from './server';
import { StatusError } from './status-errors';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };
const DEPLOY = { apiVersion: 'apps/v1', kind: 'Deployment' };
/** A Deployment spec kube-apiserver accepts: a selector that selects the template. */
const deploySpec = (replicas: number): Record<string, unknown> => ({
  replicas,
  selector: { matchLabels: { a: 'b' } },
  template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
});
const servers: SandboxServer[] = [];

function sandbox(opts: { garbageCollector?: boolean } = {}): { s: SandboxServer; clock: FakeClock } {
  const clock = new FakeClock();
  const s = new SandboxServer({ clock, ...opts });
  servers.push(s);
  return { s, clock };
}

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

function expectStatus(fn: () => unknown, code: number, reason: string, message?: string | RegExp): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).code).toBe(code);
    expect((e as StatusError).reason).toBe(reason);
    if (message !== undefined) expect((e as StatusError).message).toMatch(message);
    return;
  }
  expect.unreachable(`expected ${code} ${reason}`);
}

describe('create', () => {
  it('sets uid, creationTimestamp, resourceVersion; generation only for kinds that track it', () => {
    const { s } = sandbox();
    const cm = s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    expect(cm.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(cm.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(Number(cm.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(cm.metadata.generation).toBeUndefined();
    const d = s.store.create({
      ...DEPLOY,
      metadata: { name: 'd', namespace: 'default' },
      spec: { ...deploySpec(1), replicas: undefined },
    });
    expect(d.metadata.generation).toBe(1);
    expect((d.spec as { replicas: number }).replicas).toBe(1);
  });

  it('creates the system namespaces at start', () => {
    const { s } = sandbox();
    expect(s.store.list({ group: '', resource: 'namespaces' }).map((n) => n.metadata.name)).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
    const ns = s.store.get({ apiVersion: 'v1', kind: 'Namespace' }, 'default') as KubeObject;
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'default' });
  });

  it('generateName appends five characters from the upstream alphabet', () => {
    const { s } = sandbox();
    const cm = s.store.create({ ...CM, metadata: { generateName: 'gen-', namespace: 'default' } });
    expect(cm.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('rejects duplicates, missing namespaces, preset resourceVersions and bad names', () => {
    const { s } = sandbox();
    s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    expectStatus(
      () => s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } }),
      409,
      'AlreadyExists',
      'configmaps "a" already exists',
    );
    expectStatus(
      () => s.store.create({ ...CM, metadata: { name: 'a', namespace: 'nope' } }),
      404,
      'NotFound',
      'namespaces "nope" not found',
    );
    expectStatus(
      () => s.store.create({ ...CM, metadata: { name: 'b', namespace: 'default', resourceVersion: '5' } }),
      500,
      '',
      'resourceVersion should not be set on objects to be created',
    );
    expectStatus(
      () => s.store.create({ ...CM, metadata: { name: 'Bad_Name', namespace: 'default' } }),
      422,
      'Invalid',
      /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value/,
    );
    expectStatus(
      () => s.store.create({ ...CM, metadata: { namespace: 'default' } }),
      422,
      'Invalid',
      'name or generateName is required',
    );
  });
});

describe('update', () => {
  it('409s on a stale resourceVersion and keeps the RV on a no-op', () => {
    const { s } = sandbox();
    const a = s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' }, data: { v: '1' } });
    const b = s.store.update({ ...a, data: { v: '2' } });
    expect(Number(b.metadata.resourceVersion)).toBeGreaterThan(Number(a.metadata.resourceVersion));
    expectStatus(() => s.store.update({ ...a, data: { v: '3' } }), 409, 'Conflict', /the object has been modified/);
    const same = s.store.update(b);
    expect(same.metadata.resourceVersion).toBe(b.metadata.resourceVersion);
  });

  it('restores system fields and refuses a different uid', () => {
    const { s } = sandbox();
    const a = s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    const b = s.store.update({
      ...a,
      metadata: { ...a.metadata, creationTimestamp: '2000-01-01T00:00:00Z', generation: 7 },
      data: { x: '1' },
    });
    expect(b.metadata.creationTimestamp).toBe(a.metadata.creationTimestamp);
    expect(b.metadata.generation).toBeUndefined();
    // Like a PUT, a uid in the body is a storage precondition (kube-apiserver answers 409, conformance suite).
    expectStatus(
      () => s.store.update({ ...b, metadata: { ...b.metadata, uid: 'other' } }),
      409,
      'Conflict',
      /Precondition failed: UID in precondition: other/,
    );
  });

  it('bumps Deployment generation on spec or annotation changes, never on status', () => {
    const { s } = sandbox();
    const d = s.store.create({ ...DEPLOY, metadata: { name: 'd', namespace: 'default' }, spec: deploySpec(1) });
    const d2 = s.store.update({ ...d, spec: { ...(d.spec as object), replicas: 2 } });
    expect(d2.metadata.generation).toBe(2);
    const d3 = s.store.update({ ...d2, metadata: { ...d2.metadata, annotations: { a: 'b' } } });
    expect(d3.metadata.generation).toBe(3);
    const d4 = s.store.update({ ...d3, metadata: { ...d3.metadata, labels: { a: 'b' } } });
    expect(d4.metadata.generation).toBe(3);
    const d5 = s.store.updateStatus({ ...d4, status: { replicas: 2 }, spec: { replicas: 99 } });
    expect(d5.metadata.generation).toBe(3);
    expect(d5.status).toEqual({ replicas: 2 });
    expect((d5.spec as { replicas: number }).replicas).toBe(2);
    const d6 = s.store.update({ ...d5, status: { replicas: 0 } });
    expect(d6.status).toEqual({ replicas: 2 });
  });

  it('creates Leases on update but not ConfigMaps', () => {
    const { s } = sandbox();
    const lease = s.store.update({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', namespace: 'default' },
      spec: { holderIdentity: 'me' },
    });
    expect(lease.metadata.uid).toBeDefined();
    expectStatus(() => s.store.update({ ...CM, metadata: { name: 'nope', namespace: 'default' } }), 404, 'NotFound');
  });
});

describe('delete and finalizers', () => {
  it('holds an object with finalizers until the last one is removed', () => {
    const { s } = sandbox();
    const a = s.store.create({
      ...CM,
      metadata: { name: 'a', namespace: 'default', finalizers: ['example.com/hold'] },
    });
    const r = s.store.delete(CM, 'a', 'default');
    expect(r.removed).toBe(false);
    const held = s.store.get(CM, 'a', 'default') as KubeObject;
    expect(held.metadata.deletionTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(held.metadata.deletionGracePeriodSeconds).toBe(0);
    expectStatus(
      () => s.store.update({ ...held, metadata: { ...held.metadata, finalizers: ['example.com/hold', 'x/y'] } }),
      422,
      'Invalid',
      /no new finalizers can be added/,
    );
    s.store.update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    expect(s.store.get(CM, 'a', 'default')).toBeUndefined();
    expect(a.metadata.uid).toBeDefined();
  });

  it('checks uid and resourceVersion preconditions', () => {
    const { s } = sandbox();
    s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    expectStatus(
      () => s.store.delete(CM, 'a', 'default', { preconditions: { uid: 'x' } }),
      409,
      'Conflict',
      /Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition \(x\)/,
    );
  });

  it('answers a Success Status for configmaps and the object for pods', () => {
    const { s } = sandbox();
    const cm = s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    expect(s.store.delete(CM, 'a', 'default').body).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'a', kind: 'configmaps', uid: cm.metadata.uid },
    });
    s.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    });
    expect(s.store.delete({ apiVersion: 'v1', kind: 'Pod' }, 'p', 'default').body).toMatchObject({
      kind: 'Pod',
      metadata: { name: 'p' },
    });
  });

  it('keeps scheduled pods terminating for their grace period', () => {
    const { s } = sandbox();
    const POD = { apiVersion: 'v1', kind: 'Pod' };
    s.store.create({
      ...POD,
      metadata: { name: 'p', namespace: 'default' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
    });
    const r = s.store.delete(POD, 'p', 'default');
    expect(r.removed).toBe(false);
    expect((r.body as KubeObject).metadata.deletionGracePeriodSeconds).toBe(30);
    expect((r.body as KubeObject).metadata.deletionTimestamp).toBe('2026-01-01T00:00:30Z');
    expect(s.store.delete(POD, 'p', 'default', { gracePeriodSeconds: 0 }).removed).toBe(true);
  });

  it('protects system namespaces and leaves deleted namespaces Terminating until emptied', async () => {
    const { s } = sandbox();
    const NS = { apiVersion: 'v1', kind: 'Namespace' };
    expectStatus(
      () => s.store.delete(NS, 'default'),
      403,
      'Forbidden',
      'namespaces "default" is forbidden: this namespace may not be deleted',
    );
    s.store.create({ ...NS, metadata: { name: 'tmp' } });
    s.store.create({ ...CM, metadata: { name: 'a', namespace: 'tmp' } });
    const r = s.store.delete(NS, 'tmp');
    expect((r.body as KubeObject).status).toEqual({ phase: 'Terminating' });
    expectStatus(
      () => s.store.create({ ...CM, metadata: { name: 'b', namespace: 'tmp' } }),
      403,
      'Forbidden',
      /because it is being terminated/,
    );
    for (let i = 0; i < 5; i++) await flushMicrotasks();
    expect(s.store.get(NS, 'tmp')).toBeUndefined();
    expect(s.store.list(CM, { namespace: 'tmp' })).toEqual([]);
  });
});

describe('garbage collection', () => {
  const owner = (s: SandboxServer) =>
    s.store.create({ ...DEPLOY, metadata: { name: 'owner', namespace: 'default' }, spec: deploySpec(1) });
  const dependent = (s: SandboxServer, o: KubeObject, name: string, block = false) =>
    s.store.create({
      ...CM,
      metadata: {
        name,
        namespace: 'default',
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'owner',
            uid: o.metadata.uid as string,
            ...(block ? { blockOwnerDeletion: true } : {}),
          },
        ],
      },
    });
  const settle = async () => {
    for (let i = 0; i < 8; i++) await flushMicrotasks();
  };

  it('Background: deletes dependents after the owner is gone', async () => {
    const { s } = sandbox();
    const o = owner(s);
    dependent(s, o, 'd1');
    s.store.delete(DEPLOY, 'owner', 'default', { propagationPolicy: 'Background' });
    expect(s.store.get(DEPLOY, 'owner', 'default')).toBeUndefined();
    await settle();
    expect(s.store.get(CM, 'd1', 'default')).toBeUndefined();
  });

  it('Orphan: strips owner references and keeps dependents', async () => {
    const { s } = sandbox();
    const o = owner(s);
    dependent(s, o, 'd1');
    s.store.delete(DEPLOY, 'owner', 'default', { propagationPolicy: 'Orphan' });
    await settle();
    expect(s.store.get(DEPLOY, 'owner', 'default')).toBeUndefined();
    const d = s.store.get(CM, 'd1', 'default') as KubeObject;
    expect(d.metadata.ownerReferences).toBeUndefined();
  });

  it('Foreground: the owner waits with foregroundDeletion until blocking dependents are gone', async () => {
    const { s } = sandbox();
    const o = owner(s);
    dependent(s, o, 'd1', true);
    const r = s.store.delete(DEPLOY, 'owner', 'default', { propagationPolicy: 'Foreground' });
    expect((r.body as KubeObject).metadata.finalizers).toEqual(['foregroundDeletion']);
    await settle();
    expect(s.store.get(CM, 'd1', 'default')).toBeUndefined();
    expect(s.store.get(DEPLOY, 'owner', 'default')).toBeUndefined();
  });

  it('keeps a dependent that still has a live owner', async () => {
    const { s } = sandbox();
    const o = owner(s);
    const other = s.store.create({ ...CM, metadata: { name: 'other', namespace: 'default' } });
    s.store.create({
      ...CM,
      metadata: {
        name: 'd1',
        namespace: 'default',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'owner', uid: o.metadata.uid as string },
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: other.metadata.uid as string },
        ],
      },
    });
    s.store.delete(DEPLOY, 'owner', 'default');
    await settle();
    expect(s.store.get(CM, 'd1', 'default')).toBeDefined();
  });
});

describe('built-in defaults', () => {
  it('defaults pods like kube-apiserver with its default admission plugins', () => {
    const { s } = sandbox();
    const pod = s.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'img:1', resources: { limits: { cpu: '1', memory: '1Gi' } } }] },
    });
    expect(pod.spec).toMatchObject({
      restartPolicy: 'Always',
      enableServiceLinks: true,
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    });
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    const burst = s.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'b', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'img', resources: { requests: { cpu: '1' } } }] },
    });
    expect((burst.status as { qosClass: string }).qosClass).toBe('Burstable');
  });

  it('allocates service ClusterIPs and folds secret stringData into data', () => {
    const { s } = sandbox();
    const svc = s.store.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'default' },
      spec: { ports: [{ port: 80 }] },
    });
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    });
    const headless = s.store.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'h', namespace: 'default' },
      spec: { clusterIP: 'None' },
    });
    expect((headless.spec as { clusterIP: string }).clusterIP).toBe('None');
    const secret = s.store.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'x', namespace: 'default' },
      stringData: { p: 'pw' },
    });
    expect(secret.data).toEqual({ p: Buffer.from('pw').toString('base64') });
    expect(secret).not.toHaveProperty('stringData');
    expect(secret.type).toBe('Opaque');
  });
});

describe('events', () => {
  it('serves core and events.k8s.io Events from one storage under their own field names', async () => {
    const { s } = sandbox();
    const CORE = { apiVersion: 'v1', kind: 'Event' };
    const NEW = { apiVersion: 'events.k8s.io/v1', kind: 'Event' };
    const seen: string[] = [];
    s.store.watch(CORE, { namespace: 'default', resourceVersion: s.store.resourceVersion }, (e) =>
      seen.push(`${e.type} ${(e.object as KubeObject).metadata.name}`),
    );
    await flushMicrotasks();
    s.store.create({
      ...NEW,
      metadata: { name: 'e1', namespace: 'default' },
      regarding: { kind: 'Pod', name: 'p' },
      note: 'hello',
      reason: 'Started',
      type: 'Normal',
      reportingController: 'me',
      eventTime: '2026-01-01T00:00:00.000000Z',
    });
    const core = s.store.get(CORE, 'e1', 'default') as KubeObject;
    expect(core).toMatchObject({
      apiVersion: 'v1',
      involvedObject: { kind: 'Pod', name: 'p' },
      message: 'hello',
      reportingComponent: 'me',
    });
    expect(core).not.toHaveProperty('note');
    s.store.create({
      ...CORE,
      metadata: { name: 'e2', namespace: 'default' },
      involvedObject: { name: 'q' },
      message: 'm',
      count: 2,
    });
    const listed = s.store.list(NEW, { namespace: 'default' });
    expect(listed.map((e) => [e.metadata.name, e.note, e.deprecatedCount ?? null])).toEqual([
      ['e1', 'hello', null],
      ['e2', 'm', 2],
    ]);
    expect(seen).toEqual(['ADDED e1', 'ADDED e2']);
  });

  it("finds an events.k8s.io Event by core's source= through its reporting controller", () => {
    const { s } = sandbox();
    const CORE = { apiVersion: 'v1', kind: 'Event' };
    s.store.create({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'new', namespace: 'default' },
      regarding: { kind: 'Pod', name: 'p' },
      reason: 'Started',
      type: 'Normal',
      reportingController: 'kubelet',
      reportingInstance: 'node-1',
      action: 'Start',
      eventTime: '2026-01-01T00:00:00.000000Z',
    });
    s.store.create({ ...CORE, metadata: { name: 'old', namespace: 'default' }, source: { component: 'kubelet' } });
    s.store.create({
      ...CORE,
      metadata: { name: 'both', namespace: 'default' },
      source: { component: 'scheduler' },
      reportingComponent: 'kubelet',
    });
    const names = (fs: string) =>
      s.store.list(CORE, { namespace: 'default', fieldSelector: fs }).map((e) => e.metadata.name);
    expect(names('source=kubelet')).toEqual(['new', 'old']);
    // source.component, when set, is the one matched.
    expect(names('source=scheduler')).toEqual(['both']);
  });
});
