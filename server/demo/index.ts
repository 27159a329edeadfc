// The example controllers `npm start` runs, registered with the user's manager by name.
import type { Manager } from '../runtime';
import { FlakyReconciler } from './flaky';
import { HotLoopReconciler } from './hot-loop';
import { PodCounter } from './pod-counter';
import { ReplicaSetOwner } from './replicaset-owner';

export { PodCounter } from './pod-counter';
export { ReplicaSetOwner, READY_ANNOTATION } from './replicaset-owner';
export { FlakyReconciler } from './flaky';
export { HotLoopReconciler, HOT_LOOP_NAME, STAMP_ANNOTATION } from './hot-loop';

export type DemoName = 'pod-counter' | 'replicaset-owner' | 'flaky' | 'hot-loop';

/** Controllers that write to the cluster; refused on a real cluster without --allow-writes. */
export const WRITING_DEMOS: ReadonlySet<DemoName> = new Set(['replicaset-owner', 'hot-loop']);

export interface DemoOptions {
  /** Namespace the hot loop and the flaky controller's objects live in. Default "demo". */
  namespace?: string;
  /** Where the PodCounter's "Number of pods" lines go. Default: discarded (the dashboard shows the reconciles). */
  printf?: (line: string) => void;
}

export async function registerDemoControllers(
  mgr: Manager,
  names: readonly DemoName[],
  opts: DemoOptions = {},
): Promise<void> {
  const namespace = opts.namespace ?? 'demo';
  for (const name of names) {
    switch (name) {
      case 'pod-counter':
        await new PodCounter(mgr.getClient(), opts.printf ?? (() => undefined)).setupWithManager(mgr);
        break;
      case 'replicaset-owner':
        await new ReplicaSetOwner(mgr.getClient()).setupWithManager(mgr);
        break;
      case 'flaky':
        await new FlakyReconciler().setupWithManager(mgr);
        break;
      case 'hot-loop':
        await new HotLoopReconciler(mgr.getClient()).setupWithManager(mgr, namespace);
        break;
    }
  }
}
