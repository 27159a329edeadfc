import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import type { FakeClock } from '../testing/fake-clock';
import { flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { NAMESPACE_INDEX, metaNamespaceIndexFunc } from './indexer';
import { newSharedIndexInformer, waitForCacheSync } from './shared-informer';
import { dropManagedFields } from './transforms';
import { freshClockEachTest } from '../testing/test-harness';

const pod = (name: string): KubeObject => ({
  metadata: { namespace: 'ns', name, managedFields: [{ manager: 'kubectl', operation: 'Apply' }] },
});

let clock: FakeClock;
let ctl: AbortController;
freshClockEachTest((c, a) => ((clock = c), (ctl = a)));

describe('SharedIndexInformer probes and helpers', () => {
  for (const fifo of ['RealFIFO', 'DeltaFIFO'] as const) {
    it(`reports lifecycle, deltas, pops, indexer writes, notifications and sync (${fifo})`, async () => {
      const probe = new RecordingProbe();
      const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a'), pod('b')] });
      const inf = newSharedIndexInformer<KubeObject>({ listerWatcher: lw, objectType: 'v1/Pod', clock, probe, fifo });
      inf.addEventHandler({}, { name: 'ctrl' });
      void inf.run(ctl.signal);
      await flushMicrotasks();
      lw.delete(pod('a'));
      await flushMicrotasks();
      expect(probe.ofKind('informer.lifecycle').map((e) => [e.phase, e.handler, e.fifo])).toEqual([
        ['handlerAdded', 'ctrl', fifo],
        ['started', undefined, fifo],
      ]);
      expect(probe.ofKind('informer.synced')).toEqual([
        { kind: 'informer.synced', informer: 'v1/Pod', items: 2, durationMs: 0 },
      ]);
      expect(probe.ofKind('fifo.delta').map((e) => [e.delta, e.key])).toEqual([
        ['Replaced', 'ns/a'],
        ['Replaced', 'ns/b'],
        ['Deleted', 'ns/a'],
      ]);
      expect(probe.ofKind('fifo.pop').map((e) => e.key)).toEqual(['ns/a', 'ns/b', 'ns/a']);
      expect(probe.ofKind('indexer.update').map((e) => [e.op, e.key, e.size])).toEqual([
        ['add', 'ns/a', 1],
        ['add', 'ns/b', 2],
        ['delete', 'ns/a', 1],
      ]);
      expect(probe.ofKind('informer.notify').map((e) => [e.handler, e.type, e.ref.name, e.initialList])).toEqual([
        ['ctrl', 'add', 'a', true],
        ['ctrl', 'add', 'b', true],
        ['ctrl', 'delete', 'a', undefined],
      ]);
      // Events carry references, never objects.
      for (const e of probe.events) expect(JSON.stringify(e)).not.toContain('managedFields');
    });
  }

  it('nothing is emitted through a disabled probe', async () => {
    let built = 0;
    const probe = {
      get enabled() {
        return false;
      },
      emit: () => void built++,
    };
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a')] });
    const inf = newSharedIndexInformer<KubeObject>({ listerWatcher: lw, clock, probe });
    inf.addEventHandler({});
    void inf.run(ctl.signal);
    await flushMicrotasks();
    expect(built).toBe(0);
  });

  it('dropManagedFields strips managedFields without touching the input', async () => {
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a')] });
    const inf = newSharedIndexInformer<KubeObject>({
      listerWatcher: lw,
      clock,
      transform: dropManagedFields,
      indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
    });
    void inf.run(ctl.signal);
    await flushMicrotasks();
    expect(inf.getIndexer().getByKey('ns/a')?.metadata.managedFields).toBeUndefined();
    expect(inf.getIndexer().indexKeys(NAMESPACE_INDEX, 'ns')).toEqual(['ns/a']);
    const input = pod('x');
    dropManagedFields(input);
    expect(input.metadata.managedFields).toHaveLength(1);
  });

  it('waitForCacheSync polls every 100ms until synced, or returns false when stopped', async () => {
    let synced = false;
    const result = waitForCacheSync(ctl.signal, clock, () => synced);
    await clock.advance(300);
    synced = true;
    await clock.advance(100);
    expect(await result).toBe(true);
    const stop = new AbortController();
    const never = waitForCacheSync(stop.signal, clock, () => false);
    stop.abort();
    expect(await never).toBe(false);
  });

  it('hasSynced and lastSyncResourceVersion before and after the first list', async () => {
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a')] });
    const inf = newSharedIndexInformer<KubeObject>({ listerWatcher: lw, clock });
    expect(inf.hasSynced()).toBe(false);
    expect(inf.lastSyncResourceVersion()).toBe('');
    expect(inf.reflectorState).toBe('idle');
    void inf.run(ctl.signal);
    await flushMicrotasks();
    expect(inf.hasSynced()).toBe(true);
    expect(inf.lastSyncResourceVersion()).toBe('1');
    expect(inf.reflectorState).toBe('watching');
  });
});
