// A controller's workers give the event loop a turn while they work through a backlog: reconcilers that read
// only the cache never wait on I/O, so without it a large queue would run to its end in microtasks.
import { describe, expect, it } from 'vitest';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc } from '../reconcile/reconcile';
import { FakeClock } from '../testing/fake-clock';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { Controller } from './controller';

describe('a controller working through a backlog', () => {
  it('gives the event loop a turn while reconcilers that never wait work through a large queue', async () => {
    const queue = new FakeRequestQueue({ requeueDelayed: false });
    const n = 2500;
    let reconciled = 0;
    let otherWorkRanAfter: number | undefined;
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const c = new Controller({
      name: 'backlog',
      reconciler: reconcileFunc(() => {
        reconciled++;
        // A macrotask queued by the first reconcile, as a socket's ping or a watch's next chunk would be.
        if (reconciled === 1) setImmediate(() => (otherWorkRanAfter = reconciled));
        if (reconciled === n) done();
        return Promise.resolve({});
      }),
      registry: newRegistry(false),
      clock: new FakeClock(),
      newQueue: () => queue,
    });
    for (let i = 0; i < n; i++) queue.add({ namespace: 'default', name: `k${i}` });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await finished;
    ac.abort();
    await run;
    expect(reconciled).toBe(n);
    expect(otherWorkRanAfter).toBeDefined();
    expect(otherWorkRanAfter).toBeLessThan(n);
  });
});
