// Applies a scenario's operations through the sandbox's in-process store: the same rules as HTTP, but not
// through the fault layer, so only the controller's own requests meet injected faults, and none of these
// writes counts as the controller's.
import type { KubeObject } from '../../shared/models/object';
import type { SandboxStore } from '../cluster/sandbox';
import { describeOp, type ScenarioOp } from './scenario';

export function applyOp(store: SandboxStore, op: ScenarioOp): void {
  try {
    applyOne(store, op);
  } catch (err) {
    throw new Error(`scenario: ${describeOp(op)} failed: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
}

function applyOne(store: SandboxStore, op: ScenarioOp): void {
  switch (op.op) {
    case 'create':
      store.create(structuredClone(op.object));
      return;
    case 'update': {
      const o = op.object;
      const current = store.get(
        { apiVersion: o.apiVersion ?? '', kind: o.kind ?? '' },
        o.metadata.name ?? '',
        o.metadata.namespace,
      );
      const next: KubeObject = structuredClone(o);
      next.metadata.resourceVersion = current?.metadata.resourceVersion;
      store.update(next);
      return;
    }
    case 'patch':
      store.patch(op.ref, op.ref.name, op.ref.namespace, 'merge', op.merge);
      return;
    case 'delete':
      store.delete(op.ref, op.ref.name, op.ref.namespace);
      return;
  }
}
