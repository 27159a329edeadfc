// One run of the controller against a fresh sandbox: prepare, start the controller, apply the scenario's
// steps (settling after each), let the plan's perturbation fire at its point, settle, and collect the end
// state and the facts the invariants judge. Runs share nothing, so any run reproduces from (seed, plan).
import type { KubeObject } from '../../shared/models/object';
import { prng } from '../../shared/prng';
import { SandboxServer } from '../cluster/sandbox';
import { apiVersionOf, errorMessage, RestConfig, toGVK, type Probe } from '../runtime';
import { normalize, type EndState } from './end-state';
import { startIncarnation, type ControllerTarget, type Incarnation } from './incarnation';
import { checkInvariants, objectId, type Violation } from './invariants';
import { RunMonitor } from './monitor';
import { Perturber, type KindInfo } from './perturber';
import { formatPlan, type Plan } from './plan';
import { applyOp } from './scenario-apply';
import { describeStep, type Scenario } from './scenario';
import { snapshot } from './snapshot';
import type { TraceEntry } from './trace';
import type { WriteCall, WriteGate } from './write-tap';

export interface RunOptions {
  target: ControllerTarget;
  /** Its prepare objects are created before the controller starts. */
  scenario: Scenario;
  /** Makes the scenario's steps once the controller reported its For kind (a scenario given without steps). */
  derive?: (forKind: { apiVersion: string; kind: string; namespaced: boolean }) => Scenario;
  plan?: Plan;
  /** The sandbox's randomness (generateName suffixes). */
  seed: number;
  /** Unique per run: module generations are tagged with it. */
  tag: string;
  /** Kinds whose objects the end state holds besides those this run wrote (the reference's). */
  kinds?: readonly string[];
  /** Longest wait for the controller to settle after one step. */
  settleTimeoutMs: number;
  /** Quiet needed before "settled" is believed. */
  quietMs: number;
  /** Another probe the controller's managers report to (--record). */
  probe?: Probe;
}

export interface RunResult {
  plan?: string;
  /** Where the plan's point was reached; undefined when the run never got there. */
  fired?: string;
  scenario: Scenario;
  trace: TraceEntry[];
  /** Kinds the controller's informers watched ("v1/ConfigMap"). */
  watched: string[];
  /** Kinds the controller wrote. */
  written: string[];
  end: EndState;
  violations: Violation[];
  durationMs: number;
  /** The run itself could not be carried out (setup threw, a scenario step failed). */
  error?: string;
}

const POLL_MS = 20;
/** The longest a stale or unobserved hold waits for the controller to settle after a step (it may retry for ever against a held view). */
export const HOLD_MAX_MS = 3_000;
/** Kinds whose writes are bookkeeping, not the controller's decisions. */
const UNCOUNTED = new Set(['v1/Event', 'events.k8s.io/v1/Event', 'coordination.k8s.io/v1/Lease']);

export async function runOnce(o: RunOptions): Promise<RunResult> {
  const run = new Run(o);
  return run.execute();
}

class Run implements WriteGate {
  private readonly sandbox: SandboxServer;
  private readonly perturber: Perturber;
  private readonly trace: TraceEntry[] = [];
  private readonly written = new Set<string>();
  private readonly watched = new Set<string>();
  private readonly finalizers = new Set<string>();
  private readonly statusWritten = new Set<string>();
  private readonly failing = new Map<string, string>();
  private readonly panics: string[] = [];
  private readonly starts = new Map<string, number[]>();
  private readonly reconciles = new Map<string, number>();
  private readonly latestRv = new Map<string, number>();
  private readonly types = new Map<string, KindInfo | undefined>();
  private writes = 0;
  private crashAfter?: number;
  private lastChange = Date.now();
  private lives: Incarnation[] = [];
  private current?: Incarnation;
  private starting?: Promise<void>;
  private config?: RestConfig;

  constructor(private readonly o: RunOptions) {
    this.sandbox = new SandboxServer({ port: 0, random: prng(o.seed), bookmarkIntervalMs: 500 });
    this.perturber = new Perturber(o.plan, { faults: this.sandbox.faults, resolve: (k) => this.resolve(k) });
  }

