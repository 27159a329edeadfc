// client-go shared_informer_test.go: TestRemoveEventHandler_SynchronousShutdown,
// TestShutDownEventHandler_Lifecycles. Upstream's goroutine races (a handler still running after
// RemoveEventHandler returned) cannot occur in one thread; what remains is the order of events around
// removal and when ShutDownEventHandler's wait ends.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import type { FakeClock } from '../testing/fake-clock';
import { flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { newSharedIndexInformer, shutDownEventHandler } from './shared-informer';
import type { ResourceEventHandlerRegistration } from './interfaces';
import { freshClockEachTest } from '../testing/test-harness';

const pod = (name: string): KubeObject => ({ metadata: { namespace: 'ns', name } });

let clock: FakeClock;
let ctl: AbortController;
freshClockEachTest((c, a) => ((clock = c), (ctl = a)));

const newInformer = (lw: ScriptedListWatch) =>
  newSharedIndexInformer<KubeObject>({ listerWatcher: lw, objectType: 'v1/Pod', clock, random: () => 0 });

/** Whether p has settled after the microtasks queued so far have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await flushMicrotasks();
  return done;
}

describe('ShutDownEventHandler', () => {
  it('TestShutDownEventHandler_Lifecycles/InformerNeverStarted: resolves at once', async () => {
    const inf = newInformer(new ScriptedListWatch({ clock }));
    const reg = inf.addEventHandler({ onAdd: () => {} });
    await expect(shutDownEventHandler(inf, reg)).resolves.toBeUndefined();
    expect(inf.handlerCount).toBe(0);
  });

  it('TestShutDownEventHandler_Lifecycles/StartedThenAddedThenShutDown', async () => {
    const inf = newInformer(new ScriptedListWatch({ clock, initialObjects: [pod('a')] }));
    void inf.run(ctl.signal);
    await flushMicrotasks();
    expect(inf.hasSynced()).toBe(true);
    const reg = inf.addEventHandler({ onAdd: () => {} });
    expect(await settled(shutDownEventHandler(inf, reg))).toBe(true);
  });

  it('TestShutDownEventHandler_Lifecycles/AddedThenStartedThenShutDown', async () => {
    const inf = newInformer(new ScriptedListWatch({ clock, initialObjects: [pod('a')] }));
    const seen: string[] = [];
    const reg = inf.addEventHandler({ onAdd: (o) => void seen.push(o.metadata.name ?? '') });
    void inf.run(ctl.signal);
    await flushMicrotasks();
    expect(seen).toEqual(['a']);
    expect(await settled(shutDownEventHandler(inf, reg))).toBe(true);
  });

  it('TestRemoveEventHandler_SynchronousShutdown: nothing is delivered after the wait ends', async () => {
    const lw = new ScriptedListWatch({ clock });
    const inf = newInformer(lw);
    const seen: string[] = [];
    let closed = false;
    const reg = inf.addEventHandler({
      onAdd: (o) => {
        if (closed) throw new Error('send on closed channel');
        seen.push(o.metadata.name ?? '');
      },
    });
    void inf.run(ctl.signal);
    await flushMicrotasks();
    lw.add(pod('pod1'));
    await flushMicrotasks();
    await shutDownEventHandler(inf, reg);
    closed = true;
    lw.add(pod('pod2'));
    await flushMicrotasks();
    expect(seen).toEqual(['pod1']);
  });

  it('called from the handler’s own callback, resolves once that callback returned (upstream deadlocks)', async () => {
    const lw = new ScriptedListWatch({ clock });
    const inf = newInformer(lw);
    const order: string[] = [];
    let wait: Promise<void> | undefined;
    const reg: ResourceEventHandlerRegistration = inf.addEventHandler({
      onAdd: (o) => {
        order.push(`start ${o.metadata.name ?? ''}`);
        wait = shutDownEventHandler(inf, reg).then(() => void order.push('shut down'));
        order.push(`end ${o.metadata.name ?? ''}`);
      },
    });
    void inf.run(ctl.signal);
    await flushMicrotasks();
    lw.add(pod('p1'));
    lw.add(pod('p2'));
    await flushMicrotasks();
    await wait;
    expect(order).toEqual(['start p1', 'end p1', 'shut down']);
  });

  it('resolves when the informer stops, as stopping the processor closes every listener', async () => {
    const inf = newInformer(new ScriptedListWatch({ clock }));
    const reg = inf.addEventHandler({ onAdd: () => {} }) as unknown as { whenShutDown(): Promise<void> };
    const done = inf.run(ctl.signal);
    await flushMicrotasks();
    const shut = reg.whenShutDown();
    expect(await settled(shut)).toBe(false);
    ctl.abort();
    await done;
    expect(await settled(shut)).toBe(true);
  });

  it('a registration without a shutdown signal is refused as upstream: handle does not support ShutdownChan()', async () => {
    const foreign = { hasSynced: () => true };
    await expect(shutDownEventHandler({ removeEventHandler: () => {} }, foreign)).rejects.toThrow(
      'handle does not support ShutdownChan()',
    );
    const inf = newInformer(new ScriptedListWatch({ clock }));
    await expect(shutDownEventHandler(inf, foreign)).rejects.toThrow(/invalid key type/);
  });
});
