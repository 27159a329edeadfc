// Fault injection for the dashboard and chaos tests: per-verb latency and failure rates, closing every
// watch, compacting history now. Not an upstream port; the failures it answers mimic what a real
// API server under stress returns (Status bodies with the usual reasons, Retry-After on 429/5xx).
import type { Clock } from '../../runtime/util/clock';
import type { ObjectStorage } from './storage';
import { StatusError } from './status-errors';
import type { WatchHub } from './watch-hub';

export type FaultVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | '*';

export interface FailureRule {
  fraction: number;
  code: number;
}

export interface FaultState {
  latencyMs: Partial<Record<FaultVerb, number>>;
  failures: Partial<Record<FaultVerb, FailureRule>>;
}

const REASONS: Record<number, [string, string]> = {
  400: ['BadRequest', 'injected fault: bad request'],
  403: ['Forbidden', 'injected fault: forbidden'],
  404: ['NotFound', 'injected fault: not found'],
  409: [
    'Conflict',
    'injected fault: the object has been modified; please apply your changes to the latest version and try again',
  ],
  410: ['Expired', 'injected fault: too old resource version'],
  429: ['TooManyRequests', 'Too many requests, please try again later.'],
  500: ['InternalError', 'Internal error occurred: injected fault'],
  503: ['ServiceUnavailable', 'injected fault: service unavailable'],
  504: ['Timeout', 'Timeout: injected fault'],
};

export interface FaultInjectorOptions {
  clock: Clock;
  storage: ObjectStorage;
  hub: WatchHub;
  /** Default Math.random; tests pass a deterministic source. */
  random?: () => number;
}

/** The typed fault API the dashboard calls in-process. */
export class FaultInjector {
  private state: FaultState = { latencyMs: {}, failures: {} };
  private readonly random: () => number;

  constructor(private readonly opts: FaultInjectorOptions) {
    this.random = opts.random ?? Math.random;
  }

  /** Ends every open watch stream normally; returns how many were closed. */
  closeAllWatches(): number {
    return this.opts.hub.closeAll();
  }

  /** Drops all change history: watches and exact lists from older revisions now get 410. Returns the compacted RV. */
  compactNow(): number {
    return this.opts.storage.compactNow();
  }

  setLatency(verb: FaultVerb, ms: number): void {
    if (ms <= 0) delete this.state.latencyMs[verb];
    else this.state.latencyMs[verb] = ms;
  }

  /** Fails `fraction` (0..1) of requests of `verb` with `code` (default 500). */
  setFailureRate(verb: FaultVerb, fraction: number, code = 500): void {
    if (fraction <= 0) delete this.state.failures[verb];
    else this.state.failures[verb] = { fraction: Math.min(1, fraction), code };
  }

  clear(): void {
    this.state = { latencyMs: {}, failures: {} };
  }

  snapshot(): FaultState {
    return structuredClone(this.state);
  }

  /** Applies latency then maybe a failure for one request; called by the router before handling. */
  async before(verb: Exclude<FaultVerb, '*'>): Promise<void> {
    const delay = this.state.latencyMs[verb] ?? this.state.latencyMs['*'];
    if (delay) await this.opts.clock.sleep(delay);
    const rule = this.state.failures[verb] ?? this.state.failures['*'];
    if (rule && this.random() < rule.fraction) {
      const [reason, message] = REASONS[rule.code] ?? ['', `injected fault: HTTP ${rule.code}`];
      const retry = rule.code === 429 || rule.code >= 500 ? { retryAfterSeconds: 1 } : undefined;
      throw new StatusError(rule.code, reason, message, retry);
    }
  }
}