  async execute(): Promise<RunResult> {
    const began = Date.now();
    let scenario: Scenario | undefined;
    let error: string | undefined;
    let unsettled: string | undefined;
    const bootstrap = new Set<string>();
    try {
      const { url } = await this.sandbox.start();
      this.config = RestConfig.forServer(url);
      for (const t of this.sandbox.store.types()) for (const x of this.listAll(t)) bootstrap.add(versionId(x));
      this.sandbox.store.onChange((c) => {
        this.lastChange = Date.now();
        this.latestRv.set(`${c.group}/${c.resource}`, Number(c.resourceVersion));
      });
      scenario = await this.prepareAndStart(this.o.scenario);
      unsettled = await this.steps(scenario);
    } catch (err) {
      error = errorMessage(err);
    }
    const objects = error === undefined ? snapshot(this.sandbox.store, this.endKinds(scenario), bootstrap) : [];
    const violations = error === undefined ? this.judge(objects, unsettled) : [];
    await this.stop();
    return {
      ...(this.o.plan ? { plan: formatPlan(this.o.plan) } : {}),
      ...(this.perturber.fired ? { fired: this.perturber.fired } : {}),
      scenario: scenario ?? { source: 'none', prepare: [], steps: [] },
      trace: this.trace,
      watched: [...this.watched].sort(),
      written: [...this.written].sort(),
      end: normalize(objects),
      violations,
      durationMs: Date.now() - began,
      ...(error !== undefined ? { error } : {}),
    };
  }

  /** Prepares the cluster, starts the controller and waits for it; returns the scenario to play. */
  private async prepareAndStart(given: Scenario): Promise<Scenario> {
    for (const obj of given.prepare) this.sandbox.store.create(structuredClone(obj));
    await this.startLife();
    const startup = await this.settle(false);
    if (startup !== undefined) throw new Error(`the controller did not start: ${startup}`);
    if (!this.o.derive) return given;
    const forKind = this.current?.monitor.forKind();
    if (!forKind) throw new Error('no controller reported a For kind to derive the default scenario from');
    const gvk = toGVK(forKind);
    const info = this.resolve(forKind);
    if (!info) throw new Error(`the sandbox does not serve ${forKind}`);
    return this.o.derive({ apiVersion: apiVersionOf(gvk), kind: gvk.kind, namespaced: info.namespaced });
  }

  /** Plays the steps; returns why the controller did not settle, if it did not. */
  private async steps(scenario: Scenario): Promise<string | undefined> {
    for (const [index, step] of scenario.steps.entries()) {
      const i = index + 1;
      this.perturber.atStep(i);
      this.trace.push({ at: 'step', i, what: describeStep(step) });
      for (const op of step.ops) applyOp(this.sandbox.store, op);
      this.perturber.afterStep();
      const why = await this.settle(i === scenario.steps.length);
      if (why !== undefined) return `after step ${i}: ${why}`;
    }
    return scenario.steps.length === 0 ? this.settle(true) : undefined;
  }

  private async startLife(): Promise<void> {
    const n = this.lives.length + 1;
    const monitor = new RunMonitor({
      reconcileStarting: (c, key) => this.reconcileStarting(c, key),
      reconcileEnded: (c, key, outcome, err) => {
        if (outcome === 'error' || outcome === 'terminalError' || outcome === 'panic')
          this.failing.set(`${c} ${key}`, err ?? outcome);
        else this.failing.delete(`${c} ${key}`);
      },
      panic: (what) => this.panics.push(what),
    });
    const life = await startIncarnation({
      n,
      tag: `${this.o.tag}.${n}`,
      config: this.config as RestConfig,
      target: this.o.target,
      gate: this,
      monitor,
      ...(this.o.probe ? { probe: this.o.probe } : {}),
      failed: (what) => this.panics.push(what),
    });
    this.lives.push(life);
    this.current = life;
  }

  private reconcileStarting(controller: string, key: string): void {
    const n = (this.reconciles.get(key) ?? 0) + 1;
    this.reconciles.set(key, n);
    this.trace.push({ at: 'reconcile', controller, key, n });
    const id = `${controller} ${key}`;
    const ts = this.starts.get(id) ?? [];
    ts.push(Date.now());
    this.starts.set(id, ts);
    this.perturber.atReconcile(key, n);
  }

  counts(kind: string): boolean {
    return !UNCOUNTED.has(kind);
  }

  begin(call: WriteCall): { k: number; after?: 'crash' | 'timeout' } {
    const k = ++this.writes;
    this.written.add(call.ref.kind);
    this.trace.push({
      at: 'write',
      k,
      verb: call.verb,
      ref: call.ref,
      ...(call.during ? { during: call.during } : {}),
    });
    const { after } = this.perturber.atWrite(k, call);
    if (after === 'crash') this.crashAfter = k;
    return { k, ...(after ? { after } : {}) };
  }

  end(k: number, call: WriteCall, outcome: { object?: KubeObject; code?: number }): void {
    const entry = this.trace.findLast((e) => e.at === 'write' && e.k === k);
    if (entry?.at === 'write' && outcome.code !== undefined) entry.code = outcome.code;
    this.perturber.writeEnded();
    const obj = outcome.object;
    if (obj) {
      for (const f of obj.metadata.finalizers ?? []) this.finalizers.add(f);
      if (call.verb === 'updateStatus' || call.verb === 'patchStatus') this.statusWritten.add(objectId(obj));
    }
    if (this.crashAfter === k) this.crash();
  }

