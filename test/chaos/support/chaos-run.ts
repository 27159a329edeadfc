// One chaos run: a fresh manager whose informers reach the server through the fault proxy, one controller
// per kind recording the resourceVersion it last reconciled per key (read from the cache, as a real
// reconciler would), seeded churn written straight to the server, and seeded faults in between. Then
// every fault is lifted and the run must quiesce: each informer's cache equal to a fresh LIST, every key
// reconciled at its listed resourceVersion (or seen gone, if deleted), no worker busy or lost, no
// unhandled rejection. A run that does not quiesce in time is a divergence, reported with what differs.
import type { KubeObject } from '../../../shared/models/object';
import {
  isNotFound,
  newControllerManagedBy,
  newManager,
  newRegistry,
  reconcileFunc,
  requestKey,
} from '../../../server/runtime';
import type { Client, Controller, Manager } from '../../../server/runtime';
import { getConfig } from '../../../server/runtime';
import type { ChaosTarget } from './chaos-targets';
import { TcpFaultProxy } from './tcp-proxy';
import { prng } from '../../../shared/prng';

export interface Kind {
  apiVersion: string;
  kind: string;
  body: (i: number) => Record<string, unknown>;
}

export const WIDGET_GROUP = 'chaos.controller-scope.dev';
export const KINDS: Kind[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', body: (i) => ({ data: { i: `${i}` } }) },
  { apiVersion: 'v1', kind: 'Secret', body: (i) => ({ stringData: { i: `${i}` } }) },
  { apiVersion: `${WIDGET_GROUP}/v1`, kind: 'Widget', body: (i) => ({ spec: { i } }) },
];
const NAMES = ['a', 'b', 'c', 'd', 'e'];

export type Fault = 'stall' | 'reset' | 'slow' | 'cut' | 'compact' | 'apiserver-kill';

export interface RunResult {
  seed: number;
  faults: Record<Fault, number>;
  writes: number;
  failedWrites: number;
  divergences: string[];
  ms: number;
}

