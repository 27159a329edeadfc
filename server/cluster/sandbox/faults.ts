// Fault injection for the dashboard and chaos tests: rules that delay or fail matching requests, stalled
// watches, watches ended with 410 Expired or closed, history compacted now. Not an upstream port; the
// failures mimic what a real API server under stress returns (Status bodies with the usual reasons,
// Retry-After on 429/5xx, the etcd "too old" 410 on a watch that fell out of the window).
import type { Clock, TimerHandle } from '../../runtime';
import type { ObjectStorage } from './storage';
import { newGone, newStaleConflict, StatusError } from './status-errors';
import type { WatchHub, WatchInfo } from './watch-hub';

export type FaultVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | '*';
export type RequestVerb = Exclude<FaultVerb, '*'>;

/**
 * Which watches a fault applies to; absent fields match everything. A namespace matches namespaced
 * types only: requests in that namespace, and list/watch across all namespaces (they read it too).
 */
export interface WatchTarget {
  /** API group, '' for the core group; absent: any group serving `resource`. */
  group?: string;
  /** Resource plural, e.g. 'configmaps'. */
  resource?: string;
  namespace?: string;
}

/** Which requests a rule applies to; verbs absent (or containing '*') match every verb. */
export interface RequestTarget extends WatchTarget {
  verbs?: FaultVerb[];
  /** The object named in the path; absent: any (a create names none). */
  name?: string;
}

/**
 * A request rule. `until` (clock ms) retires it by itself; `times` retires it once it has failed that many
 * requests (a one-shot fault on one chosen request); absent: until removed.
 */
export type FaultRuleSpec = RequestTarget & { until?: number; times?: number } & (
    | { kind: 'latency'; ms: number }
    /**
     * Fails `rate` (0..1] of matching requests with `code` (4xx/5xx). 429 and 5xx carry Retry-After:
     * `retryAfterSeconds` (default 1; 0 sends none, so the client does not retry by itself).
     */
    | { kind: 'errors'; rate: number; code: number; retryAfterSeconds?: number }
    /** 409 Conflict for `rate` of matching writes; verbs default to update and patch. */
    | { kind: 'conflicts'; rate: number }
  );

export type FaultRule = FaultRuleSpec & { id: string };

export interface StallRule extends WatchTarget {
  id: string;
  until?: number;
  /**
   * How the stalled watches resume: 'replay' (default) sends what they missed from history; 'relist' ends
   * them with 410 Expired, so their reflectors relist and see only the latest state of each object (missed
   * deletes come back as tombstones).
   */
  lift?: 'replay' | 'relist';
}

export interface FaultState {
  rules: FaultRule[];
  stalls: StallRule[];
}

/** One request as the resource handler sees it, before handling. */
export interface FaultRequest {
  verb: RequestVerb;
  group: string;
  resource: string;
  namespaced: boolean;
  namespace?: string;
  /** The object named in the path, if any (conflict messages name it). */
  name?: string;
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

/** What etcd3's watcher answers when the requested revision was compacted away. */
export const WATCH_EXPIRED_MESSAGE = 'The resourceVersion for the provided watch is too old.';

export interface FaultInjectorOptions {
  clock: Clock;
  storage: ObjectStorage;
  hub: WatchHub;
  /** Default Math.random; tests pass a deterministic source. */
  random?: () => number;
}

/** True when `t` selects the watched type/scope `w` (see WatchTarget for namespaces). */
export function targetMatches(t: WatchTarget & { name?: string }, w: WatchInfo & { name?: string }): boolean {
  if (t.group !== undefined && t.group !== w.group) return false;
  if (t.resource !== undefined && t.resource !== w.resource) return false;
  if (t.name !== undefined && t.name !== w.name) return false;
  if (t.namespace !== undefined) {
    if (!w.namespaced) return false;
    if (w.namespace !== undefined && w.namespace !== t.namespace) return false;
  }
  return true;
}

function verbMatches(verbs: FaultVerb[] | undefined, verb: RequestVerb): boolean {
  return !verbs?.length || verbs.includes('*') || verbs.includes(verb);
}

function validate(spec: FaultRuleSpec): void {
  const bad = (what: string): never => {
    throw new RangeError(`fault rule: ${what}`);
  };
  if (spec.kind === 'latency' && !(spec.ms > 0 && Number.isFinite(spec.ms))) bad(`latency must be > 0 ms`);
  if (spec.kind !== 'latency' && !(spec.rate > 0 && spec.rate <= 1)) bad(`rate must be in (0, 1]`);
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times > 0))
    bad(`times must be a whole number > 0`);
  if (spec.kind === 'errors' && !(Number.isInteger(spec.code) && spec.code >= 400 && spec.code <= 599))
    bad(`code must be an HTTP 4xx/5xx status`);
}

