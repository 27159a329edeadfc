// Ports controller-runtime pkg/internal/controller/controller.go (and pkg/controller's New): a queue fed by
// sources, N workers taking requests from it, the reconcile wrapper (panic recovery, timeout, metrics,
// probes) and the result handling of result-handling.ts. Adds the step-mode gate the dashboard drives.
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { EnqueueCause } from '../../../shared/protocol/events-workqueue';
import type { ControllerLifecycleEvent } from '../../../shared/protocol/events-controller';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import { controllerMetrics, initControllerMetrics, type ControllerMetrics } from '../metrics/controller-metrics';
import { registry as defaultRegistry } from '../metrics/registry';
import { NULL_LOGGER, type Logger } from '../reconcile/logger';
import { runInReconcileScope } from '../instrumentation/reconcile-scope';
import {
  requestFromKey,
  requestKey,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../reconcile/reconcile';
import { childContext, isDeadlineExceeded, whenAborted } from '../util/context';
import { isSyncingSource, type Source, type SourceContext } from '../source/source';
import { realClock, type Clock } from '../util/clock';
import { errorMessage, isError } from '../util/errors';
import { defaultNewQueue } from './default-queue';
import { DEFAULT_CACHE_SYNC_TIMEOUT_MS, type ControllerOptions, type ControllerQueue, type NewQueue } from './options';
import { handleResult, readResult } from './result-handling';
import { ReconcileSignals, type ReconcileSignal } from './reconcile-signal';
import { Stepper } from './stepper';
import type { TypedRateLimiter } from '../workqueue/interfaces';
import { runtimeDefaults } from '../upstream';
import { yieldToEventLoop } from '../util/yield';

/**
 * Reconciles a worker runs before it yields. Smaller than the informer's burst: a reconcile costs tens of µs
 * (a cached read is a deep copy), and every worker of every controller takes its burst in the same turn of the
 * event loop: with 1,000 each, ten controllers syncing 100,000 objects still held it for 909 ms at a time.
 */
const WORKER_BURST = 100;

/** Names taken per metrics registry (upstream keeps one process-wide set for the same reason). */
const usedNames = new WeakMap<Registry, Set<string>>();

/** A thrown value that is a programming error rather than a returned error: Go's panic. */
export function isPanic(err: unknown): boolean {
  // A value whose prototype cannot even be read (a Proxy with a throwing getPrototypeOf) is no error: a panic.
  if (!isError(err)) return true;
  try {
    return (
      err instanceof TypeError ||
      err instanceof ReferenceError ||
      err instanceof RangeError ||
      err instanceof SyntaxError ||
      err instanceof EvalError
    );
  } catch {
    return true;
  }
}

export class Controller {
  readonly name: string;
  readonly stepper = new Stepper();
  private readonly reconciler: Reconciler;
  private readonly workers: number;
  private readonly cacheSyncTimeoutMs: number;
  private readonly recoverPanic: boolean;
  private readonly leaderElection: boolean;
  private readonly reconciliationTimeoutMs: number;
  private readonly abortGraceMs: number;
  private readonly clock: Clock;
  private readonly probe: Probe;
  private readonly registry: Registry;
  private readonly metrics: ControllerMetrics;
  private readonly log: Logger;
  private readonly newQueue: NewQueue;
  private readonly rateLimiter?: TypedRateLimiter<Request>;
  private readonly forKind?: string;
  /** What lifecycle events say the controller is wired to and runs on. */
  private readonly wiring: Pick<ControllerLifecycleEvent, 'sources' | 'queueKind' | 'rateLimiter'>;
  private readonly pendingSources: Source[] = [];
  /** Every source ever watched, for watchedKinds(). */
  private readonly allSources: Source[] = [];
  private queue?: ControllerQueue;
  private started = false;
  private sourcesStarted = false;
  private signal?: AbortSignal;
  private active = 0;
  private readonly enableWarmup: boolean;
  private sourcesOnce?: Promise<ControllerQueue>;
  private readonly reconcileSignals: ReconcileSignals;

  constructor(opts: ControllerOptions) {
    if (!opts?.reconciler) throw new Error('must specify Reconciler');
    if (!opts.name) throw new Error('must specify Name for Controller');
    this.registry = opts.registry ?? defaultRegistry;
    if (!opts.skipNameValidation) {
      let names = usedNames.get(this.registry);
      if (!names) usedNames.set(this.registry, (names = new Set()));
      if (names.has(opts.name)) {
        throw new Error(
          `controller with name ${opts.name} already exists. Controller names must be unique to avoid multiple controllers reporting the same metric. This validation can be disabled via the SkipNameValidation option`,
        );
      }
      names.add(opts.name);
    }
    this.name = opts.name;
    this.reconciler = opts.reconciler;
    this.workers = opts.maxConcurrentReconciles && opts.maxConcurrentReconciles > 0 ? opts.maxConcurrentReconciles : 1;
    this.cacheSyncTimeoutMs =
      opts.cacheSyncTimeoutMs && opts.cacheSyncTimeoutMs > 0 ? opts.cacheSyncTimeoutMs : DEFAULT_CACHE_SYNC_TIMEOUT_MS;
    this.recoverPanic = opts.recoverPanic ?? true;
    this.leaderElection = opts.needLeaderElection ?? true;
    this.reconciliationTimeoutMs = opts.reconciliationTimeoutMs ?? 0;
    this.abortGraceMs = opts.abortGraceMs ?? 5000;
    this.clock = opts.clock ?? realClock;
    this.reconcileSignals = new ReconcileSignals(this.clock);
    this.probe = opts.probe ?? NOOP_PROBE;
    this.metrics = controllerMetrics(this.registry);
    this.log = (opts.log ?? NULL_LOGGER).withValues({ controller: opts.name });
    const usePriorityQueue = opts.usePriorityQueue ?? runtimeDefaults().usePriorityQueue;
    this.newQueue = opts.newQueue ?? defaultNewQueue(usePriorityQueue);
    this.rateLimiter = opts.rateLimiter;
    this.forKind = opts.forKind;
    this.wiring = {
      ...(opts.sources ? { sources: opts.sources } : {}),
      queueKind: opts.newQueue ? 'custom' : usePriorityQueue ? 'priority' : 'rateLimiting',
      rateLimiter: opts.rateLimiter ? 'custom' : 'default',
    };
    this.enableWarmup = opts.enableWarmup ?? false;
  }

  /** Runnable.NeedLeaderElection */
  needLeaderElection(): boolean {
    return this.leaderElection;
  }

  /** Workers busy with a reconcile right now (a hung reconcile keeps one busy). */
  activeWorkers(): number {
    return this.active;
  }

  maxConcurrentReconciles(): number {
    return this.workers;
  }

  /** The queue, once started. */
  getQueue(): ControllerQueue | undefined {
    return this.queue;
  }

  /**
   * The kinds this controller's Kind sources watch, e.g. for checking access to all of them before starting
   * (upstream has no such accessor; it only learns of a missing permission from a cache sync timeout).
   */
  watchedKinds(): { group: string; version: string; kind: string }[] {
    const out = new Map<string, { group: string; version: string; kind: string }>();
    for (const src of this.allSources) {
      const gvk = (src as { gvk?: { group: string; version: string; kind: string } }).gvk;
      if (gvk) out.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, gvk);
    }
    return [...out.values()];
  }

  /** Controller.Watch: remembered until Start, started at once afterwards. */
  async watch(src: Source): Promise<void> {
    this.allSources.push(src);
    if (!this.sourcesStarted || !this.queue || !this.signal) {
      this.pendingSources.push(src);
      return;
    }
    await src.start(this.sourceContext());
  }

  /** Enqueues a key by hand (the dashboard's "reconcile now"). */
  requeue(key: string, detail?: string): void {
    if (!this.queue) throw new Error(`controller ${this.name} is not started`);
    const cause: EnqueueCause = detail === undefined ? { type: 'manual' } : { type: 'manual', detail };
    this.queue.add(requestFromKey(key), cause);
  }

  /** Runs until signal aborts: starts sources, waits for their sync, runs the workers. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started) {
      throw new Error(
        'controller was started more than once. This is likely to be caused by being added to a manager multiple times',
      );
    }
    this.started = true;
    this.signal = signal;
    initControllerMetrics(this.metrics, this.name, this.workers);
    this.lifecycle('starting');
    this.lifecycle('waitingForCacheSync');
    let queue: ControllerQueue;
    try {
      queue = await this.startEventSourcesAndQueue(signal);
    } catch (err) {
      this.queue?.shutDown();
      if (signal.aborted) {
        this.lifecycle('stopped');
        return;
      }
      this.lifecycle('cacheSyncTimeout', { error: errorMessage(err) });
      throw err;
    }
    if (signal.aborted) {
      this.lifecycle('stopped');
      return;
    }

    let fatal: ((err: unknown) => void) | undefined;
    const fatalError = new Promise<never>((_resolve, reject) => (fatal = reject));
    fatalError.catch(() => undefined);
    const workers: Promise<void>[] = [];
    for (let i = 0; i < this.workers; i++) {
      workers.push(this.worker(i, queue, signal).catch((err: unknown) => fatal?.(err)));
    }
    this.lifecycle('started', { workers: this.workers });
    try {
      await Promise.race([whenAborted(signal), fatalError]);
    } catch (err) {
      queue.shutDown();
      this.lifecycle('stopped', { error: errorMessage(err) });
      throw err;
    }
    this.lifecycle('stopping');
    queue.shutDown();
    await Promise.all(workers);
    this.lifecycle('stopped');
  }

  /**
   * Warmup: with enableWarmup, starts the queue and the sources (and waits for their sync) before this
   * controller is elected, so a new leader starts with warm caches. A no-op otherwise.
   */
  async warmup(signal: AbortSignal): Promise<void> {
    if (!this.enableWarmup) return;
    this.signal ??= signal;
    await this.startEventSourcesAndQueue(signal);
  }

  /** Creates the queue and starts every source once, whether Warmup or Start gets there first. */
  private startEventSourcesAndQueue(signal: AbortSignal): Promise<ControllerQueue> {
    if (!this.sourcesOnce) {
      const queue = this.newQueue(this.name, this.rateLimiter, {
        clock: this.clock,
        probe: this.probe,
        registry: this.registry,
      });
      this.queue = queue;
      if (signal.aborted) queue.shutDown();
      else signal.addEventListener('abort', () => queue.shutDown(), { once: true });
      this.sourcesOnce = this.startSources(signal).then(() => queue);
    }
    return this.sourcesOnce;
  }

  private sourceContext(): SourceContext {
    return {
      signal: this.signal as AbortSignal,
      queue: this.queue as ControllerQueue,
      controller: this.name,
      probe: this.probe,
      log: this.log,
    };
  }

  private async startSources(signal: AbortSignal): Promise<void> {
    const sources = this.pendingSources.splice(0);
    await Promise.all(
      sources.map(async (src) => {
        const ctx = childContext(signal, this.clock, this.cacheSyncTimeoutMs);
        try {
          const startErr = await Promise.race([
            src.start({ ...this.sourceContext(), signal }).then(() => undefined),
            whenAborted(ctx.signal).then(() =>
              isDeadlineExceeded(ctx.signal.reason)
                ? new Error(
                    `timed out waiting for source ${src.toString()} to Start. Please ensure that its Start() method is non-blocking`,
                  )
                : undefined,
            ),
          ]);
          if (startErr) throw startErr;
          if (signal.aborted || !isSyncingSource(src)) return;
          try {
            await src.waitForSync(ctx.signal);
          } catch (err) {
            throw new Error(`failed to wait for ${this.name} caches to sync ${src.toString()}: ${errorMessage(err)}`, {
              cause: err,
            });
          }
        } finally {
          ctx.cancel();
        }
      }),
    );
    this.sourcesStarted = true;
    // Sources watched while the others were starting.
    for (const src of this.pendingSources.splice(0)) await src.start(this.sourceContext());
  }

  private async worker(id: number, queue: ControllerQueue, signal: AbortSignal): Promise<void> {
    // A queue that always has an item and a reconciler that never waits on I/O (reads from the cache) keep
    // this loop in microtasks: a 100,000-key backlog then holds the event loop for seconds. Upstream's
    // workers are goroutines the scheduler preempts; here each worker gives the event loop a turn per burst.
    for (let n = 1; ; n++) {
      if (n % WORKER_BURST === 0) await yieldToEventLoop();
      const admitted = await this.stepper.beforeGet(signal);
      const got = queue.getWithPriority
        ? await queue.getWithPriority()
        : await queue.get().then((r) => ({ ...r, priority: 0 }));
      if (got.shutdown) return;
      const req = got.item;
      try {
        await this.stepper.afterGet(requestKey(req), admitted, signal, {
          worker: id,
          attempt: queue.numRequeues(req) + 1,
        });
        this.active++;
        this.metrics.activeWorkers.inc({ controller: this.name });
        try {
          await this.reconcileHandler(req, got.priority ?? 0, got.causes ?? [], id);
        } finally {
          this.active--;
          this.metrics.activeWorkers.dec({ controller: this.name });
        }
      } finally {
        queue.done(req);
      }
    }
  }

  /** One request through the reconciler and the result handling (upstream reconcileHandler). */
  async reconcileHandler(req: Request, priority: number, causes: EnqueueCause[], worker = 0): Promise<void> {
    const queue = this.queue;
    if (!queue) throw new Error(`controller ${this.name} is not started`);
    const key = requestKey(req);
    const started = this.clock.now();
    const attempt = queue.numRequeues(req) + 1;
    // Made before the start is reported, so the start, the end and every write between carry the same id:
    // the dashboard ties a write to the reconcile that made it by this id, not by which worker was busy.
    const reconcileID = randomUUID();
    if (this.probe.enabled) {
      this.probe.emit({
        kind: 'reconcile.start',
        controller: this.name,
        key,
        worker,
        causes,
        attempt,
        reconcileId: reconcileID,
      });
    }
    const { result, err, hasErr, panicked, timedOut } = await this.reconcile(req, worker, reconcileID);
    if (timedOut) this.metrics.reconcileTimeouts.inc({ controller: this.name });
    if (hasErr) {
      this.log.error(err, 'Reconciler error', { object: key, namespace: req.namespace, name: req.name });
    }
    const handled = handleResult({
      queue,
      req,
      result,
      err,
      hasErr,
      panicked,
      priority,
      controller: this.name,
      metrics: this.metrics,
    });
    const elapsed = this.clock.now() - started;
    this.metrics.reconcileTime.observe({ controller: this.name }, elapsed / 1000);
    if (this.probe.enabled) {
      this.probe.emit({
        kind: 'reconcile.end',
        controller: this.name,
        key,
        worker,
        durationMs: elapsed,
        outcome: handled.outcome,
        reconcileId: reconcileID,
        // Bounded: the message travels into the view, the notable log and recordings.
        ...(hasErr ? { error: errorMessage(err).slice(0, MAX_ERROR_CHARS) } : {}),
        ...(handled.requeueAfterMs !== undefined ? { requeueAfterMs: handled.requeueAfterMs } : {}),
      });
    }
    // After the end is reported, so a viewer sees the reconcile that a breakpoint stopped on.
    this.stepper.reconcileEnded(key, handled.outcome, attempt);
  }

  /** The reconcile wrapper: fresh context per request, optional deadline, panic recovery. */
  private async reconcile(
    req: Request,
    worker: number,
    reconcileID: string,
  ): Promise<{
    result: Result | void;
    err: unknown;
    hasErr: boolean;
    panicked: boolean;
    timedOut: boolean;
  }> {
    const log = this.log.withValues({
      object: requestKey(req),
      namespace: req.namespace,
      name: req.name,
      reconcileID,
    });
    let grace: { cancel(): void } | undefined;
    // The parent may be aborted already, in which case this runs inside open().
    const ctx = this.reconcileSignals.open(this.signal, this.reconciliationTimeoutMs, (aborted) => {
      grace = this.watchGrace(this.timedOut(aborted) ? 'timeout' : 'shutdown', req, worker, log);
    });
    const controller = this.name;
    const rctx = new RunContext(ctx, log, reconcileID, controller);
    try {
      const returned: unknown = await runInReconcileScope({ controller, key: requestKey(req), reconcileID }, () =>
        this.reconciler.reconcile(rctx, req),
      );
      const result = readResult(returned);
      const timedOut = this.timedOut(ctx);
      if (result instanceof Error) return { result: undefined, err: result, hasErr: true, panicked: false, timedOut };
      return { result, err: undefined, hasErr: false, panicked: false, timedOut };
    } catch (thrown) {
      const timedOut = this.timedOut(ctx);
      if (!isPanic(thrown)) return { result: undefined, err: thrown, hasErr: true, panicked: false, timedOut };
      this.metrics.reconcilePanics.inc({ controller: this.name });
      if (!this.recoverPanic) throw thrown;
      const err = new Error(`panic: ${errorMessage(thrown)} [recovered]`, { cause: thrown });
      return { result: undefined, err, hasErr: true, panicked: true, timedOut };
    } finally {
      grace?.cancel();
      ctx.cancel();
    }
  }

  /**
   * Once the reconcile's context aborts, gives it abortGraceMs to return; past that it is reported, since it
   * holds a worker (and a shutdown) for as long as it ignores the signal. Returns the timer to cancel.
   */
  private watchGrace(reason: 'timeout' | 'shutdown', req: Request, worker: number, log: Logger): { cancel(): void } {
    const abortedAt = this.clock.now();
    return this.clock.setTimer(() => {
      const sinceAbortMs = this.clock.now() - abortedAt;
      log.error(new Error('reconcile ignores its abort signal'), 'Reconciler still running after abort', {
        reason,
        sinceAbortMs,
      });
      if (this.probe.enabled) {
        this.probe.emit({
          kind: 'reconcile.stuck',
          controller: this.name,
          key: requestKey(req),
          worker,
          reason,
          sinceAbortMs,
        });
      }
    }, this.abortGraceMs);
  }

  private timedOut(ctx: { aborted: boolean; reason: unknown }): boolean {
    return this.reconciliationTimeoutMs > 0 && ctx.aborted && isDeadlineExceeded(ctx.reason);
  }

  private lifecycle(phase: ControllerLifecycleEvent['phase'], extra: Partial<ControllerLifecycleEvent> = {}): void {
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'controller.lifecycle',
      controller: this.name,
      phase,
      ...(this.forKind ? { forKind: this.forKind } : {}),
      // With every phase, not only the first: a recording or a view that starts later still gets the wiring.
      ...this.wiring,
      ...extra,
    });
  }
}

const MAX_ERROR_CHARS = 4000;

/**
 * The ReconcileContext a reconciler gets. `signal` is an own enumerable getter, so `{ ...ctx }` still copies it
 * (building the signal then), and it is one shared function: an object literal with a getter would give every
 * reconcile's context a hidden class of its own.
 */
class RunContext implements ReconcileContext {
  declare readonly signal: AbortSignal;
  readonly #lazy: ReconcileSignal;

  constructor(
    lazy: ReconcileSignal,
    readonly log: Logger,
    readonly reconcileID: string,
    readonly controller: string,
  ) {
    this.#lazy = lazy;
    Object.defineProperty(this, 'signal', RunContext.#signalProperty);
  }

  static readonly #signalProperty: PropertyDescriptor = {
    get(this: RunContext): AbortSignal {
      return this.#lazy.signal;
    },
    enumerable: true,
  };
}

/** controller.NewUnmanaged */
export function newUnmanaged(opts: ControllerOptions): Controller {
  return new Controller(opts);
}
