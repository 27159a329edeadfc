// The oracle itself must be able to fail: each check is shown a view that makes one false claim (built by the
// real reducer from a small event script) and must name it, and the same view against the truth that makes
// it right must pass. Without this, a run with "0 false claims" could mean the checks look at nothing.
import { describe, expect, it } from 'vitest';
import type { EnqueueCause, RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import type { ObjectRef } from '../../../shared/protocol/ids';
import { reduce } from '../../../shared/protocol/reduce';
import { createView, type RuntimeView } from '../../../shared/protocol/view';
import { checkView } from './claims';
import type { ServerWatch } from './server-watch';
import type { Truth, TruthWrite } from './truth';

const cm = (rv: string): ObjectRef => ({
  gvk: 'v1/ConfigMap',
  namespace: 'ns',
  name: 'a',
  uid: 'u1',
  resourceVersion: rv,
});
const update = (source: ObjectRef): EnqueueCause => ({ type: 'event', eventType: 'update', source });
const depth = { ready: 0, waiting: 0, processing: 0 };

/** A controller that patches ns/a to rv 10 and is then woken by the update event at rv 10. */
function selfCausedView(): RuntimeView {
  const events: RuntimeEvent[] = [
    { kind: 'informer.lifecycle', informer: 'v1/ConfigMap', phase: 'started' },
    {
      kind: 'reflector.listEnd',
      informer: 'v1/ConfigMap',
      resourceVersion: '5',
      items: 0,
      pages: 1,
      durationMs: 1,
      relist: false,
    },
    { kind: 'informer.synced', informer: 'v1/ConfigMap', items: 0, durationMs: 1 },
    { kind: 'reconcile.start', controller: 'mirror', key: 'ns/a', worker: 0, causes: [], attempt: 1 },
    {
      kind: 'client.request',
      controller: 'mirror',
      verb: 'patch',
      ref: cm('10'),
      cached: false,
      durationMs: 1,
      code: 200,
    },
    { kind: 'reconcile.end', controller: 'mirror', key: 'ns/a', worker: 0, durationMs: 5, outcome: 'success' },
    { kind: 'queue.done', queue: 'mirror', key: 'ns/a', processingMs: 5, requeued: false, depth },
    { kind: 'reconcile.start', controller: 'mirror', key: 'ns/a', worker: 0, causes: [update(cm('10'))], attempt: 1 },
    { kind: 'reconcile.end', controller: 'mirror', key: 'ns/a', worker: 0, durationMs: 5, outcome: 'success' },
    { kind: 'queue.done', queue: 'mirror', key: 'ns/a', processingMs: 5, requeued: false, depth },
  ];
  return reduce(
    createView(),
    events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i * 10 }) as StampedEvent),
  );
}

const patch: TruthWrite = {
  kind: 'write',
  generation: 'g1',
  controller: 'mirror',
  verb: 'patch',
  namespace: 'ns',
  name: 'a',
  uid: 'u1',
  resourceVersion: '10',
  key: 'ns/a',
  reconcileId: 'r1',
  ts: 1040,
  process: '',
};

function truth(writes: TruthWrite[], delivered: (uid: string, rv: string) => boolean): Truth {
  const server = { delivered } as unknown as ServerWatch;
  const starts = [1, 2].map((n) => ({
    kind: 'reconcile' as const,
    generation: 'g1',
    controller: 'mirror',
    key: 'ns/a',
    reconcileId: `r${n}`,
    ts: 1000 + n,
    process: '',
  }));
  const reconciles = starts.flatMap((s) => [
    { ...s, phase: 'start' as const },
    { ...s, phase: 'end' as const, outcome: 'success' },
  ]);
  return { controller: 'mirror', namespaces: new Set(['ns']), writes, reconciles, external: [], server };
}

describe('the oracle names a false claim', () => {
  const view = selfCausedView();
  const always = (): boolean => true;

  it('passes the view against the truth that makes it right', () => {
    expect(view.controllers['mirror']?.keys['ns/a']?.lastReconcile?.selfCaused).toBe(true);
    expect(checkView(view, truth([patch], always), { quiescent: true })).toEqual([]);
  });

  it('flags "its own write" when another client made that version', () => {
    const found = checkView(view, truth([], always), { quiescent: true }).map((f) => f.claim);
    expect(found).toContain('its own write (exact by resourceVersion)');
    expect(found.some((c) => c.startsWith('self-caused'))).toBe(true);
  });

  it('flags a cause naming a version the server never delivered', () => {
    const found = checkView(
      view,
      truth([patch], () => false),
      { quiescent: true },
    ).map((f) => f.claim);
    expect(found).toContain('caused by an event at rv 10');
  });

  it('flags reconcile counts that differ from what the reconciler logged', () => {
    const t = truth([patch], always);
    t.reconciles = t.reconciles.slice(0, 2);
    const found = checkView(view, t, { quiescent: true }).map((f) => f.claim);
    expect(found).toContain('2 reconciles');
  });

  it('flags a process shown alive that was killed', () => {
    const v: RuntimeView = {
      ...view,
      processes: {
        p1: { process: 'p1', address: '127.0.0.1:1', state: 'connected', since: 0, incarnation: 1, complete: true },
      },
    };
    const t = { ...truth([patch], always), processes: [{ identity: 'p1', alive: false }] };
    expect(checkView(v, t, { quiescent: true }).map((f) => f.claim)).toContain('process p1 alive');
  });
});
