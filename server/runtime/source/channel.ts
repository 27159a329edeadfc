// Ports controller-runtime pkg/source (Channel) and pkg/internal/source/channel.go: GenericEvents pushed
// by user code (e.g. from an external system) fanned out to every controller that started the source.
import type { EventHandler } from '../handler/eventhandler';
import type { Predicate } from '../predicate/predicate';
import type { GenericEvent } from '../event/event';
import { EventHandlerAdapter } from './event-handler';
import type { Source, SourceContext } from './source';

/** A Go channel of GenericEvents: send() before or after start; close() ends every consumer. */
export class EventChannel {
  private readonly buffered: GenericEvent[] = [];
  private readonly consumers = new Set<(e: GenericEvent | undefined) => void>();
  private isClosed = false;

  send(e: GenericEvent): void {
    if (this.isClosed) throw new Error('send on closed channel');
    if (this.consumers.size === 0) this.buffered.push(e);
    for (const c of this.consumers) c(e);
  }

  close(): void {
    this.isClosed = true;
    for (const c of this.consumers) c(undefined);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Registers a consumer; events sent before the first consumer are replayed to it. */
  subscribe(fn: (e: GenericEvent | undefined) => void): () => void {
    this.consumers.add(fn);
    const pending = this.buffered.splice(0);
    for (const e of pending) fn(e);
    if (this.isClosed) fn(undefined);
    return () => this.consumers.delete(fn);
  }
}

export interface ChannelOptions {
  source: EventChannel;
  handler: EventHandler;
  predicates?: Predicate[];
}

export function channelSource(opts: ChannelOptions): Source {
  return {
    async start(ctx: SourceContext): Promise<void> {
      if (!opts?.source) throw new Error('must specify Channel.Source');
      if (!opts.handler) throw new Error('must specify Channel.Handler');
      const adapter = new EventHandlerAdapter({
        handler: opts.handler,
        predicates: opts.predicates ?? [],
        queue: ctx.queue,
        signal: ctx.signal,
        gvk: '',
        controller: ctx.controller,
        probe: ctx.probe,
        log: ctx.log,
      });
      let stopped = false;
      const unsubscribe = opts.source.subscribe((e) => {
        if (stopped) return;
        if (e === undefined || ctx.signal.aborted) {
          stopped = true;
          return;
        }
        adapter.generic(e);
      });
      if (stopped) unsubscribe();
      ctx.signal.addEventListener('abort', () => unsubscribe(), { once: true });
    },
    toString: () => 'channel source',
  };
}
