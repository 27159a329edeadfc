// The oracle's TypeScript controller, as `controller-scope run` takes it: "mirror" reconciles ConfigMaps in
// the oracle's namespaces into an owned Secret, and the labels and annotations the workload sets make it
// fail, requeue, conflict and hot-loop on purpose. Every write it makes is logged, with the version the
// server gave it, to TRUTH_LOG: the ground truth the oracle reads, kept apart from the probe stream.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import {
  isAlreadyExists,
  isNotFound,
  newControllerManagedBy,
  setControllerReference,
  type KubeObject,
  type Manager,
  type ReconcileContext,
  type Request,
  type Result,
} from 'controller-scope';
import { BEHAVIOUR, desiredSecret, secretName, type TruthRecord } from '../oracle/behaviour';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const Secret = { apiVersion: 'v1', kind: 'Secret' } as const;
const LOG = process.env['TRUTH_LOG'];

function log(rec: TruthRecord): void {
  if (LOG) appendFileSync(LOG, `${JSON.stringify(rec)}\n`);
}

export default async function setup(mgr: Manager): Promise<void> {
  const generation = randomUUID();
  log({ kind: 'setup', generation, ts: Date.now() });
  const client = mgr.getClient();
  const reader = mgr.getAPIReader();
  /** Reconciles per key that failed in a row, and requeues given per key: the planned behaviours count them. */
  const failures = new Map<string, number>();
  const requeues = new Map<string, number>();

  const wrote = (ctx: ReconcileContext, verb: string, obj: KubeObject, key: string): void =>
    log({
      kind: 'write',
      generation,
      controller: BEHAVIOUR.controller,
      verb,
      namespace: obj.metadata.namespace ?? '',
      name: obj.metadata.name ?? '',
      uid: obj.metadata.uid ?? '',
      resourceVersion: verb === 'delete' ? '' : (obj.metadata.resourceVersion ?? ''),
      key,
      reconcileId: ctx.reconcileID,
      ts: Date.now(),
    });

  async function reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const key = `${req.namespace}/${req.name}`;
    const started = Date.now();
    log({
      kind: 'reconcile',
      generation,
      controller: BEHAVIOUR.controller,
      key,
      phase: 'start',
      reconcileId: ctx.reconcileID,
      ts: started,
    });
    let outcome = 'success';
    const read: { cmRv?: string; secretRv?: string } = {};
    try {
      const r = await pass(ctx, req, key, read);
      if (r.requeueAfterMs) outcome = 'requeueAfter';
      failures.delete(key);
      return r.requeueAfterMs ? { requeueAfterMs: r.requeueAfterMs } : {};
    } catch (err) {
      outcome = 'error';
      failures.set(key, (failures.get(key) ?? 0) + 1);
      throw err;
    } finally {
      log({
        kind: 'reconcile',
        generation,
        controller: BEHAVIOUR.controller,
        key,
        phase: 'end',
        outcome,
        reconcileId: ctx.reconcileID,
        cmRv: read.cmRv ?? '',
        secretRv: read.secretRv ?? '',
        ts: Date.now(),
      });
    }
  }

  async function pass(
    ctx: ReconcileContext,
    req: Request,
    key: string,
    read: { cmRv?: string; secretRv?: string },
  ): Promise<{ requeueAfterMs?: number }> {
    let cm: KubeObject;
    try {
      cm = await client.get(ConfigMap, { namespace: req.namespace, name: req.name });
    } catch (err) {
      if (isNotFound(err)) return {};
      throw err;
    }
    read.cmRv = cm.metadata.resourceVersion ?? '';
    // Only the oracle's objects: the cluster's own ConfigMaps (kube-root-ca.crt…) are reconciled to nothing.
    if (cm.metadata.labels?.[BEHAVIOUR.seedLabel] === undefined) return {};
    const a = cm.metadata.annotations ?? {};
    const planned = Number(a[BEHAVIOUR.failAnnotation] ?? 0);
    if ((failures.get(key) ?? 0) < planned)
      throw new Error(`planned failure ${(failures.get(key) ?? 0) + 1} of ${planned}`);
    read.secretRv = await ensureSecret(ctx, cm, key);
    if (cm.metadata.labels?.[BEHAVIOUR.loopLabel] === 'true') await tick(ctx, cm, key);
    const after = Number(a[BEHAVIOUR.requeueAnnotation] ?? 0);
    const given = requeues.get(key) ?? 0;
    if (after > 0 && given < BEHAVIOUR.maxRequeues) {
      requeues.set(key, given + 1);
      return { requeueAfterMs: after };
    }
    return {};
  }

  /** Returns the Secret's version as the pass read it ('' when it was missing). */
  async function ensureSecret(ctx: ReconcileContext, cm: KubeObject, key: string): Promise<string> {
    const want = desiredSecret(cm);
    setControllerReference(cm, want);
    let have: KubeObject | undefined;
    try {
      // The API reader: a controller that read its own create back from a cache that has not seen it yet
      // would try to create it again (a classic bug the oracle does not plant).
      have = await reader.get(Secret, { namespace: cm.metadata.namespace ?? '', name: secretName(cm) });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    if (!have) {
      try {
        wrote(ctx, 'create', await client.create(want), key);
        return '';
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        return '';
      }
    }
    const same = JSON.stringify(have.data ?? {}) === JSON.stringify(want.data ?? {});
    if (same) return have.metadata.resourceVersion ?? '';
    // From the version read: a conflict (someone wrote in between) fails the reconcile and it retries.
    wrote(ctx, 'update', await client.update({ ...have, data: want.data }), key);
    return have.metadata.resourceVersion ?? '';
  }

  /** A hot loop on purpose: every pass writes a new tick, whose event wakes the key again, up to maxTicks. */
  async function tick(ctx: ReconcileContext, cm: KubeObject, key: string): Promise<void> {
    const n = Number(cm.metadata.annotations?.[BEHAVIOUR.tickAnnotation] ?? 0);
    if (n >= BEHAVIOUR.maxTicks) return;
    const next = {
      ...cm,
      metadata: {
        ...cm.metadata,
        annotations: { ...cm.metadata.annotations, [BEHAVIOUR.tickAnnotation]: String(n + 1) },
      },
    };
    wrote(ctx, 'update', await client.update(next), key);
  }

  await newControllerManagedBy(mgr).named(BEHAVIOUR.controller).for(ConfigMap).owns(Secret).complete({ reconcile });
}
