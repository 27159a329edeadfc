// The PodCounter from the document controller-scope grew from, in TypeScript. It reads almost line for
// line like its Go: a manager from the config, a controller built For Pods, and a reconcile that lists
// Pods through the manager's client (served from the informer cache) and logs how many there are.
//
//   Go                                              here
//   cfg := ctrl.GetConfigOrDie()                    const cfg = getConfigOrDie();
//   mgr, err := ctrl.NewManager(cfg, ctrl.Options{}) const mgr = newManager(cfg, {});
//   r := &PodCounter{Client: mgr.GetClient()}       const r = new PodCounter(mgr.getClient());
//   err = r.SetupWithManager(mgr)                   await r.setupWithManager(mgr);
//   err = mgr.Start(ctrl.SetupSignalHandler())      await mgr.start(setupSignalHandler());
import type { KubeList, KubeObject } from '../../shared/models/object';
import {
  getConfigOrDie,
  newControllerManagedBy,
  newManager,
  setupSignalHandler,
  type Client,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime';
import { serveDashboard } from '../dashboard';

const Pod = { apiVersion: 'v1', kind: 'Pod' } as const;
const PodList = { apiVersion: 'v1', kind: 'PodList' } as const;

export class PodCounter implements Reconciler {
  constructor(
    readonly client: Client,
    private readonly printf: (line: string) => void = (line) => console.log(line),
  ) {}

  setupWithManager(mgr: Manager): Promise<void> {
    return newControllerManagedBy(mgr).named('pod-counter').for(Pod).complete(this);
  }

  async reconcile(_ctx: ReconcileContext, _req: Request): Promise<Result> {
    const podList: KubeList<KubeObject> = await this.client.list(PodList);
    this.printf(`Number of pods: ${podList.items.length}`);
    return {};
  }
}

/**
 * The seed's main(), plus the one line that puts it on the dashboard (in a project that installed the
 * package: `import { serveDashboard } from 'controller-scope/dashboard'`). Run it with
 * `npx tsx server/demo/pod-counter.ts` against your current kubeconfig, then open http://127.0.0.1:7070.
 */
export async function main(): Promise<void> {
  const cfg = getConfigOrDie();
  const mgr = newManager(cfg, {});
  await serveDashboard(mgr);

  const r = new PodCounter(mgr.getClient());

  await r.setupWithManager(mgr);

  await mgr.start(setupSignalHandler());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
