// The kube-controller-manager and apiextensions controllers the sandbox runs in-process, reduced to
// their effect on stored objects: the garbage collector (kubernetes pkg/controller/garbagecollector),
// the namespace deleter (pkg/controller/namespace/deletion) and CRD instance cleanup
// (apiextensions-apiserver pkg/controller/finalizer/crd_finalizer.go). Like upstream they are driven
// by the change stream: each commit queues only the objects it can affect, so steady churn costs
// O(changes), not O(objects).
import type { KubeObject } from '../../../shared/models/object';
import type { SandboxContext } from './context';
import { CRD_CLEANUP_FINALIZER, removeCrdTypes } from './crds';
import { deleteObject, FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './delete';
import { NAMESPACE_FINALIZER, namespaceFinalizers } from './namespaces';
import type { ResourceType } from './resources';
import { grKey, objectKey, type StoredEvent } from './storage';
import { commitUpdate } from './update';
import type { WatchHub } from './watch-hub';

export interface ControllersOptions {
  /** Run the garbage collector (ownerReferences cascade); default true. */
  garbageCollector?: boolean;
}

const CRD_GR = grKey('apiextensions.k8s.io', 'customresourcedefinitions');
const NS_GR = grKey('', 'namespaces');
const loc = (gr: string, key: string): string => `${gr}\n${key}`;
const splitLoc = (l: string): [string, string] => {
  const i = l.indexOf('\n');
  return [l.slice(0, i), l.slice(i + 1)];
};

export class BuiltinControllers {
  private scheduled = false;
  private stopped = false;
  private readonly gc: boolean;
  private readonly unsubscribe: () => void;
  /** owner uid → locations of objects that reference it. */
  private readonly dependents = new Map<string, Set<string>>();
  /** location → owner uids it references. */
  private readonly refsOf = new Map<string, string[]>();
  private readonly gcQueue = new Set<string>();
  private readonly terminatingNamespaces = new Set<string>();
  private readonly terminatingCrds = new Set<string>();
  private readonly removedCrds = new Set<string>();

  constructor(
    private readonly ctx: SandboxContext,
    private readonly hub: WatchHub,
    opts: ControllersOptions = {},
  ) {
    this.gc = opts.garbageCollector ?? true;
    this.unsubscribe = ctx.storage.subscribe((e) => this.observe(e));
  }

  /** Coalesces requests into one pass on the next turn of the event loop. */
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
    this.unsubscribe();
  }

  /** Runs every controller over the work queued so far; its own writes queue the next pass. */
  sweep(): void {
    this.syncCrds();
    this.syncNamespaces();
    if (this.gc) this.collectGarbage();
  }

  private observe(e: StoredEvent): void {
    const l = loc(e.gr, e.key);
    const m = e.object.metadata;
    const before = this.refsOf.get(l) ?? [];
    const after = e.type === 'DELETED' ? [] : (m.ownerReferences ?? []).map((r) => r.uid);
    for (const uid of before) if (!after.includes(uid)) this.dependents.get(uid)?.delete(l);
    for (const uid of after) {
      let set = this.dependents.get(uid);
      if (!set) this.dependents.set(uid, (set = new Set()));
      set.add(l);
    }
    if (after.length) this.refsOf.set(l, after);
    else this.refsOf.delete(l);

    if (e.type === 'DELETED') {
      // Dependents may have lost their last owner; owners waiting in the foreground may be done.
      for (const d of this.dependents.get(m.uid ?? '') ?? []) this.gcQueue.add(d);
      if (m.uid) this.dependents.delete(m.uid);
      for (const uid of before) this.queueUid(uid);
    } else {
      if (after.length && !m.deletionTimestamp) this.gcQueue.add(l);
      const fins = m.finalizers ?? [];
      if (m.deletionTimestamp && (fins.includes(ORPHAN_FINALIZER) || fins.includes(FOREGROUND_FINALIZER)))
        this.gcQueue.add(l);
      for (const uid of before) if (!after.includes(uid)) this.queueUid(uid);
    }

    if (e.gr === NS_GR) {
      if (e.type !== 'DELETED' && m.deletionTimestamp) this.terminatingNamespaces.add(m.name ?? '');
      else this.terminatingNamespaces.delete(m.name ?? '');
    }
    if (e.gr === CRD_GR) {
      if (e.type === 'DELETED') {
        this.terminatingCrds.delete(m.name ?? '');
        this.removedCrds.add(m.name ?? '');
      } else if (m.deletionTimestamp) this.terminatingCrds.add(m.name ?? '');
    }
    if (this.gcQueue.size || this.terminatingNamespaces.size || this.terminatingCrds.size || this.removedCrds.size)
      this.kick();
  }

  private queueUid(uid: string): void {
    const at = this.ctx.storage.locateUid(uid);
    if (at) this.gcQueue.add(loc(at.gr, at.key));
  }

  private typeOf(gr: string): ResourceType | undefined {
    const i = gr.indexOf('/');
    return this.ctx.registry.getByGroupResource(gr.slice(0, i), gr.slice(i + 1));
  }

  private tryDelete(type: ResourceType, obj: KubeObject, policy?: 'Foreground' | 'Background'): void {
    try {
      deleteObject(this.ctx, type, obj.metadata.namespace, obj.metadata.name ?? '', {
        ...(policy ? { propagationPolicy: policy } : {}),
        preconditions: { uid: obj.metadata.uid ?? '' },
      });
    } catch {
      // Gone or changed meanwhile; the change it made queues the next look.
    }
  }

  private update(type: ResourceType, obj: KubeObject, mutate: (o: KubeObject) => void, sub?: 'finalize'): void {
    const next = structuredClone(obj);
    mutate(next);
    try {
      commitUpdate(this.ctx, type, obj, next, {}, sub);
    } catch {
      // Conflicts resolve on a later pass.
    }
  }

  private syncCrds(): void {
    for (const name of [...this.removedCrds]) {
      this.removedCrds.delete(name);
      for (const t of this.ctx.registry.all().filter((x) => x.crdName === name))
        this.hub.closeGroupResource(grKey(t.group, t.resource));
      removeCrdTypes(this.ctx.registry, name);
    }
    const crdType = this.typeOf(CRD_GR);
    if (!crdType) return;
    for (const name of [...this.terminatingCrds]) {
      const crd = this.ctx.storage.get(CRD_GR, name);
      if (!crd || !(crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) {
        this.terminatingCrds.delete(name);
        continue;
      }
      const spec = crd.spec as { group?: string; names?: { plural?: string } };
      const gr = grKey(spec.group ?? '', spec.names?.plural ?? '');
      const served = this.ctx.registry.all().find((t) => t.crdName === name);
      const remaining = this.ctx.storage.list(gr, { readOnly: true }).items;
      if (served && remaining.length > 0) {
        for (const o of remaining) if (!o.metadata.deletionTimestamp) this.tryDelete(served, o);
        continue;
      }
      if (remaining.length === 0) {
        this.update(
          crdType,
          crd,
          (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER)),
        );
      }
    }
  }

  private syncNamespaces(): void {
    const nsType = this.typeOf(NS_GR);
    if (!nsType) return;
    for (const name of [...this.terminatingNamespaces]) {
      const ns = this.ctx.storage.get(NS_GR, objectKey(undefined, name));
      if (!ns || !namespaceFinalizers(ns).includes(NAMESPACE_FINALIZER)) {
        if (!ns) this.terminatingNamespaces.delete(name);
        continue;
      }
      let remaining = 0;
      for (const t of this.ctx.registry.all()) {
        if (!t.namespaced || t.storageGroup !== undefined || this.typeOf(grKey(t.group, t.resource)) !== t) continue;
        for (const o of this.ctx.storage.list(grKey(t.group, t.resource), { namespace: name, readOnly: true }).items) {
          remaining++;
          if (!o.metadata.deletionTimestamp) this.tryDelete(t, o);
          else if (t.group === '' && t.resource === 'pods') {
            // No kubelet confirms termination for the namespace deleter; force it like `--grace-period=0`.
            try {
              deleteObject(this.ctx, t, name, o.metadata.name ?? '', { gracePeriodSeconds: 0 });
            } catch {
              /* next pass */
            }
          }
        }
      }
      if (remaining === 0) {
        this.update(
          nsType,
          ns,
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

  private collectGarbage(): void {
    const work = [...this.gcQueue];
    this.gcQueue.clear();
    for (const l of work) {
      const [gr, key] = splitLoc(l);
      const obj = this.ctx.storage.peek(gr, key);
      const type = this.typeOf(gr);
      if (!obj || !type) continue;
      const m = obj.metadata;
      const uid = m.uid ?? '';
      const fins = m.finalizers ?? [];
      const deps = (): { type: ResourceType; obj: KubeObject }[] => {
        const out: { type: ResourceType; obj: KubeObject }[] = [];
        for (const d of this.dependents.get(uid) ?? []) {
          const [dgr, dkey] = splitLoc(d);
          const dobj = this.ctx.storage.peek(dgr, dkey);
          const dtype = this.typeOf(dgr);
          if (dobj && dtype) out.push({ type: dtype, obj: dobj });
        }
        return out;
      };
      if (m.deletionTimestamp && fins.includes(ORPHAN_FINALIZER)) {
        for (const d of deps())
          this.update(
            d.type,
            d.obj,
            (o) => (o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid)),
          );
        this.update(
          type,
          obj,
          (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== ORPHAN_FINALIZER)),
        );
        continue;
      }
      if (m.deletionTimestamp && fins.includes(FOREGROUND_FINALIZER)) {
        const ds = deps();
        for (const d of ds) if (!d.obj.metadata.deletionTimestamp) this.tryDelete(d.type, d.obj, 'Foreground');
        const blocking = ds.some((d) =>
          (d.obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true),
        );
        if (!blocking)
          this.update(
            type,
            obj,
            (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND_FINALIZER)),
          );
        continue;
      }
      const refs = m.ownerReferences ?? [];
      // A dependent goes only when none of its owners exists any more.
      if (refs.length > 0 && !m.deletionTimestamp && refs.every((r) => !this.ctx.storage.locateUid(r.uid)))
        this.tryDelete(type, obj);
    }
  }
}