  /** The running life dies now; the next one starts at once, from nothing. */
  private crash(): void {
    const life = this.current;
    if (!life) return;
    life.dead = true;
    life.monitor.deaf = true;
    life.abort.abort();
    this.current = undefined;
    this.starting = this.startLife().catch((err: unknown) => {
      this.panics.push(`the restarted controller did not start: ${errorMessage(err)}`);
    });
  }

  /**
   * Waits until the controller is idle, its informers have caught up with the server (held kinds aside)
   * and nothing has moved for quietMs; a hold whose steps have passed is lifted then, and the wait goes on.
   * Returns why it did not settle within the budget, or undefined.
   */
  private async settle(scenarioOver: boolean): Promise<string | undefined> {
    const deadline = Date.now() + this.o.settleTimeoutMs;
    for (;;) {
      if (this.starting && !this.current) await this.starting;
      const life = this.current;
      const why = life ? (life.monitor.busy() ?? (await this.lagging(life))) : 'the controller is not running';
      const quietFor = Date.now() - Math.max(life?.monitor.lastActivity ?? 0, this.lastChange);
      const idle = why === undefined && quietFor >= this.o.quietMs;
      // A controller retrying against a held view may never idle: a hold lasts HOLD_MAX_MS at most.
      const holdOver = (this.perturber.holdAge() ?? 0) >= HOLD_MAX_MS;
      if (idle || holdOver) {
        if (!this.perturber.liftIfDue(scenarioOver)) return undefined;
        this.lastChange = Date.now();
        continue;
      }
      if (Date.now() > deadline) return why ?? 'still busy';
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Why an informer lags behind the server, or undefined when each has seen the newest change of its kind. */
  private async lagging(life: Incarnation): Promise<string | undefined> {
    const held = this.perturber.heldKinds();
    for (const mgr of life.managers) {
      const cache = mgr.getCache();
      for (const id of cache.kinds()) {
        this.watched.add(id.split('#')[0] as string);
        if (id.includes('#') || held.has(id)) continue;
        const info = this.resolve(id);
        if (!info) continue;
        const informer = await cache.getInformer(toGVK(id), { blockUntilSynced: false });
        if (!informer.hasSynced()) return `informer ${id} has not synced`;
        const rv = Number(informer.lastSyncResourceVersion() || 0);
        const latest = this.latestRv.get(`${info.group}/${info.resource}`) ?? 0;
        if (rv < latest) return `informer ${id} is at resourceVersion ${rv}, the server at ${latest}`;
      }
    }
    return undefined;
  }

  private resolve(kind: string): KindInfo | undefined {
    if (this.types.has(kind)) return this.types.get(kind);
    let info: KindInfo | undefined;
    try {
      const gvk = toGVK(kind);
      const t = this.sandbox.store.resolve({ apiVersion: apiVersionOf(gvk), kind: gvk.kind });
      info = { group: t.group, resource: t.resource, namespaced: t.namespaced };
    } catch {
      info = undefined;
    }
    // Types not served yet (a CRD the controller installs) are asked again next time.
    if (info) this.types.set(kind, info);
    return info;
  }

  private listAll(t: { group: string; resource: string }): KubeObject[] {
    try {
      return this.sandbox.store.list({ group: t.group, resource: t.resource });
    } catch {
      return [];
    }
  }

  private endKinds(scenario: Scenario | undefined): Set<string> {
    const kinds = new Set([...(this.o.kinds ?? []), ...this.written]);
    for (const step of scenario?.steps ?? []) {
      for (const op of step.ops) {
        const r = op.op === 'create' || op.op === 'update' ? op.object : op.ref;
        kinds.add(`${r.apiVersion}/${r.kind}`);
      }
    }
    for (const k of UNCOUNTED) kinds.delete(k);
    return kinds;
  }

  private judge(objects: KubeObject[], unsettled: string | undefined): Violation[] {
    const store = this.sandbox.store;
    return checkInvariants({
      ...(unsettled !== undefined ? { unsettled } : {}),
      failing: this.failing,
      panics: this.panics,
      starts: this.starts,
      objects,
      ownerAlive: (r, ns) => {
        try {
          return store.get({ apiVersion: r.apiVersion, kind: r.kind }, r.name, ns)?.metadata.uid === r.uid;
        } catch {
          return false;
        }
      },
      finalizers: this.finalizers,
      statusWritten: this.statusWritten,
    });
  }

  private async stop(): Promise<void> {
    await this.starting;
    for (const life of this.lives) life.abort.abort();
    await Promise.all(this.lives.map((l) => l.done));
    await this.sandbox.stop();
  }
}

/** An object at one version: a bootstrap object the run left as it was is not part of the end state. */
export function versionId(o: KubeObject): string {
  return `${o.metadata.uid ?? ''}@${o.metadata.resourceVersion ?? ''}`;
}
