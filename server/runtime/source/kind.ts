// Ports controller-runtime pkg/source (Kind) and pkg/internal/source/kind.go: a source backed by the
// cache's shared informer for one type. Start registers the event adapter once the informer exists;
// WaitForSync reports when the cache and this handler have seen the whole initial list.
import type { GroupVersionKind, KubeObject } from '../../../shared/models/object';
import type { SharedIndexInformer } from '../cache/interfaces';
import { NoKindMatchError } from '../client/rest-mapper';
import type { EventHandler } from '../handler/eventhandler';
import type { Predicate } from '../predicate/predicate';
import { realClock, type Clock } from '../util/clock';
import { errorMessage } from '../util/errors';
import { childContext, isDeadlineExceeded, whenAborted, type ChildContext } from '../util/context';
import { EventHandlerAdapter } from './event-handler';
import { gvkId, isMetadataOnly, toGVK, type KindDescriptor, type MetadataKind } from '../client/gvk';
import type { SourceContext, SyncingSource } from './source';

/** The part of the informer cache a Kind source needs (cache.Informers). */
export interface KindCache {
  /** A GVK, or a partialObjectMetadata(...) kind for its metadata informer. */
  getInformer(
    kind: GroupVersionKind | MetadataKind,
    opts?: { signal?: AbortSignal },
  ): Promise<SharedIndexInformer<KubeObject>>;
  /** Waits until every informer the cache started has synced; false if the signal ended first. */
  waitForCacheSync(signal: AbortSignal): Promise<boolean>;
}

export interface KindOptions {
  cache: KindCache;
  kind: KindDescriptor;
  handler: EventHandler;
  predicates?: Predicate[];
  /** Default realClock; drives the GetInformer retry and the sync polling. */
  clock?: Clock;
  /** How often a failed GetInformer is retried (upstream 10s). */
  getInformerRetryMs?: number;
  /** How often handler sync is polled (upstream's WaitForCacheSync period, 100ms). */
  syncPollMs?: number;
}

export function kindSource(opts: KindOptions): Kind {
  return new Kind(opts);
}

export class Kind implements SyncingSource {
  private readonly clock: Clock;
  private started?: Promise<void>;
  /** upstream startCancel: ends the GetInformer retries and the sync wait once WaitForSync gives up. */
  private startCtx?: ChildContext;
  private lastError: unknown;
  private informer?: SharedIndexInformer<KubeObject>;

  constructor(private readonly opts: KindOptions) {
    this.clock = opts.clock ?? realClock;
  }

  get gvk(): GroupVersionKind | undefined {
    try {
      return this.opts?.kind !== undefined ? toGVK(this.opts.kind) : undefined;
    } catch {
      return undefined;
    }
  }

  async start(ctx: SourceContext): Promise<void> {
    if (!this.opts?.kind) throw new Error('must create Kind with a non-nil object');
    const gvk = toGVK(this.opts.kind);
    if (!this.opts.cache) throw new Error('must create Kind with a non-nil cache');
    if (!this.opts.handler) throw new Error('must create Kind with non-nil handler');
    if (this.started) throw new Error(`${this.toString()} was started more than once`);
    // Delivery is arranged in the background: Start itself must not block.
    this.startCtx = childContext(ctx.signal, this.clock);
    this.started = this.run({ ...ctx, signal: this.startCtx.signal }, gvk);
    this.started.catch(() => undefined);
  }

  private async run(ctx: SourceContext, gvk: GroupVersionKind): Promise<void> {
    const { cache } = this.opts;
    let informer: SharedIndexInformer<KubeObject> | undefined;
    while (!informer) {
      try {
        // A PartialObjectMetadata kind keeps its form, so the cache hands out its metadata informer.
        informer = await cache.getInformer(isMetadataOnly(this.opts.kind) ? this.opts.kind : gvk, {
          signal: ctx.signal,
        });
      } catch (err) {
        this.lastError = err;
        if (ctx.signal.aborted) throw err;
        const hint =
          err instanceof NoKindMatchError ? 'if kind is a CRD, it should be installed before calling Start' : undefined;
        ctx.log?.error(err, 'failed to get informer from cache', {
          source: this.toString(),
          ...(hint ? { hint } : {}),
        });
        try {
          await this.clock.sleep(this.opts.getInformerRetryMs ?? 10_000, ctx.signal);
        } catch {
          throw new Error(`failed to get informer from cache: ${errorMessage(this.lastError)}`);
        }
      }
    }
    this.informer = informer;
    const adapter = new EventHandlerAdapter({
      handler: this.opts.handler,
      predicates: this.opts.predicates ?? [],
      queue: ctx.queue,
      signal: ctx.signal,
      gvk: gvkId(gvk),
      controller: ctx.controller,
      probe: ctx.probe,
      log: ctx.log,
    });
    const registration = informer.addEventHandler(adapter.handlerFuncs(), {
      name: `${ctx.controller ?? ''} / ${this.opts.handler.name}`,
    });
    if (!(await cache.waitForCacheSync(ctx.signal))) throw new Error('cache did not sync');
    const poll = this.opts.syncPollMs ?? 100;
    while (!registration.hasSynced()) {
      try {
        await this.clock.sleep(poll, ctx.signal);
      } catch {
        throw new Error('handler did not sync');
      }
    }
  }

  /** Resolves once synced, or when signal is cancelled; rejects on failure or when its deadline passes. */
  async waitForSync(signal: AbortSignal): Promise<void> {
    if (!this.started) throw new Error(`${this.toString()} was not started`);
    const outcome = await Promise.race([
      this.started.then(
        () => ({ ok: true as const }),
        (err: unknown) => ({ ok: false as const, err }),
      ),
      whenAborted(signal).then(() => ({ ok: 'aborted' as const })),
    ]);
    if (outcome.ok === true) return;
    if (outcome.ok === false) throw outcome.err;
    // Giving up also stops the source's own attempts (no GetInformer retries after the sync timeout).
    this.startCtx?.cancel();
    if (isDeadlineExceeded(signal.reason)) {
      throw new Error(`timed out waiting for cache to be synced for ${this.toString()}`);
    }
  }

  toString(): string {
    const gvk = this.gvk;
    return gvk ? `kind source: *${gvk.version}.${gvk.kind}` : 'kind source: unknown type';
  }
}
