// A view of a handler's queue that replaces its adds: the priority default of handler.Funcs and the source's
// record of what one handler call enqueued both wrap the queue this way. Not exported from the runtime's index.
import type { RequestQueue } from './eventhandler';

/** The adding methods a queue view replaces. */
export type QueueAdds = Pick<RequestQueue, 'add' | 'addAfter' | 'addRateLimited' | 'addWithOpts'>;

/** A view of q whose adds are the given ones and whose every other method is q's own. */
export function queueView(q: RequestQueue, adds: QueueAdds): RequestQueue {
  return {
    ...adds,
    forget: (item) => q.forget(item),
    numRequeues: (item) => q.numRequeues(item),
    len: () => q.len(),
    get: () => q.get(),
    done: (item) => q.done(item),
    shutDown: () => q.shutDown(),
    shutDownWithDrain: () => q.shutDownWithDrain(),
    shuttingDown: () => q.shuttingDown(),
  };
}
