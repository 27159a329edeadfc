// Ports client-go tools/leaderelection/leaderelection.go: acquire a lock, keep renewing it, and call back
// when leadership starts and stops. Lease validity is judged on the local time at which the record was
// last seen to change, never on the timestamps inside it (so clock skew between candidates is harmless).
import type { LeaderElectionEvent } from '../../../shared/protocol/events-controller';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import type { LeaderElectionMetrics } from '../metrics/leaderelection-metrics';
import { childContext } from '../util/context';
import { realClock, type Clock } from '../util/clock';
import { isConflict, isNotFound } from '../util/errors';
import type { LeaderElectionRecord, ResourceLock } from './resource-lock';

/** leaderelection.JitterFactor */
export const JITTER_FACTOR = 1.2;

export interface LeaderCallbacks {
  /** Runs while leading; its signal aborts when leadership ends. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Always called when run() returns. */
  onStoppedLeading(): void;
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  lock: ResourceLock;
  /** How long non-leaders wait after the last observed change before taking over. */
  leaseDurationMs: number;
  /** How long the leader keeps retrying a renewal before giving up. */
  renewDeadlineMs: number;
  /** Interval between attempts. */
  retryPeriodMs: number;
  callbacks: LeaderCallbacks;
  /** Give the lease up when run()'s signal aborts. Default false. */
  releaseOnCancel?: boolean;
  /** Names the elector in metrics (the lease name by default). */
  name?: string;
  clock?: Clock;
  probe?: Probe;
  metrics?: LeaderElectionMetrics;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
}

/** NewLeaderElector's validation. */
export function validateLeaderElectionConfig(c: LeaderElectionConfig): void {
  if (c.leaseDurationMs <= c.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) {
    throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
  }
  if (c.leaseDurationMs < 1) throw new Error('leaseDuration must be greater than zero');
  if (c.renewDeadlineMs < 1) throw new Error('renewDeadline must be greater than zero');
  if (c.retryPeriodMs < 1) throw new Error('retryPeriod must be greater than zero');
  if (!c.callbacks?.onStartedLeading) throw new Error('OnStartedLeading callback must not be nil');
  if (!c.callbacks.onStoppedLeading) throw new Error('OnStoppedLeading callback must not be nil');
  if (!c.lock) throw new Error('Lock must not be nil.');
  if (!c.lock.identity()) throw new Error('Lock identity is empty');
}

export class LeaderElector {
  private readonly clock: Clock;
  private readonly probe: Probe;
  private readonly random: () => number;
  private readonly name: string;
  private observedRecord?: LeaderElectionRecord;
  private observedRaw?: string;
  private observedTime = 0;
  private reportedLeader = '';

  constructor(private readonly c: LeaderElectionConfig) {
    validateLeaderElectionConfig(c);
    this.clock = c.clock ?? realClock;
    this.probe = c.probe ?? NOOP_PROBE;
    this.random = c.random ?? Math.random;
    this.name = c.name ?? c.lock.describe();
  }

  /** The holder we last observed. */
  getLeader(): string {
    return this.observedRecord?.holderIdentity ?? '';
  }

  isLeader(): boolean {
    return this.observedRecord?.holderIdentity === this.c.lock.identity();
  }

