// Who made the version each cause delivered: exact by resourceVersion, exact by absence, inferred, or
// unknown — and never a guess. The cases of the reports that found "self-caused" pinned on other writes.
import { describe, expect, it } from 'vitest';
import type { EnqueueCause, RuntimeEvent, StampedEvent } from './events';
import type { ObjectRef } from './ids';
import { reduce } from './reduce';
import type { CauseAttribution, ReconcileRecord, RuntimeView } from './view';
import { createView } from './view';

const depth = { ready: 0, waiting: 0, processing: 1 };
const cm = (rv: string, uid = 'u1'): ObjectRef => ({
  gvk: 'v1/ConfigMap',
  namespace: 'ns',
  name: 'a',
  uid,
  resourceVersion: rv,
});

class Script {
  readonly events: RuntimeEvent[] = [];
  /** The informer of ConfigMaps synced at this version. */
  synced(rv: string): this {
    this.events.push(
      { kind: 'informer.lifecycle', informer: 'v1/ConfigMap', phase: 'started' },
      {
        kind: 'reflector.listEnd',
        informer: 'v1/ConfigMap',
        resourceVersion: rv,
        items: 0,
        pages: 1,
        durationMs: 1,
        relist: false,
      },
      { kind: 'informer.synced', informer: 'v1/ConfigMap', items: 0, durationMs: 1 },
    );
    return this;
  }
  start(key: string, causes: EnqueueCause[], worker = 0, controller = 'c'): this {
    this.events.push({ kind: 'reconcile.start', controller, key, worker, causes, attempt: 1 });
    return this;
  }
  write(verb: 'patch' | 'update' | 'updateStatus' | 'delete', ref: ObjectRef, controller = 'c'): this {
    this.events.push({ kind: 'client.request', controller, verb, ref, cached: false, durationMs: 1, code: 200 });
    return this;
  }
  end(key: string, worker = 0, controller = 'c'): this {
    this.events.push(
      { kind: 'reconcile.end', controller, key, worker, durationMs: 5, outcome: 'success' },
      { kind: 'queue.done', queue: controller, key, processingMs: 5, requeued: false, depth },
    );
    return this;
  }
  view(): RuntimeView {
    return reduce(
      createView(),
      this.events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i * 10 }) as StampedEvent),
    );
  }
}

const update = (source: ObjectRef, previousResourceVersion?: string): EnqueueCause => ({
  type: 'event',
  eventType: 'update',
  source,
  ...(previousResourceVersion ? { previousResourceVersion } : {}),
});
const last = (v: RuntimeView, key = 'ns/a', controller = 'c'): ReconcileRecord | undefined =>
  v.controllers[controller]?.keys[key]?.lastReconcile;
const writer = (v: RuntimeView, i = 0, key = 'ns/a'): CauseAttribution | null | undefined =>
  last(v, key)?.attributions?.[i];

