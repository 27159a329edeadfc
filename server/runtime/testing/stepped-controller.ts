// A controller on a FakeRequestQueue and a fake clock whose reconciler records the keys it saw, for the
// step-mode tests of the runtime and of the dashboard's adapter.
import { Controller } from '../controller/controller';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc, requestKey, type Request } from '../reconcile/reconcile';
import { FakeClock } from './fake-clock';
import { FakeRequestQueue } from './fake-request-queue';

/** Starts the controller; `fail` picks the requests whose reconcile throws. */
export function steppedController(fail: (r: Request) => boolean = () => false) {
  const queue = new FakeRequestQueue({ requeueDelayed: false });
  const seen: string[] = [];
  const c = new Controller({
    name: 'stepped',
    registry: newRegistry(false),
    clock: new FakeClock(),
    newQueue: () => queue,
    reconciler: reconcileFunc(async (_ctx, req) => {
      seen.push(requestKey(req));
      if (fail(req)) throw new Error('boom');
      return {};
    }),
  });
  const ac = new AbortController();
  const run = c.start(ac.signal);
  const stop = async (): Promise<void> => {
    ac.abort();
    await run;
  };
  return { c, queue, seen, stop };
}

/** Adds ns/<name> for each name. */
export const addKeys = (q: FakeRequestQueue, ...names: string[]): void =>
  names.forEach((n) => q.add({ namespace: 'ns', name: n }));
