import { describe, expect, it } from 'vitest';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { Recorder } from '../recorder/recorder';
import { inspect } from './inspect';
import { unstamped } from './test-harness';

function recorderWithSession(): Recorder {
  const recorder = new Recorder({
    clock: new FakeClock(),
    objectSource: {
      get: () => undefined,
      keys: (gvk) => (gvk === 'v1/Pod' ? ['default/web-2', 'default/web-1', 'kube-system/dns'] : []),
      indexes: () => ({ namespace: 2 }),
    },
  });
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', 3);
  s.reconcileCycle('pods', 'default/obj-1');
  s.reconcileCycle('pods', 'default/obj-2');
  for (const e of unstamped(s.events)) recorder.emit(e);
  return recorder;
}

describe('inspect', () => {
  it('returns a key with the events about it', () => {
    const r = inspect(recorderWithSession(), { target: 'key', controller: 'pods', key: 'default/obj-1' });
    if (!r.ok || r.result.target !== 'key') throw new Error('expected a key answer');
    expect(r.result.key?.reconciles).toBe(1);
    const kinds = r.result.events.map((e) => e.kind);
    expect(kinds).toContain('reconcile.start');
    expect(kinds).toContain('fifo.delta');
    expect(r.result.events.every((e) => 'key' in e && e.key === 'default/obj-1')).toBe(true);
  });

  it('returns an informer with its events, the cache keys, and ring slices', () => {
    const rec = recorderWithSession();
    const inf = inspect(rec, { target: 'informer', informer: 'v1/Pod', limit: 5 });
    if (!inf.ok || inf.result.target !== 'informer') throw new Error('expected an informer answer');
    expect(inf.result.informer?.storeSize).toBe(3);
    expect(inf.result.events).toHaveLength(5);
    const cache = inspect(rec, { target: 'cache', informer: 'v1/Pod', search: 'web', limit: 1 });
    expect(cache).toEqual({
      ok: true,
      result: { target: 'cache', informer: 'v1/Pod', keys: ['default/web-1'], total: 2, indexes: { namespace: 2 } },
    });
    const ev = inspect(rec, { target: 'events', afterSeq: 3, limit: 2, subscription: { controllers: ['pods'] } });
    if (!ev.ok || ev.result.target !== 'events') throw new Error('expected events');
    expect(ev.result.events.map((e) => e.seq)).toEqual([4, 5]);
    expect(ev.result).toMatchObject({ firstSeq: 1, lastSeq: rec.seq });
    const unknown = inspect(rec, { target: 'key', controller: 'nope', key: 'x' });
    expect(unknown).toEqual({ ok: true, result: { target: 'key', key: null, events: [] } });
  });
});
