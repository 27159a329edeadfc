// Which reconcile the current async call chain belongs to (Go passes this in ctx; here it follows the
// awaits through AsyncLocalStorage), so clients can name the controller on their client.request events
// without every reconciler threading it through.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ReconcileScope {
  controller: string;
  /** The request key being reconciled. */
  key: string;
  reconcileID: string;
}

const storage = new AsyncLocalStorage<ReconcileScope>();

/** Runs fn with scope as the current reconcile. */
export function runInReconcileScope<T>(scope: ReconcileScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The reconcile this call is part of, if any. */
export function currentReconcileScope(): ReconcileScope | undefined {
  return storage.getStore();
}
