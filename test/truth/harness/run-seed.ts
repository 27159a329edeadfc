// One seed against one running target: a namespace of its own, the seed's plan step by step, and at every
// checkpoint (and at the end) the view checked against ground truth once the controller is quiet.
import type { RuntimeView } from '../../../shared/protocol/view';
import { BEHAVIOUR, secretName } from '../oracle/behaviour';
import { checkView, type FalseClaim } from '../oracle/claims';
import { checkCaches } from '../oracle/cache-claims';
import { checkReplay } from '../oracle/replay-claims';
import type { ServerWatch } from '../oracle/server-watch';
import type { Truth } from '../oracle/truth';
import { WorkloadDriver } from '../workload/driver';
import { plan, type PlanOptions } from '../workload/plan';
import { notQuiet } from './quiet';
import type { OracleTarget } from './target';

export interface SeedResult {
  seed: number;
  steps: number;
  checkpoints: number;
  /** Claims checked at all checkpoints (causes, labels, states, processes…). */
  claims: number;
  falseClaims: (FalseClaim & { checkpoint: number })[];
  /** The run itself failed (the controller never became quiet, a step threw): not a claim, but no pass. */
  error?: string;
}

export interface SeedOptions {
  kubeconfig: string;
  target: OracleTarget;
  server: ServerWatch;
  steps: number;
  /** Where the run keeps files (downloaded recordings). */
  dir: string;
  /** How long to wait for quiet, and then for the view to settle, per checkpoint. */
  settleMs?: number;
}

export async function runSeed(seed: number, o: SeedOptions): Promise<SeedResult> {
  const namespace = `truth-${o.target.language}-${seed}`;
  const driver = new WorkloadDriver(o.kubeconfig, namespace, seed);
  await driver.createNamespace();
  const opts: PlanOptions = { steps: o.steps, restarts: true, failovers: o.target.failover !== undefined };
  const result: SeedResult = { seed, steps: 0, checkpoints: 0, claims: 0, falseClaims: [] };
  for (const step of plan(seed, opts)) {
    result.steps++;
    if (step.op === 'sleep') await new Promise((r) => setTimeout(r, step.ms));
    else if (step.op === 'restart') await o.target.restart();
    else if (step.op === 'failover') await o.target.failover?.();
    else if (step.op === 'checkpoint') await checkpoint(namespace, driver, o, result);
    else await driver.run(step);
  }
  await driver.clear();
  return result;
}

async function checkpoint(
  namespace: string,
  driver: WorkloadDriver,
  o: SeedOptions,
  result: SeedResult,
): Promise<void> {
  const n = ++result.checkpoints;
  const settle = o.settleMs ?? 60_000;
  const truth = await quietTruth(namespace, driver, o, settle);
  // The view may still be a batch or two behind what the processes did: give it until every claim holds or
  // the time is up, then report what still does not.
  const deadline = Date.now() + settle;
  let found: FalseClaim[] = [];
  for (;;) {
    o.server.check();
    const view: RuntimeView = o.target.view();
    // The controller may act again after quiet (a requeueAfter that comes due): the processes' own logs are
    // read again with the view, so a reconcile the view shows is compared with a truth that has it too.
    const { writes, reconciles } = o.target.records();
    found = [
      ...checkView(view, { ...truth, writes, reconciles, processes: o.target.processes() }, { quiescent: true }),
      ...(await checkCaches(view, o.target, await driver.clusterCounts())),
    ];
    if (found.length === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // The view holds: a viewer's download of the span before it must replay to the same state.
  if (found.length === 0) found = await checkReplay(o.target.dashboardUrl, o.target.view(), namespace, o.dir);
  result.claims += countClaims(o.target.view(), namespace);
  for (const f of found) result.falseClaims.push({ ...f, checkpoint: n });
}

/** Waits until ground truth says the controller is done with the workload so far; returns that truth. */
async function quietTruth(
  namespace: string,
  driver: WorkloadDriver,
  o: SeedOptions,
  timeoutMs: number,
): Promise<Truth> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { writes, reconciles } = o.target.records();
    const why = notQuiet(
      reconciles,
      await driver.objects(),
      namespace,
      (cm) => secretName({ metadata: { name: cm } }),
      o.target.generation(),
    );
    if (why === undefined || Date.now() > deadline) {
      if (why !== undefined)
        throw new Error(`seed's namespace ${namespace}: the controller never became quiet: ${why}`);
      return {
        controller: BEHAVIOUR.controller,
        namespaces: new Set([namespace]),
        writes,
        reconciles,
        external: driver.writes,
        server: o.server,
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The claims a checkpoint looked at: every cause label, key state and count of the run's keys. */
function countClaims(view: RuntimeView, namespace: string): number {
  let n = 0;
  for (const c of Object.values(view.controllers)) {
    for (const k of Object.values(c.keys)) {
      if (!k.key.startsWith(`${namespace}/`)) continue;
      n += 3 + k.history.reduce((s, r) => s + r.causes.length * 2 + 1, 0) + (k.backoff?.length ?? 0);
    }
  }
  return n + Object.keys(view.processes ?? {}).length + Object.keys(view.leaders).length;
}