describe('cause attribution', () => {
  it('matches an event to the write that produced its resourceVersion, not merely the latest write', () => {
    const v = new Script()
      .synced('5')
      .start('ns/a', [])
      .write('updateStatus', cm('10'))
      .write('patch', cm('11'))
      .end('ns/a')
      .start('ns/a', [update(cm('10'), '5')])
      .view();
    expect(last(v)?.selfCaused).toBe(true);
    expect(last(v)?.selfCause?.write).toMatchObject({ verb: 'updateStatus', ref: { resourceVersion: '10' } });
    expect(writer(v)).toMatchObject({
      writer: 'self',
      basis: 'rv',
      write: { verb: 'updateStatus', resourceVersion: '10' },
    });
  });

  it("never pins another client's delete on the controller's latest write", () => {
    // The report: a controller patched a ConfigMap (rv 31), another client deleted it (rv 84); the delete's
    // reconcile read "triggered by its own write (patch -> rv 31)".
    const v = new Script()
      .synced('20')
      .start('ns/a', [])
      .write('patch', cm('31'))
      .end('ns/a')
      .start('ns/a', [{ type: 'event', eventType: 'delete', source: cm('84') }])
      .view();
    expect(last(v)?.selfCaused).toBe(false);
    expect(last(v)?.selfCause).toBeUndefined();
    expect(writer(v)).toEqual({ writer: 'other', basis: 'absence' });
  });

  it("says unknown, not another client's, where a write could predate what the dashboard saw", () => {
    // A kubectl patch (rv 358) after the controller's own write (rv 318): neither self-caused nor a guess
    // when the informer's first list was at 400 (the version could be this controller's from before).
    const v = new Script()
      .synced('400')
      .start('ns/a', [])
      .write('patch', cm('318'))
      .end('ns/a')
      .start('ns/a', [update(cm('358'), '318')])
      .view();
    expect(last(v)?.selfCaused).toBe(false);
    expect(writer(v)).toMatchObject({ writer: 'unknown', why: expect.stringContaining("informer's first list") });
  });

  it('never matches a version of a different object that had the same name', () => {
    const v = new Script()
      .synced('1')
      .start('ns/a', [])
      .write('update', cm('12', 'old-uid'))
      .end('ns/a')
      .start('ns/a', [update(cm('12', 'new-uid'))])
      .view();
    expect(last(v)?.selfCaused).toBe(false);
  });

  it("names another controller's write exactly", () => {
    const v = new Script()
      .synced('1')
      .start('ns/a', [], 0, 'other')
      .write('update', cm('7'), 'other')
      .end('ns/a', 0, 'other')
      .start('ns/a', [update(cm('7'))])
      .view();
    expect(writer(v)).toMatchObject({ writer: 'controller', basis: 'rv', controller: 'other' });
    expect(last(v)?.selfCaused).toBe(false);
  });

  it("waits for the controller's running reconciles before deciding by absence, and finds a write that arrives late", () => {
    // Worker 1 is still reconciling ns/b when ns/a starts on an event at rv 9: worker 1's write may be the
    // one that made rv 9, its response not yet seen. It is: the label becomes self once the write arrives.
    const s = new Script()
      .synced('1')
      .start('ns/b', [], 1)
      .start('ns/a', [update(cm('9'))], 0);
    expect(writer(s.view())).toMatchObject({ writer: 'unknown', why: expect.stringContaining('running reconciles') });
    s.write('patch', cm('9'));
    expect(writer(s.view())).toMatchObject({ writer: 'self', basis: 'rv' });
    expect(last(s.view())?.selfCaused).toBe(true);
  });

  it('decides by absence once the reconciles it waited for have ended without writing that version', () => {
    const s = new Script()
      .synced('1')
      .start('ns/b', [], 1)
      .start('ns/a', [update(cm('9'))], 0);
    s.write('patch', { ...cm('10'), name: 'b' }).end('ns/b', 1);
    expect(writer(s.view())).toEqual({ writer: 'other', basis: 'absence' });
    // The record keeps its label once the reconcile itself ends.
    s.end('ns/a', 0);
    expect(writer(s.view())).toEqual({ writer: 'other', basis: 'absence' });
  });

  it('infers a write folded into an update that spans it, and says it is inferred', () => {
    const v = new Script()
      .synced('1')
      .start('ns/a', [])
      .write('update', cm('15'))
      .end('ns/a')
      .start('ns/a', [update(cm('17'), '14')])
      .view();
    expect(writer(v)).toMatchObject({ writer: 'self', basis: 'span', write: { resourceVersion: '15' } });
    expect(last(v)?.selfCaused).toBe(false);
  });

  it("infers its own delete when the client never saw the delete's version", () => {
    const v = new Script()
      .synced('1')
      .start('ns/a', [])
      .write('delete', { ...cm('3'), resourceVersion: undefined })
      .end('ns/a')
      .start('ns/a', [{ type: 'event', eventType: 'delete', source: cm('4') }])
      .view();
    expect(writer(v)).toMatchObject({ writer: 'self', basis: 'uid' });
  });

  it('leaves causes with no event behind them unattributed', () => {
    const v = new Script()
      .synced('1')
      .start('ns/a', [{ type: 'requeueAfter' }])
      .view();
    expect(last(v)?.attributions).toEqual([null]);
  });

  it('says unknown when the informer has not synced, or the version is among forgotten writes', () => {
    const notSynced = new Script().start('ns/a', [update(cm('9'))]).view();
    expect(writer(notSynced)).toMatchObject({ writer: 'unknown', why: expect.stringContaining('had not synced') });
    const s = new Script().synced('1').start('ns/a', []);
    // More than the 8 earlier versions a record keeps: the oldest are forgotten, and below them nothing is claimed.
    for (let rv = 2; rv <= 12; rv++) s.write('update', cm(String(rv)));
    s.end('ns/a').start('ns/a', [update(cm('2'))]);
    expect(writer(s.view())).toMatchObject({ writer: 'unknown', why: expect.stringContaining('no longer remembered') });
  });
});
