// The in-process targets checked against one run's figures: the workqueue at least as fast as
// client-go, the informer at least as fast as client-go held to one core (GOMAXPROCS=1, our one JavaScript
// thread). Judged on throughput (ops/s from the median wall time), with the CPU ratio printed beside it.
import type { Figure } from './harness';
import type { Target } from './ingest-targets';
import { informerLabel } from './informer';
import type { Shape } from './shapes';
import { queueLabel } from './workqueue';

export interface InProcessTarget extends Target {
  /** Peer CPU ms over ours (above 1 = we spend less CPU), when both were measured. */
  cpuRatio: number | undefined;
  /**
   * Wall time over CPU time of ours and of the peer. Both workloads run on one thread, so on idle cores the two
   * are about equal; well above 1, the run waited for a core and the CPU ratio is the steadier reading.
   */
  wallOverCpu: [number | undefined, number | undefined];
}

const wallOverCpu = (f: Figure | undefined): number | undefined => (f?.cpuMs ? f.ms / f.cpuMs : undefined);

/** Above this wall/CPU, a run waited for a core long enough that its throughput says more about the machine. */
export const BUSY_WALL_OVER_CPU = 1.3;

function against(what: string, ours: Figure | undefined, peer: Figure | undefined, goal: number): InProcessTarget {
  const value = ours && peer ? ours.opsPerSec / peer.opsPerSec : undefined;
  const cpuRatio = ours?.cpuMs && peer?.cpuMs ? peer.cpuMs / ours.cpuMs : undefined;
  return {
    what,
    value,
    goal: `≥ ${goal}×`,
    met: value === undefined ? undefined : value >= goal,
    cpuRatio,
    wallOverCpu: [wallOverCpu(ours), wallOverCpu(peer)],
  };
}

export function inProcessTargets(
  s: Shape,
  ours: readonly Figure[],
  clientGo: readonly Figure[],
  clientGoOneCore: readonly Figure[],
): InProcessTarget[] {
  const find = (fs: readonly Figure[], label: string): Figure | undefined => fs.find((f) => f.bench === label);
  const informer = informerLabel(s);
  return [
    against('workqueue: ours vs client-go (ops/s)', find(ours, queueLabel), find(clientGo, queueLabel), 1),
    against(
      'informer: ours vs client-go with GOMAXPROCS=1 (ops/s)',
      find(ours, informer),
      find(clientGoOneCore, informer),
      1,
    ),
  ];
}
