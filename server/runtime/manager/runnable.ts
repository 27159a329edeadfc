// Ports controller-runtime pkg/manager (Runnable, LeaderElectionRunnable) contracts.

/** manager.Runnable: runs until signal aborts; resolves when stopped, rejects on failure. */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
}

/** manager.LeaderElectionRunnable */
export interface LeaderElectionRunnable extends Runnable {
  needLeaderElection(): boolean;
}

/** Something that serves HTTP (the health-probe and metrics servers): started first, stopped last. */
export interface ServerRunnable extends Runnable {
  readonly kind: 'server';
  needLeaderElection?(): boolean;
}

/** Something that owns the cache (a cluster): started before ordinary runnables; ready once synced. */
export interface CacheRunnable extends Runnable {
  waitForCacheSync(signal: AbortSignal): Promise<boolean>;
  getCache?(): unknown;
}

/** A webhook server (none ship here; kept so the group order matches upstream). */
export interface WebhookRunnable extends Runnable {
  readonly kind: 'webhook';
}

/** A runnable that can do work before leadership is won (controllers with enableWarmup). */
export interface WarmupRunnable extends Runnable {
  warmup(signal: AbortSignal): Promise<void>;
}

export function runnableFunc(fn: (signal: AbortSignal) => Promise<void>): Runnable {
  return { start: fn };
}

export const isServerRunnable = (r: Runnable): r is ServerRunnable => (r as Partial<ServerRunnable>).kind === 'server';
export const isWebhookRunnable = (r: Runnable): r is WebhookRunnable =>
  (r as Partial<WebhookRunnable>).kind === 'webhook';
export const isCacheRunnable = (r: Runnable): r is CacheRunnable =>
  typeof (r as Partial<CacheRunnable>).waitForCacheSync === 'function' &&
  typeof (r as { getCache?: unknown }).getCache === 'function';
export const isLeaderElectionRunnable = (r: Runnable): r is LeaderElectionRunnable =>
  typeof (r as Partial<LeaderElectionRunnable>).needLeaderElection === 'function';
export const isWarmupRunnable = (r: Runnable): r is WarmupRunnable =>
  typeof (r as Partial<WarmupRunnable>).warmup === 'function';
