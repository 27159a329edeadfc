// Ports controller-runtime pkg/source/source.go: the Source contracts, plus the Func source.
import type { Probe } from '../instrumentation/probe';
import type { RequestQueue } from '../handler/eventhandler';
import type { Logger } from '../reconcile/logger';

/** What a controller hands a source when starting it. */
export interface SourceContext {
  signal: AbortSignal;
  queue: RequestQueue;
  /** The controller the source feeds (for probe events). */
  controller?: string;
  probe?: Probe;
  log?: Logger;
}

/** source.Source: start must not block; it arranges delivery and returns. */
export interface Source {
  start(ctx: SourceContext): Promise<void>;
  toString(): string;
}

/** source.SyncingSource: a source that can report when its initial list has been delivered. */
export interface SyncingSource extends Source {
  waitForSync(signal: AbortSignal): Promise<void>;
}

export function isSyncingSource(s: Source): s is SyncingSource {
  return typeof (s as Partial<SyncingSource>).waitForSync === 'function';
}

/** source.Func: an arbitrary start function. */
export function funcSource(fn: (ctx: SourceContext) => Promise<void> | void, name = 'func source'): Source {
  return {
    start: async (ctx) => {
      await fn(ctx);
    },
    toString: () => name,
  };
}
