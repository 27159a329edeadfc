// Carries out one plan during a run: waits for its point, then holds a kind's watches, arms a fault on the
// chosen write, or asks for a crash right after it. The sandbox does the holding and the failing (its fault
// layer), so the controller meets them through its real client, reflector and retry logic.
import type { FaultInjector, FaultVerb } from '../cluster/sandbox';
import { formatPoint, type Plan, type Point } from './plan';
import type { WriteCall } from './write-tap';

export interface KindInfo {
  group: string;
  resource: string;
  namespaced: boolean;
}

export interface PerturberEnv {
  faults: FaultInjector;
  /** The served type of a kind id ("v1/ConfigMap"); undefined when the server does not serve it. */
  resolve(kind: string): KindInfo | undefined;
}

const SANDBOX_VERB: Record<WriteCall['verb'], FaultVerb> = {
  create: 'create',
  update: 'update',
  updateStatus: 'update',
  patch: 'patch',
  patchStatus: 'patch',
  delete: 'delete',
  deleteAllOf: 'deletecollection',
};

export class Perturber {
  /** When the point was reached, described; undefined while it has not been. */
  fired: string | undefined;
  private hold?: { id: string; kind: string; stepsLeft: number; since: number };
  private faultRule?: string;

  constructor(
    readonly plan: Plan | undefined,
    private readonly env: PerturberEnv,
  ) {}

  /** Kinds whose watches are held now: their informers are expected to lag. */
  heldKinds(): ReadonlySet<string> {
    return new Set(this.hold ? [this.hold.kind] : []);
  }

  atStep(i: number): void {
    this.reach({ at: 'step', i });
  }

  /** How long the current hold has lasted since it began or a step was last applied, ms; undefined: none. */
  holdAge(now = Date.now()): number | undefined {
    return this.hold ? now - this.hold.since : undefined;
  }

  afterStep(): void {
    if (!this.hold) return;
    this.hold.stepsLeft--;
    // Each step gives the controller its full time to act on the held view.
    this.hold.since = Date.now();
  }

  atReconcile(key: string, n: number): void {
    this.reach({ at: 'reconcile', key, n });
  }

  /** The k-th write is about to be sent: a fault is armed for it, or a crash or lost answer asked for. */
  atWrite(k: number, call: WriteCall): { after?: 'crash' | 'timeout' } {
    if (!this.reach({ at: 'write', k })) return {};
    const p = this.plan?.perturbation;
    if (p?.class === 'crash') return { after: 'crash' };
    if (p?.class !== 'fault') return {};
    if (p.fault === 'timeout') return { after: 'timeout' };
    const info = this.env.resolve(call.ref.kind);
    if (!info) return {};
    const target = {
      verbs: [SANDBOX_VERB[call.verb]],
      group: info.group,
      resource: info.resource,
      ...(info.namespaced && call.ref.namespace ? { namespace: call.ref.namespace } : {}),
      ...(call.verb !== 'create' && call.verb !== 'deleteAllOf' ? { name: call.ref.name } : {}),
      times: 1,
    };
    this.faultRule =
      p.fault === '409'
        ? this.env.faults.addRule({ kind: 'conflicts', rate: 1, ...target })
        : this.env.faults.addRule({
            kind: 'errors',
            rate: 1,
            code: Number(p.fault),
            // 503 and 429 say when to come back, and the client waits and retries by itself.
            retryAfterSeconds: p.fault === '500' ? 0 : 1,
            ...target,
          });
    return {};
  }

  /** The chosen write ended: a fault it did not meet (the request went elsewhere) is withdrawn. */
  writeEnded(): void {
    if (this.faultRule) this.env.faults.removeRule(this.faultRule);
    this.faultRule = undefined;
  }

  /**
   * The run has settled apart from the held kind, or the hold has lasted its longest: lifts the hold once its
   * steps have passed (or the scenario is over). True when it lifted, so the run must settle again.
   */
  liftIfDue(scenarioOver: boolean): boolean {
    if (!this.hold || (this.hold.stepsLeft > 0 && !scenarioOver)) return false;
    this.env.faults.unstallWatches(this.hold.id);
    this.hold = undefined;
    return true;
  }

  /** Returns true when `point` is the plan's point, reached for the first time. */
  private reach(point: Point): boolean {
    const plan = this.plan;
    if (!plan || this.fired !== undefined || formatPoint(plan.point) !== formatPoint(point)) return false;
    this.fired = formatPoint(point);
    const p = plan.perturbation;
    if (p.class === 'stale' || p.class === 'unobserved') {
      const info = this.env.resolve(p.kind);
      if (info) {
        const id = this.env.faults.stallWatches({
          group: info.group,
          resource: info.resource,
          lift: p.class === 'unobserved' ? 'relist' : 'replay',
        });
        // A hold that starts before a step lasts through that step and `steps` more.
        this.hold = { id, kind: p.kind, stepsLeft: p.steps + (point.at === 'step' ? 1 : 0), since: Date.now() };
      }
    }
    return true;
  }
}