function pick<T>(xs: readonly T[], rnd: () => number): T {
  const x = xs[Math.floor(rnd() * xs.length)];
  if (x === undefined) throw new Error('pick from an empty list');
  return x;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const kindId = (k: { apiVersion: string; kind: string }) => `${k.apiVersion}/${k.kind}`;
const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** The Widget CRD, created once per target and waited for until it is served. */
export async function installWidgetCrd(client: Client): Promise<void> {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${WIDGET_GROUP}` },
    spec: {
      group: WIDGET_GROUP,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
  await client.create(crd as unknown as KubeObject);
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await client.list({ apiVersion: `${WIDGET_GROUP}/v1`, kind: 'Widget' });
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await sleep(100);
    }
  }
}

export interface RunOptions {
  target: ChaosTarget;
  seed: number;
  /** Churn steps per run. */
  steps?: number;
  /** Allow kube-apiserver SIGKILL/restart (envtest only). */
  restarts?: boolean;
  /** How long the run may take to quiesce before it counts as divergent. */
  quiesceMs?: number;
}

/** Last reconciled resourceVersion per kind and key; 'gone' when the reconcile found no object. */
type Seen = Map<string, Map<string, string>>;

async function startManager(
  kubeconfig: string,
  seen: Seen,
): Promise<{ mgr: Manager; controllers: Controller[]; stop: () => Promise<void> }> {
  // A registry per manager: controller names are unique per registry, and every run reuses the same names.
  const mgr = newManager(getConfig({ kubeconfig, argv: [], env: {} }), {
    gracefulShutdownTimeoutMs: 5_000,
    registry: newRegistry(false),
  });
  for (const k of KINDS) {
    const id = kindId(k);
    const record = new Map<string, string>();
    seen.set(id, record);
    const client = mgr.getClient();
    await newControllerManagedBy(mgr)
      .named(`chaos-${k.kind.toLowerCase()}`)
      .for({ apiVersion: k.apiVersion, kind: k.kind })
      .withOptions({ maxConcurrentReconciles: 2 })
      .complete(
        reconcileFunc(async (_ctx, req) => {
          try {
            const obj = await client.get({ apiVersion: k.apiVersion, kind: k.kind }, req);
            record.set(requestKey(req), obj.metadata.resourceVersion ?? '');
          } catch (err) {
            if (!isNotFound(err)) throw err;
            record.set(requestKey(req), 'gone');
          }
          return {};
        }),
      );
  }
  const ac = new AbortController();
  const running = mgr.start(ac.signal);
  return {
    mgr,
    controllers: mgr.getControllers(),
    stop: async () => {
      ac.abort();
      await running;
    },
  };
}

async function churn(target: ChaosTarget, ns: string, rnd: () => number, i: number): Promise<boolean> {
  const k = pick(KINDS, rnd);
  const name = pick(NAMES, rnd);
  const type = { apiVersion: k.apiVersion, kind: k.kind };
  const c = target.direct;
  try {
    const cur = await c.get(type, { namespace: ns, name }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!cur) await c.create({ ...type, metadata: { namespace: ns, name }, ...k.body(i) } as KubeObject);
    else if (rnd() < 0.25) await c.delete(cur);
    else await c.update({ ...cur, ...k.body(i) } as KubeObject);
    return true;
  } catch {
    // Conflicts, or the apiserver down mid-restart: a write that did not happen is not a change.
    return false;
  }
}

/** What differs between the caches, a fresh LIST and the reconciled versions; empty when they agree. */
async function compare(target: ChaosTarget, mgr: Manager, controllers: Controller[], seen: Seen): Promise<string[]> {
  const out: string[] = [];
  for (const k of KINDS) {
    const id = kindId(k);
    const fresh = new Map(
      (await target.direct.list({ apiVersion: k.apiVersion, kind: k.kind })).items.map((o) => [
        keyOf(o),
        o.metadata.resourceVersion ?? '',
      ]),
    );
    const informer = await mgr.getCache().getInformer({ apiVersion: k.apiVersion, kind: k.kind });
    const cached = new Map(
      informer
        .getIndexer()
        .list()
        .map((o) => [keyOf(o), o.metadata.resourceVersion ?? '']),
    );
    for (const [key, rv] of fresh) {
      if (cached.get(key) !== rv) out.push(`${id} ${key}: cache rv ${cached.get(key) ?? 'missing'}, LIST rv ${rv}`);
      const r = seen.get(id)?.get(key);
      if (r !== rv) out.push(`${id} ${key}: last reconciled at ${r ?? 'never'}, LIST rv ${rv}`);
    }
    for (const key of cached.keys()) if (!fresh.has(key)) out.push(`${id} ${key}: in cache, not in LIST`);
    for (const [key, r] of seen.get(id) ?? [])
      if (!fresh.has(key) && r !== 'gone') out.push(`${id} ${key}: deleted, last reconciled at ${r}`);
  }
  for (const c of controllers) {
    if (c.activeWorkers() !== 0) out.push(`${c.name}: ${c.activeWorkers()} workers still busy`);
    const q = c.getQueue();
    if (!q) out.push(`${c.name}: no queue (controller not running)`);
    else if (q.len() !== 0) out.push(`${c.name}: ${q.len()} items still queued`);
  }
  return out;
}

async function waitSynced(mgr: Manager): Promise<void> {
  const until = Date.now() + 30_000;
  for (const k of KINDS) {
    const informer = await mgr.getCache().getInformer({ apiVersion: k.apiVersion, kind: k.kind });
    while (!informer.hasSynced()) {
      if (Date.now() > until) throw new Error(`${kindId(k)} informer did not sync through the proxy`);
      await sleep(20);
    }
  }
}

export async function chaosRun(opts: RunOptions): Promise<RunResult> {
  const t0 = Date.now();
  const { target, seed } = opts;
  const rnd = prng(seed);
  const faults: Record<Fault, number> = { stall: 0, reset: 0, slow: 0, cut: 0, compact: 0, 'apiserver-kill': 0 };
  const ns = `chaos-${seed >>> 0}-${Math.floor(rnd() * 1e6)}`;
  await target.direct.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } as KubeObject);
  const proxy = new TcpFaultProxy({
    targetPort: target.port,
    random: prng(seed ^ 0x5bd1e995),
    ...(target.hostHeader !== undefined ? { rewriteHost: target.hostHeader } : {}),
  });
  await proxy.start();
  const scheme = target.name === 'envtest' ? 'https' : 'http';
  const seen: Seen = new Map();
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  const { mgr, controllers, stop } = await startManager(
    target.kubeconfigFor(`${scheme}://127.0.0.1:${proxy.port}`),
    seen,
  );
  let writes = 0;
  let failedWrites = 0;
  const divergences: string[] = [];
  try {
    await waitSynced(mgr);
    const steps = opts.steps ?? 30;
    let restartsLeft = opts.restarts && target.killApiServer ? 1 : 0;
    // While it is down the runtime's requests fail and the churn's writes fail too (counted, not changes).
    const restart = async (i: number) => {
      faults['apiserver-kill']++;
      await target.killApiServer?.();
      await sleep(Math.floor(rnd() * 400));
      if (await churn(target, ns, rnd, i)) writes++;
      else failedWrites++;
      await target.startApiServer?.();
    };
    for (let i = 0; i < steps; i++) {
      const r = rnd();
      if (r < 0.6) {
        if (await churn(target, ns, rnd, i)) writes++;
        else failedWrites++;
      } else if (r < 0.68) {
        proxy.stall();
        faults.stall++;
        await sleep(20 + Math.floor(rnd() * 300));
        proxy.resume();
      } else if (r < 0.76) {
        proxy.reset();
        faults.reset++;
      } else if (r < 0.84) {
        proxy.slow(5 + Math.floor(rnd() * 60));
        faults.slow++;
        const lift = 50 + Math.floor(rnd() * 300);
        setTimeout(() => proxy.slow(0), lift);
      } else if (r < 0.92) {
        proxy.cut();
        faults.cut++;
      } else if (r < 0.97 || restartsLeft === 0) {
        await target.compact();
        faults.compact++;
      } else {
        restartsLeft--;
        await restart(i);
      }
      await sleep(Math.floor(rnd() * 30));
    }
    // Every run on a target that can restart takes at least one, so "N runs with SIGKILL" means N.
    if (restartsLeft > 0) {
      await restart(steps);
      for (let i = 0; i < 3; i++) if (await churn(target, ns, rnd, steps + i)) writes++;
    }
    proxy.clear();
    const until = Date.now() + (opts.quiesceMs ?? 60_000);
    let last: string[] = [];
    for (;;) {
      last = await compare(target, mgr, controllers, seen).catch((err: unknown) => [`compare failed: ${String(err)}`]);
      if (last.length === 0 || Date.now() > until) break;
      await sleep(100);
    }
    divergences.push(...last);
  } finally {
    await stop();
    await proxy.stop();
    process.off('unhandledRejection', onRejection);
  }
  for (const r of rejections) divergences.push(`unhandled rejection: ${r instanceof Error ? r.stack : String(r)}`);
  return { seed, faults, writes, failedWrites, divergences, ms: Date.now() - t0 };
}
