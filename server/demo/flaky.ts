// A controller whose reconciles fail often, to show the rate limiter at work: errors back off
// exponentially per key (5 ms doubling up to 1000 s), a terminal error is never retried, and some
// successes ask to be looked at again later. It only reads, so it is safe against any cluster.
import {
  labelSelectorPredicate,
  parseSelector,
  newControllerManagedBy,
  terminalError,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../runtime';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

export interface FlakyOptions {
  /** Share of reconciles that fail with a retryable error; default 0.35. */
  errorRate?: number;
  /** Share that fail with a TerminalError (not retried); default 0.03. */
  terminalRate?: number;
  /** Share that succeed but ask for RequeueAfter 5 s; default 0.1. */
  requeueAfterRate?: number;
  random?: () => number;
  /** Simulated work per reconcile in ms, in [min, max); default [10, 120). */
  workMs?: [number, number];
}

export class FlakyReconciler implements Reconciler {
  private readonly random: () => number;
  constructor(private readonly opts: FlakyOptions = {}) {
    this.random = opts.random ?? Math.random;
  }

  setupWithManager(mgr: Manager, labelSelector = 'controller-scope.dev/churn=true'): Promise<void> {
    return newControllerManagedBy(mgr)
      .named('flaky')
      .for(ConfigMap)
      .withEventFilter(labelSelectorPredicate(parseSelector(labelSelector)))
      .withOptions({ maxConcurrentReconciles: 3 })
      .complete(this);
  }

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    const [min, max] = this.opts.workMs ?? [10, 120];
    await sleep(min + this.random() * (max - min), ctx.signal);
    const r = this.random();
    const errorRate = this.opts.errorRate ?? 0.35;
    const terminalRate = this.opts.terminalRate ?? 0.03;
    if (r < terminalRate) throw terminalError(new Error(`${req.name}: config is invalid and will not be retried`));
    if (r < terminalRate + errorRate) throw new Error(`${req.name}: upstream service unavailable (simulated)`);
    if (r < terminalRate + errorRate + (this.opts.requeueAfterRate ?? 0.1)) return { requeueAfterMs: 5_000 };
    return {};
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