/** The typed fault API the dashboard calls in-process. */
export class FaultInjector {
  private rules: FaultRule[] = [];
  private stalls: StallRule[] = [];
  private readonly stallTimers = new Map<string, TimerHandle>();
  private readonly random: () => number;
  private nextId = 1;

  constructor(private readonly opts: FaultInjectorOptions) {
    this.random = opts.random ?? Math.random;
  }

  /** Adds a request rule; returns its id. Throws RangeError for nonsense values. */
  addRule(spec: FaultRuleSpec): string {
    return this.put(`rule-${this.nextId++}`, spec);
  }

  /** Removes a request rule or a stall by id; false when there was none. */
  removeRule(id: string): boolean {
    if (this.stalls.some((s) => s.id === id)) return this.unstallWatches(id) > 0;
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  /** Rules in force now (expired ones are dropped first). */
  activeRules(): FaultRule[] {
    return structuredClone(this.live());
  }

  /**
   * Matching open and future watches stop sending (the connection stays open, events are dropped, not
   * queued). When the stall lifts they catch up from history, or get 410 Expired if it was compacted.
   * Returns the stall's id.
   */
  stallWatches(target: WatchTarget & { until?: number; lift?: StallRule['lift'] } = {}): string {
    const id = `stall-${this.nextId++}`;
    const rule: StallRule = { ...structuredClone(target), id };
    this.stalls.push(rule);
    if (target.until !== undefined) {
      const ms = Math.max(0, target.until - this.opts.clock.now());
      this.stallTimers.set(
        id,
        this.opts.clock.setTimer(() => this.unstallWatches(id), ms),
      );
    }
    this.applyStalls();
    return id;
  }

  /** Lifts one stall, or all without an id; returns how many were lifted. */
  unstallWatches(id?: string): number {
    const victims = this.stalls.filter((s) => id === undefined || s.id === id);
    if (!victims.length) return 0;
    for (const v of victims) {
      this.stallTimers.get(v.id)?.cancel();
      this.stallTimers.delete(v.id);
    }
    this.stalls = this.stalls.filter((s) => !victims.includes(s));
    // Ended before the policy changes, so they never replay: the watches no other stall holds.
    const expired = newGone(WATCH_EXPIRED_MESSAGE).toStatus();
    for (const v of victims.filter((s) => s.lift === 'relist')) {
      this.opts.hub.closeMatching((w) => targetMatches(v, w) && !this.stalls.some((s) => targetMatches(s, w)), expired);
    }
    this.applyStalls();
    return victims.length;
  }

  /** Open watches stalled right now. */
  stalledWatches(): number {
    return this.opts.hub.stalled;
  }

  /**
   * Compacts all history, then ends the matching open watches with an ERROR event carrying 410 Expired,
   * as kube-apiserver does for a watcher that fell out of the window: their reflectors relist.
   */
  expireWatches(target: WatchTarget = {}): { compactedRv: number; expired: number } {
    const compactedRv = this.opts.storage.compactNow();
    const status = newGone(WATCH_EXPIRED_MESSAGE).toStatus();
    const expired = this.opts.hub.closeMatching((w) => targetMatches(target, w), status);
    return { compactedRv, expired };
  }

  /** Ends the matching open watch streams normally (clients re-watch from their last resourceVersion). */
  closeWatches(target: WatchTarget = {}): number {
    return this.opts.hub.closeMatching((w) => targetMatches(target, w));
  }

  /** Ends every open watch stream normally; returns how many were closed. */
  closeAllWatches(): number {
    return this.opts.hub.closeAll();
  }

  /** Drops all change history: watches and exact lists from older revisions now get 410. Returns the compacted RV. */
  compactNow(): number {
    return this.opts.storage.compactNow();
  }

  /** Delays every request of `verb` ('*': all) by `ms`; 0 removes it. Rule id `latency:<verb>`. */
  setLatency(verb: FaultVerb, ms: number): void {
    const id = `latency:${verb}`;
    if (ms <= 0) this.removeRule(id);
    else this.put(id, { kind: 'latency', ms, ...(verb === '*' ? {} : { verbs: [verb] }) });
  }

  /** Fails `fraction` (0..1) of requests of `verb` with `code` (default 500); 0 removes it. Rule id `failure:<verb>`. */
  setFailureRate(verb: FaultVerb, fraction: number, code = 500): void {
    const id = `failure:${verb}`;
    if (fraction <= 0) this.removeRule(id);
    else
      this.put(id, { kind: 'errors', rate: Math.min(1, fraction), code, ...(verb === '*' ? {} : { verbs: [verb] }) });
  }

  /** Removes every rule and lifts every stall. */
  clear(): void {
    this.rules = [];
    this.unstallWatches();
  }

  snapshot(): FaultState {
    return { rules: this.activeRules(), stalls: structuredClone(this.stalls) };
  }

  /**
   * Called by the resource handler before it handles a request: waits the longest matching latency, then
   * lets each matching failure rule roll its dice (the first that fires answers the request).
   */
  async before(req: FaultRequest): Promise<void> {
    const matching = this.live().filter((r) => verbMatches(r.verbs, req.verb) && targetMatches(r, req));
    if (!matching.length) return;
    let delay = 0;
    for (const r of matching) if (r.kind === 'latency') delay = Math.max(delay, r.ms);
    if (delay > 0) await this.opts.clock.sleep(delay);
    for (const r of matching) {
      if (r.kind === 'latency' || this.random() >= r.rate) continue;
      if (r.times !== undefined && --r.times === 0) this.removeRule(r.id);
      throw r.kind === 'conflicts' ? conflictFor(req) : failure(r.code, r.retryAfterSeconds);
    }
  }

  private put(id: string, spec: FaultRuleSpec): string {
    validate(spec);
    const rule = { ...structuredClone(spec), id } as FaultRule;
    if (rule.kind === 'conflicts' && !rule.verbs?.length) rule.verbs = ['update', 'patch'];
    const at = this.rules.findIndex((r) => r.id === id);
    if (at >= 0) this.rules[at] = rule;
    else this.rules.push(rule);
    return id;
  }

  private live(): FaultRule[] {
    const now = this.opts.clock.now();
    if (this.rules.some((r) => r.until !== undefined && r.until <= now))
      this.rules = this.rules.filter((r) => r.until === undefined || r.until > now);
    return this.rules;
  }

  private applyStalls(): void {
    const stalls = [...this.stalls];
    this.opts.hub.setStallPolicy(stalls.length ? (w) => stalls.some((s) => targetMatches(s, w)) : undefined);
  }
}

function failure(code: number, retryAfterSeconds = 1): StatusError {
  const [reason, message] = REASONS[code] ?? ['', `injected fault: HTTP ${code}`];
  const retry = (code === 429 || code >= 500) && retryAfterSeconds > 0 ? { retryAfterSeconds } : undefined;
  return new StatusError(code, reason, message, retry);
}

function conflictFor(req: FaultRequest): StatusError {
  if (req.name) return newStaleConflict({ group: req.group, resource: req.resource }, req.name);
  return failure(409);
}
