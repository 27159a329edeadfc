// controller-runtime's event handler adapter runs predicates and handlers without a recover: a panic in
// either crashes the process (client-go's HandleCrash). With ReallyCrash off the throw is logged and
// reported to the dashboard (handler.event with `panic`), and the next event is handled as usual.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import type { StampedEvent } from '../../../shared/protocol/events';
import type { Logger } from '../reconcile/logger';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import { enqueueRequestForObject } from '../handler/enqueue';
import { funcs } from '../handler/eventhandler';
import { newPredicateFuncs } from '../predicate/predicate';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import { setCrashFunctionForTesting, setReallyCrash } from '../util/runtime';
import { EventHandlerAdapter, type EventHandlerAdapterOptions } from './event-handler';

const pod = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name } });
let crashed: unknown[];
let previousCrash: (err: unknown) => void;
beforeEach(() => {
  crashed = [];
  previousCrash = setCrashFunctionForTesting((err) => crashed.push(err));
});
afterEach(() => {
  setCrashFunctionForTesting(previousCrash);
  setReallyCrash(true);
});

function adapter(o: Partial<EventHandlerAdapterOptions> = {}) {
  const queue = new FakeRequestQueue();
  const probe = new RecordingProbe();
  const a = new EventHandlerAdapter({
    handler: enqueueRequestForObject(),
    predicates: [],
    queue,
    signal: new AbortController().signal,
    gvk: 'v1/Pod',
    controller: 'c',
    probe,
    ...o,
  });
  return { a, queue, probe };
}
const boom = new Error('boom');
const throwingHandler = funcs({
  name: 'Thrower',
  create: () => {
    throw boom;
  },
});

describe('panics in event handlers and predicates', () => {
  it('a handler that throws crashes the process', () => {
    adapter({ handler: throwingHandler }).a.onAdd(pod('a'), false);
    expect(crashed).toEqual([boom]);
  });

  it('a predicate that throws crashes the process', () => {
    const { a, queue } = adapter({
      predicates: [
        newPredicateFuncs(() => {
          throw boom;
        }),
      ],
    });
    a.onAdd(pod('a'), false);
    expect(crashed).toEqual([boom]);
    expect(queue.len()).toBe(0);
  });

  it('an asynchronous handler that rejects crashes the process', async () => {
    const h = funcs({ create: () => Promise.reject(boom) });
    adapter({ handler: h }).a.onAdd(pod('a'), false);
    await flushMicrotasks();
    expect(crashed).toEqual([boom]);
  });

  it('with ReallyCrash off: logged, reported to the dashboard as a notable error, and delivery goes on', () => {
    setReallyCrash(false);
    const logged: string[] = [];
    const log: Logger = {
      error: (_e, msg) => void logged.push(msg),
      info: () => {},
      withValues: () => log,
    };
    const { a, probe } = adapter({ handler: throwingHandler, log });
    a.onAdd(pod('a'), false);
    expect(crashed).toEqual([]);
    expect(logged).toEqual(['Observed a panic in an event handler']);
    const [ev] = probe.ofKind('handler.event');
    expect(ev).toMatchObject({ handler: 'Thrower', eventType: 'create', keys: [], panic: 'handler: boom' });
    const stamped = probe.events.map((e, i) => ({ ...e, seq: i + 1, ts: i }) as StampedEvent);
    const view = reduce(createView(), stamped);
    expect(view.notable.map((n) => [n.level, n.text])).toEqual([
      ['error', 'c: Thrower create of a panicked (recovered, ReallyCrash off): handler: boom'],
    ]);
    // The next event is handled as usual.
    const ok = adapter();
    ok.a.onAdd(pod('b'), false);
    expect(ok.queue.len()).toBe(1);
  });
});
