// Ports controller-runtime pkg/source (Informer): events from an informer the caller runs themselves,
// through the same predicate/handler adapter as Kind. Not a syncing source: the caller owns its sync.
import type { KubeObject } from '../../../shared/models/object';
import type { SharedIndexInformer } from '../cache/interfaces';
import type { EventHandler } from '../handler/eventhandler';
import type { Predicate } from '../predicate/predicate';
import { EventHandlerAdapter } from './event-handler';
import type { Source, SourceContext } from './source';

export interface InformerSourceOptions {
  informer: SharedIndexInformer<KubeObject>;
  handler: EventHandler;
  predicates?: Predicate[];
  /** "v1/Pod": stamped on events, as list items may lack apiVersion/kind. Default ''. */
  gvk?: string;
}

export function informerSource(opts: InformerSourceOptions): Source {
  return {
    async start(ctx: SourceContext): Promise<void> {
      if (!opts?.informer) throw new Error('must specify Informer.Informer');
      if (!opts.handler) throw new Error('must specify Informer.Handler');
      const adapter = new EventHandlerAdapter({
        handler: opts.handler,
        predicates: opts.predicates ?? [],
        queue: ctx.queue,
        signal: ctx.signal,
        gvk: opts.gvk ?? '',
        controller: ctx.controller,
        probe: ctx.probe,
        log: ctx.log,
      });
      opts.informer.addEventHandler(adapter.handlerFuncs(), { name: `${ctx.controller ?? ''} / ${opts.handler.name}` });
    },
    toString: () => `informer source: ${opts?.gvk ?? 'unknown'}`,
  };
}
