// Ports controller-runtime pkg/manager/runnable_group.go: runnables started together, readiness-gated,
// and stopped together. Errors go to the manager through onError.
import { childContext, whenAborted, type ChildContext } from '../util/context';
import type { Clock } from '../util/clock';
import {
  isCacheRunnable,
  isLeaderElectionRunnable,
  isServerRunnable,
  isWarmupRunnable,
  isWebhookRunnable,
  type Runnable,
} from './runnable';

export type ReadyCheck = (signal: AbortSignal) => Promise<boolean>;

const ALWAYS_READY: ReadyCheck = async () => true;

interface Member {
  runnable: Runnable;
  ready: ReadyCheck;
  done?: Promise<void>;
}

export class RunnableGroup {
  private readonly members: Member[] = [];
  private started = false;
  private stopped = false;
  private ctx?: ChildContext;

  constructor(
    readonly name: string,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Queues r (before start) or starts it at once; refused once stopping. */
  add(runnable: Runnable, ready: ReadyCheck = ALWAYS_READY): void {
    if (this.stopped) throw new Error("can't accept new runnable as stop procedure is already engaged");
    const m: Member = { runnable, ready };
    this.members.push(m);
    if (this.started) this.run(m);
  }

  isStarted(): boolean {
    return this.started;
  }

  size(): number {
    return this.members.length;
  }

  /** Starts every member and waits until each reports ready (or signal ends: rejects). */
  async start(parent: AbortSignal): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.ctx = childContext(undefined, this.clock);
    for (const m of this.members) this.run(m);
    await Promise.all(
      this.members.map(async (m) => {
        const ready = await Promise.race([m.ready(parent), whenAborted(parent).then(() => false)]);
        if (!ready && parent.aborted) throw new Error(`context canceled while starting ${this.name} runnables`);
      }),
    );
  }

  private run(m: Member): void {
    const signal = this.ctx?.signal as AbortSignal;
    m.done = Promise.resolve()
      .then(() => m.runnable.start(signal))
      .then(
        () => undefined,
        (err: unknown) => this.onError(err),
      );
  }

  /** Cancels the group and waits for every member, or until deadline aborts. */
  async stopAndWait(deadline?: AbortSignal): Promise<void> {
    this.stopped = true;
    this.ctx?.cancel();
    const all = Promise.all(this.members.map((m) => m.done)).then(() => undefined);
    if (!deadline) return all;
    await Promise.race([all, whenAborted(deadline)]);
  }
}

export type GroupName = 'HTTPServers' | 'Webhooks' | 'Caches' | 'Others' | 'Warmup' | 'LeaderElection';

/** manager.runnables: the groups and the classification of Add. */
export class Runnables {
  readonly HTTPServers: RunnableGroup;
  readonly Webhooks: RunnableGroup;
  readonly Caches: RunnableGroup;
  readonly Others: RunnableGroup;
  /** Warmup(ctx) of runnables that have one, started before leader election is won. */
  readonly Warmup: RunnableGroup;
  readonly LeaderElection: RunnableGroup;

  constructor(clock: Clock, onError: (err: unknown) => void) {
    this.HTTPServers = new RunnableGroup('HTTPServers', clock, onError);
    this.Webhooks = new RunnableGroup('Webhooks', clock, onError);
    this.Caches = new RunnableGroup('Caches', clock, onError);
    this.Others = new RunnableGroup('Others', clock, onError);
    this.Warmup = new RunnableGroup('Warmup', clock, onError);
    this.LeaderElection = new RunnableGroup('LeaderElection', clock, onError);
  }

  /** Which group Add puts r in. */
  groupFor(r: Runnable): GroupName {
    if (isServerRunnable(r)) {
      return r.needLeaderElection?.() ? 'LeaderElection' : 'HTTPServers';
    }
    if (isCacheRunnable(r)) return 'Caches';
    if (isWebhookRunnable(r)) return 'Webhooks';
    if (isLeaderElectionRunnable(r)) return r.needLeaderElection() ? 'LeaderElection' : 'Others';
    return 'LeaderElection';
  }

  add(r: Runnable): GroupName {
    const g = this.groupFor(r);
    if (isWarmupRunnable(r) && !isServerRunnable(r) && !isCacheRunnable(r)) {
      this.Warmup.add({ start: (s) => r.warmup(s) });
    }
    if (g === 'Caches' && isCacheRunnable(r)) this.Caches.add(r, (s) => r.waitForCacheSync(s));
    else this[g].add(r);
    return g;
  }
}
