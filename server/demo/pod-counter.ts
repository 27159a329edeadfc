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
//
// Its main(), with the one line that puts it on the dashboard, is examples/pod-counter/main.ts: the demos
// are what the dashboard shows, so they do not import it.
import type { KubeList, KubeObject } from '../../shared/models/object';
import {
  newControllerManagedBy,
  type Client,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime';

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
