// The PodCounter seed's main() (server/demo/pod-counter.ts), plus the one line that puts it on the dashboard.
// Run it with `npx tsx examples/pod-counter/main.ts` against your current kubeconfig, then open
// http://127.0.0.1:7070.
import { getConfigOrDie, newManager, setupSignalHandler } from 'controller-scope';
import { serveDashboard } from 'controller-scope/dashboard';
import { PodCounter } from '../../server/demo/pod-counter';

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
