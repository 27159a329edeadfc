// A seeded workload for one oracle run: creates, updates, kubectl-style patches and deletes of ConfigMaps
// (the controller's For kind) interleaved with changes to the Secrets it owns, sleeps, planned failures,
// requeues and a hot loop, restarts of the controller and (with replicas) failovers. The same seed gives the
// same plan, so a false claim the oracle finds reproduces from its seed.
import { prng } from '../../../shared/prng';

export type Step =
  | { op: 'create'; name: string; data: Record<string, string>; loop?: boolean; fail?: number; requeueAfterMs?: number }
  | { op: 'update'; name: string; data: Record<string, string> }
  | { op: 'patch'; name: string; data: Record<string, string> }
  | { op: 'delete'; name: string }
  | { op: 'patchSecret'; name: string }
  | { op: 'deleteSecret'; name: string }
  | { op: 'sleep'; ms: number }
  /** Stop the controller's process (Go: SIGKILL) or manager (TypeScript: a reload) and start it again. */
  | { op: 'restart' }
  /** With replicas: SIGKILL the leader; another takes over, and a new replica joins. */
  | { op: 'failover' }
  /** Wait until the controller is quiet, then check every claim. */
  | { op: 'checkpoint' };

export interface PlanOptions {
  steps: number;
  /** Allow restart steps (the configuration can restart its controller). */
  restarts: boolean;
  /** Allow failover steps (the configuration runs replicas). */
  failovers: boolean;
}

export function plan(seed: number, opts: PlanOptions): Step[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const live: string[] = [];
  let made = 0;
  const steps: Step[] = [];
  const data = (): Record<string, string> => ({
    v: String(Math.floor(rand() * 1000)),
    [`k${Math.floor(rand() * 3)}`]: 'x',
  });
  for (let i = 0; i < opts.steps; i++) {
    const r = rand();
    if (live.length === 0 || r < 0.22) {
      const name = `cm-${made++}`;
      live.push(name);
      const flavour = rand();
      steps.push({
        op: 'create',
        name,
        data: data(),
        ...(flavour < 0.08 ? { loop: true } : {}),
        ...(flavour >= 0.08 && flavour < 0.2 ? { fail: 1 + Math.floor(rand() * 3) } : {}),
        ...(flavour >= 0.2 && flavour < 0.3 ? { requeueAfterMs: 100 + Math.floor(rand() * 300) } : {}),
      });
    } else if (r < 0.4) steps.push({ op: 'update', name: pick(live), data: data() });
    else if (r < 0.55) steps.push({ op: 'patch', name: pick(live), data: data() });
    else if (r < 0.63) {
      const name = pick(live);
      live.splice(live.indexOf(name), 1);
      steps.push({ op: 'delete', name });
    } else if (r < 0.7) steps.push({ op: 'patchSecret', name: pick(live) });
    else if (r < 0.75) steps.push({ op: 'deleteSecret', name: pick(live) });
    else if (r < 0.9) steps.push({ op: 'sleep', ms: Math.floor(rand() * 200) });
    else if (r < 0.93 && opts.restarts) steps.push({ op: 'restart' });
    else if (r < 0.95 && opts.failovers) steps.push({ op: 'failover' });
    else steps.push({ op: 'checkpoint' });
  }
  steps.push({ op: 'checkpoint' });
  return steps;
}
