// The notifications an informer hands its handlers all have one shape (the same fields in the same order), so
// the listener's optimised code is not thrown away when the first update or delete follows the initial list's adds.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { ProcessorListener, type Notification } from './processor-listener';
import { newSharedIndexInformer } from './shared-informer';

const pod = (name: string, v = '1'): KubeObject => ({ metadata: { namespace: 'ns', name, labels: { v } } });

afterEach(() => vi.restoreAllMocks());

describe('informer notifications', () => {
  it("add, update, delete and a late handler's replay of the cache share one set of fields, in one order", async () => {
    const delivered: Notification<KubeObject>[] = [];
    const deliver = (ProcessorListener.prototype as unknown as { deliver: (n: Notification<KubeObject>) => void })
      .deliver;
    vi.spyOn(ProcessorListener.prototype as unknown as { deliver: typeof deliver }, 'deliver').mockImplementation(
      function (this: ProcessorListener<KubeObject>, n) {
        delivered.push(n);
        deliver.call(this, n);
      },
    );
    const clock = new FakeClock();
    const ctl = new AbortController();
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a')] });
    const inf = newSharedIndexInformer<KubeObject>({ listerWatcher: lw, objectType: 'v1/Pod', clock, random: () => 0 });
    inf.addEventHandler({});
    void inf.run(ctl.signal);
    await flushMicrotasks();
    lw.update(pod('a', '2'));
    await flushMicrotasks();
    lw.delete(pod('a'));
    lw.add(pod('b'));
    await flushMicrotasks();
    inf.addEventHandler({});
    await flushMicrotasks();
    ctl.abort();

    expect(delivered.map((n) => n.type)).toEqual(['add', 'update', 'delete', 'add', 'add']);
    const shapes = new Set(delivered.map((n) => Object.keys(n).join(',')));
    expect([...shapes]).toEqual(['type,obj,oldObj,newObj,isInInitialList,resync']);
  });
});