  /** Acquires, leads until the lease is lost or signal aborts, then always calls onStoppedLeading. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      this.emit('acquiring');
      if (!(await this.acquire(signal))) return;
      const leading = childContext(signal, this.clock);
      void Promise.resolve()
        .then(() => this.c.callbacks.onStartedLeading(leading.signal))
        .catch(() => undefined);
      try {
        await this.renew(signal);
      } finally {
        leading.cancel();
      }
    } finally {
      this.c.metrics?.masterStatus.set({ name: this.name }, 0);
      this.c.callbacks.onStoppedLeading();
    }
  }

  private jittered(): number {
    return this.c.retryPeriodMs * (1 + this.random() * JITTER_FACTOR);
  }

  /** Tries every retryPeriod (jittered) until it holds the lock or signal aborts. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal.aborted) return false;
      if (await this.tryAcquireOrRenew(signal)) {
        this.c.metrics?.masterStatus.set({ name: this.name }, 1);
        this.emit('acquired');
        return true;
      }
      this.maybeReportTransition();
      try {
        await this.clock.sleep(this.jittered(), signal);
      } catch {
        return false;
      }
    }
  }

  /** Renews every retryPeriod; a round that cannot renew within renewDeadline loses the lease. */
  private async renew(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) break;
      const round = childContext(signal, this.clock, this.c.renewDeadlineMs);
      let renewed = false;
      try {
        for (;;) {
          if (await this.tryAcquireOrRenew(round.signal)) {
            renewed = true;
            break;
          }
          try {
            await this.clock.sleep(this.c.retryPeriodMs, round.signal);
          } catch {
            break;
          }
        }
      } finally {
        round.cancel();
      }
      this.maybeReportTransition();
      if (!renewed) {
        if (signal.aborted) break;
        this.emit('lost', this.getLeader());
        return;
      }
      this.emit('renewed');
      try {
        await this.clock.sleep(this.c.retryPeriodMs, signal);
      } catch {
        break;
      }
    }
    if (this.c.releaseOnCancel) await this.release();
  }

  /** Gives the lease up if we hold it (holder cleared, 1s duration). */
  async release(): Promise<boolean> {
    if (!this.isLeader() || !this.observedRecord) return true;
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaderTransitions: this.observedRecord.leaderTransitions,
    };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await this.c.lock.update(record);
        this.setObserved(record);
        this.emit('released');
        return true;
      } catch (err) {
        if (!isConflict(err)) return false;
        try {
          await this.c.lock.get();
        } catch {
          return false;
        }
      }
    }
    return false;
  }

  /** One attempt (tryAcquireOrRenew): true when we hold the lock afterwards. */
  async tryAcquireOrRenew(signal?: AbortSignal): Promise<boolean> {
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: this.c.lock.identity(),
      leaseDurationSeconds: Math.floor(this.c.leaseDurationMs / 1000),
      acquireTime: now,
      renewTime: now,
      leaderTransitions: 0,
    };

    // Fast path: we hold a lease that is still valid locally, so update without reading first.
    if (this.isLeader() && this.isLeaseValid(now) && this.observedRecord) {
      const renewed = {
        ...record,
        acquireTime: this.observedRecord.acquireTime,
        leaderTransitions: this.observedRecord.leaderTransitions,
      };
      try {
        await this.c.lock.update(renewed, signal);
        this.setObserved(renewed);
        return true;
      } catch {
        this.c.metrics?.slowpathTotal.inc({ name: this.name });
      }
    }

    let current: { record: LeaderElectionRecord; raw: string };
    try {
      current = await this.c.lock.get(signal);
    } catch (err) {
      if (!isNotFound(err)) return false;
      try {
        await this.c.lock.create(record, signal);
      } catch {
        return false;
      }
      this.setObserved(record);
      return true;
    }

    if (this.observedRaw !== current.raw) {
      this.observedRecord = current.record;
      this.observedRaw = current.raw;
      this.observedTime = this.clock.now();
    }
    const observed = current.record;
    if (observed.holderIdentity !== '' && this.isLeaseValid(now) && !this.isLeader()) return false;

    if (this.isLeader()) {
      record.acquireTime = observed.acquireTime;
      record.leaderTransitions = observed.leaderTransitions;
    } else {
      record.leaderTransitions = observed.leaderTransitions + 1;
    }
    try {
      await this.c.lock.update(record, signal);
    } catch {
      return false;
    }
    this.setObserved(record);
    return true;
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + (this.observedRecord?.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private setObserved(record: LeaderElectionRecord): void {
    this.observedRecord = record;
    this.observedRaw = JSON.stringify(record);
    this.observedTime = this.clock.now();
  }

  private maybeReportTransition(): void {
    const leader = this.getLeader();
    if (leader === this.reportedLeader) return;
    this.reportedLeader = leader;
    this.emit('observed', leader);
    if (leader) this.c.callbacks.onNewLeader?.(leader);
  }

  private emit(phase: LeaderElectionEvent['phase'], holder?: string): void {
    if (phase === 'acquired') this.maybeReportTransition();
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'leaderelection.state',
      lease: this.c.lock.describe(),
      identity: this.c.lock.identity(),
      phase,
      ...(holder !== undefined ? { holder } : {}),
    });
  }

  /** For tests and the UI: what this elector last saw. */
  observed(): { record?: LeaderElectionRecord; observedTime: number } {
    return { record: this.observedRecord, observedTime: this.observedTime };
  }
}
