// The kube-controller-manager and apiextensions controllers the sandbox runs in-process, reduced to
// their effect on stored objects: the garbage collector (kubernetes pkg/controller/garbagecollector),
// the namespace deleter (pkg/controller/namespace/deletion) and CRD instance cleanup
// (apiextensions-apiserver pkg/controller/finalizer/crd_finalizer.go).
import type { KubeObject } from '../../../shared/models/object';
import type { SandboxContext } from './context';
import { CRD_CLEANUP_FINALIZER, removeCrdTypes } from './crds';
import { deleteObject, FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './delete';
import { NAMESPACE_FINALIZER, namespaceFinalizers } from './namespaces';
import type { ResourceType } from './resources';
import { grKey, objectKey } from './storage';
import { commitUpdate } from './update';
import type { WatchHub } from './watch-hub';

export interface ControllersOptions {
  /** Run the garbage collector (ownerReferences cascade); default true. */
  garbageCollector?: boolean;
}

interface Entry {
  type: ResourceType;
  obj: KubeObject;
}

const CRD_GR = grKey('apiextensions.k8s.io', 'customresourcedefinitions');
const NS_GR = grKey('', 'namespaces');

export class BuiltinControllers {
  private scheduled = false;
  private stopped = false;
  private readonly gc: boolean;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly hub: WatchHub,
    opts: ControllersOptions = {},
  ) {
    this.gc = opts.garbageCollector ?? true;
  }

  /** Coalesces requests into one sweep on the next turn of the event loop. */
  kick(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.sweep();
    });
  }

  stop(): void {
    this.stopped = true;
  }

  /** One pass of every controller; writes it makes kick another pass until nothing changes. */
  sweep(): void {
    this.syncCrds();
    this.syncNamespaces();
    if (this.gc) this.collectGarbage();
  }

  private all(): Entry[] {
    const out: Entry[] = [];
    for (const gr of this.ctx.storage.groupResources()) {
      const i = gr.indexOf('/');
      const type = this.ctx.registry.getByGroupResource(gr.slice(0, i), gr.slice(i + 1));
      if (!type) continue;
      for (const obj of this.ctx.storage.list(gr).items) out.push({ type, obj });
    }
    return out;
  }

  private tryDelete(type: ResourceType, obj: KubeObject, policy?: 'Foreground' | 'Background'): void {
    try {
      deleteObject(this.ctx, type, obj.metadata.namespace, obj.metadata.name ?? '', {
        ...(policy ? { propagationPolicy: policy } : {}),
        preconditions: { uid: obj.metadata.uid ?? '' },
      });
    } catch {
      // Gone or changed meanwhile; the next pass sees the new state.
    }
  }

  private update(type: ResourceType, obj: KubeObject, mutate: (o: KubeObject) => void, sub?: 'finalize'): void {
    const next = structuredClone(obj);
    mutate(next);
    try {
      commitUpdate(this.ctx, type, obj, next, {}, sub);
    } catch {
      // Conflicts resolve on the next pass.
    }
  }

  private syncCrds(): void {
    const crdType = this.ctx.registry.getByGroupResource('apiextensions.k8s.io', 'customresourcedefinitions');
    if (!crdType) return;
    const live = new Set<string>();
    for (const crd of this.ctx.storage.list(CRD_GR).items) {
      const name = crd.metadata.name ?? '';
      live.add(name);
      if (!crd.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) continue;
      const served = this.ctx.registry.all().find((t) => t.crdName === name);
      const group = (crd.spec as { group?: string }).group ?? '';
      const plural = (crd.spec as { names?: { plural?: string } }).names?.plural ?? '';
      const remaining = this.ctx.storage.list(grKey(group, plural)).items;
      if (served && remaining.length > 0) {
        for (const o of remaining) if (!o.metadata.deletionTimestamp) this.tryDelete(served, o);
        continue;
      }
      if (remaining.length === 0)
        this.update(
          crdType,
          crd,
          (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER)),
        );
    }
    for (const t of [...this.ctx.registry.all()]) {
      if (t.crdName && !live.has(t.crdName)) {
        removeCrdTypes(this.ctx.registry, t.crdName);
        this.hub.closeGroupResource(grKey(t.group, t.resource));
      }
    }
  }

  private syncNamespaces(): void {
    const nsType = this.ctx.registry.getByGroupResource('', 'namespaces');
    if (!nsType) return;
    for (const ns of this.ctx.storage.list(NS_GR).items) {
      if (!ns.metadata.deletionTimestamp || !namespaceFinalizers(ns).includes(NAMESPACE_FINALIZER)) continue;
      const name = ns.metadata.name ?? '';
      let remaining = 0;
      for (const t of this.ctx.registry.all()) {
        if (!t.namespaced || this.ctx.registry.getByGroupResource(t.group, t.resource) !== t) continue;
        for (const o of this.ctx.storage.list(grKey(t.group, t.resource), { namespace: name }).items) {
          remaining++;
          if (!o.metadata.deletionTimestamp) this.tryDelete(t, o);
          else if (t.group === '' && t.resource === 'pods') {
            // No kubelet will confirm termination for the namespace deleter; force it like `--grace-period=0`.
            try {
              deleteObject(this.ctx, t, name, o.metadata.name ?? '', { gracePeriodSeconds: 0 });
            } catch {
              /* next pass */
            }
          }
        }
      }
      if (remaining === 0) {
        const current = this.ctx.storage.get(NS_GR, objectKey(undefined, name));
        if (current) {
          this.update(
            nsType,
            current,
            (o) =>
              (o.spec = {
                ...(o.spec as object),
                finalizers: namespaceFinalizers(o).filter((f) => f !== NAMESPACE_FINALIZER),
              }),
            'finalize',
          );
        }
      }
    }
  }

  private collectGarbage(): void {
    const entries = this.all();
    const byUid = new Map<string, Entry>();
    const dependents = new Map<string, Entry[]>();
    for (const e of entries) {
      if (e.obj.metadata.uid) byUid.set(e.obj.metadata.uid, e);
      for (const ref of e.obj.metadata.ownerReferences ?? []) {
        const list = dependents.get(ref.uid) ?? [];
        list.push(e);
        dependents.set(ref.uid, list);
      }
    }
    for (const e of entries) {
      const m = e.obj.metadata;
      const uid = m.uid ?? '';
      const deps = dependents.get(uid) ?? [];
      if (m.deletionTimestamp && (m.finalizers ?? []).includes(ORPHAN_FINALIZER)) {
        for (const d of deps) {
          this.update(d.type, d.obj, (o) => {
            o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
          });
        }
        this.update(
          e.type,
          e.obj,
          (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== ORPHAN_FINALIZER)),
        );
        continue;
      }
      if (m.deletionTimestamp && (m.finalizers ?? []).includes(FOREGROUND_FINALIZER)) {
        for (const d of deps) if (!d.obj.metadata.deletionTimestamp) this.tryDelete(d.type, d.obj, 'Foreground');
        const blocking = deps.filter((d) =>
          (d.obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true),
        );
        if (blocking.length === 0) {
          this.update(
            e.type,
            e.obj,
            (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND_FINALIZER)),
          );
        }
        continue;
      }
    }
    for (const e of entries) {
      const refs = e.obj.metadata.ownerReferences ?? [];
      if (refs.length === 0 || e.obj.metadata.deletionTimestamp) continue;
      // A dependent goes only when no owner is left (owners being foreground-deleted are handled above).
      if (refs.every((r) => !byUid.has(r.uid))) this.tryDelete(e.type, e.obj);
    }
  }
}
