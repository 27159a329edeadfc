import { createHook } from 'node:async_hooks';
import { describe, expect, it, onTestFinished } from 'vitest';
import { setCrashFunctionForTesting, setReallyCrash } from '../util/runtime';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { NOOP_PROBE } from '../instrumentation/probe';
import {
  HANDLER_PANIC_PAUSE_MS,
  ProcessorListener,
  SharedProcessor,
  determineResyncPeriod,
} from './processor-listener';

interface O {
  metadata: { name: string; resourceVersion?: string };
}
const o = (name: string): O => ({ metadata: { name } });

function listener(clock: FakeClock, onAdd: (x: O, initial: boolean) => void, upstream = () => true, period = 0) {
  return new ProcessorListener<O>({
    handler: { onAdd },
    name: 'h',
    requestedResyncPeriodMs: period,
    resyncPeriodMs: period,
    upstreamHasSynced: upstream,
    clock,
    probe: NOOP_PROBE,
    informer: 'i',
    gvk: 'v1/Pod',
  });
}

describe('processorListener', () => {
  it('delivers in order, asynchronously, only once running', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const l = listener(clock, (x) => seen.push(x.metadata.name));
    l.add({ type: 'add', obj: o('a'), isInInitialList: false });
    await flushMicrotasks();
    expect(seen).toEqual([]);
    l.run();
    l.add({ type: 'add', obj: o('b'), isInInitialList: false });
    expect(seen).toEqual([]);
    await flushMicrotasks();
    expect(seen).toEqual(['a', 'b']);
  });

  it('schedules its deliveries without an async resource per batch (queueMicrotask makes one each time)', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const l = listener(clock, (x) => seen.push(x.metadata.name));
    l.run();
    const microtasks: string[] = [];
    const hook = createHook({ init: (_id, type) => void (type === 'Microtask' && microtasks.push(type)) });
    hook.enable();
    try {
      // A watch hands events over one at a time: each arrives once the previous one was delivered.
      for (let i = 0; i < 20; i++) {
        l.add({ type: 'add', obj: o(`p${i}`), isInInitialList: false });
        await flushMicrotasks();
      }
    } finally {
      hook.disable();
    }
    expect(seen).toHaveLength(20);
    expect(microtasks).toEqual([]);
  });

  it('a throwing handler crashes the process by default (HandleCrash with ReallyCrash on)', async () => {
    const clock = new FakeClock();
    const crashed: unknown[] = [];
    const previous = setCrashFunctionForTesting((err) => crashed.push(err));
    try {
      const boom = new Error('handler panic');
      const l = listener(clock, () => {
        throw boom;
      });
      l.run();
      l.add({ type: 'add', obj: o('a'), isInInitialList: false });
      await flushMicrotasks();
      expect(crashed).toEqual([boom]);
    } finally {
      setCrashFunctionForTesting(previous);
    }
  });

  it('with ReallyCrash off, a throwing handler loses that notification; delivery resumes after the pause', async () => {
    setReallyCrash(false);
    onTestFinished(() => void setReallyCrash(true));
    const clock = new FakeClock();
    const seen: string[] = [];
    const l = listener(clock, (x) => {
      if (x.metadata.name === 'boom') throw new Error('handler panic');
      seen.push(x.metadata.name);
    });
    l.run();
    l.add({ type: 'add', obj: o('boom'), isInInitialList: false });
    l.add({ type: 'add', obj: o('next'), isInInitialList: false });
    await flushMicrotasks();
    expect(seen).toEqual([]);
    await clock.advance(HANDLER_PANIC_PAUSE_MS);
    expect(seen).toEqual(['next']);
  });

  it('with ReallyCrash off, a throw on an initial-list add means the handler never reports synced', async () => {
    setReallyCrash(false);
    onTestFinished(() => void setReallyCrash(true));
    const clock = new FakeClock();
    const l = listener(clock, () => {
      throw new Error('nope');
    });
    l.run();
    l.add({ type: 'add', obj: o('a'), isInInitialList: true });
    await clock.advance(5000);
    expect(l.hasSynced()).toBe(false);
  });

  it('hasSynced needs the upstream and every initial add handled; whenIdle resolves after delivery', async () => {
    const clock = new FakeClock();
    let upstream = false;
    const l = listener(
      clock,
      () => {},
      () => upstream,
    );
    l.run();
    l.add({ type: 'add', obj: o('a'), isInInitialList: true });
    expect(l.hasSynced()).toBe(false);
    await l.whenIdle();
    expect(l.hasSynced()).toBe(false);
    upstream = true;
    expect(l.hasSynced()).toBe(true);
  });

  it('an initial list is delivered as one initial add per object, in order, among the notifications around it', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const l = listener(clock, (x, initial) => seen.push(`${x.metadata.name}:${initial}`));
    l.add({ type: 'add', obj: o('before'), isInInitialList: false });
    l.addInitialList([o('a'), o('b'), o('c')]);
    l.addInitialList([]);
    l.add({ type: 'add', obj: o('after'), isInInitialList: false });
    expect(l.pending).toBe(5);
    l.run();
    await l.whenIdle();
    expect(seen).toEqual(['before:false', 'a:true', 'b:true', 'c:true', 'after:false']);
    expect(l.pending).toBe(0);
  });

  it('a long buffer is delivered in order in bursts, giving the event loop a turn between them', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    let otherWorkRanAfter: number | undefined;
    const l = listener(clock, (x) => {
      seen.push(x.metadata.name);
      // A macrotask, as a watch's next chunk or a socket's ping would be.
      if (seen.length === 1) setImmediate(() => (otherWorkRanAfter = seen.length));
    });
    const n = 2500;
    l.addInitialList(Array.from({ length: n - 1 }, (_, i) => o(`i${i}`)));
    l.add({ type: 'add', obj: o('after'), isInInitialList: false });
    l.run();
    await l.whenIdle();
    expect(seen).toEqual([...Array.from({ length: n - 1 }, (_, i) => `i${i}`), 'after']);
    expect(otherWorkRanAfter).toBeDefined();
    expect(otherWorkRanAfter).toBeLessThan(n);
    expect(l.hasSynced()).toBe(true);
  });

  it('a listener with an initial list is synced only once every object of it was handled', async () => {
    const clock = new FakeClock();
    const l = listener(clock, () => {});
    l.addInitialList([o('a'), o('b')]);
    expect(l.hasSynced()).toBe(false);
    l.run();
    await l.whenIdle();
    expect(l.hasSynced()).toBe(true);
  });

  it('with ReallyCrash off, a throw inside an initial list loses that object only; the rest follows the pause', async () => {
    setReallyCrash(false);
    onTestFinished(() => void setReallyCrash(true));
    const clock = new FakeClock();
    const seen: string[] = [];
    const l = listener(clock, (x) => {
      if (x.metadata.name === 'boom') throw new Error('handler panic');
      seen.push(x.metadata.name);
    });
    l.run();
    l.addInitialList([o('a'), o('boom'), o('c')]);
    await flushMicrotasks();
    expect(seen).toEqual(['a']);
    expect(l.pending).toBe(1);
    await clock.advance(HANDLER_PANIC_PAUSE_MS);
    expect(seen).toEqual(['a', 'c']);
    expect(l.hasSynced()).toBe(false);
  });

  it('stop drops an initial list not yet delivered', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const l = listener(clock, (x) => seen.push(x.metadata.name));
    l.addInitialList([o('a'), o('b')]);
    l.stop();
    expect(l.pending).toBe(0);
    l.run();
    l.addInitialList([o('c')]);
    await flushMicrotasks();
    expect(seen).toEqual([]);
  });

  it('shouldResync: due only after its period; the first resync is one period after creation', () => {
    const clock = new FakeClock();
    const l = listener(clock, () => {}, undefined, 1000);
    expect(l.shouldResync(clock.now())).toBe(false);
    expect(l.shouldResync(clock.now() + 1000)).toBe(true);
    const never = listener(clock, () => {}, undefined, 0);
    expect(never.shouldResync(clock.now() + 1e9)).toBe(false);
  });

  it('sharedProcessor: sync notifications go only to listeners due a resync', async () => {
    const clock = new FakeClock();
    const p = new SharedProcessor<O>(clock);
    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = listener(clock, () => {}, undefined, 1000);
    const b = listener(clock, () => {}, undefined, 0);
    a['handler'].onUpdate = (_x, n) => void seenA.push(n.metadata.name);
    b['handler'].onUpdate = (_x, n) => void seenB.push(n.metadata.name);
    p.addListener(a);
    p.addListener(b);
    p.run();
    clock.step(1000);
    expect(p.shouldResync()).toBe(true);
    p.distribute({ type: 'update', oldObj: o('s'), newObj: o('s'), resync: true }, true);
    p.distribute({ type: 'update', oldObj: o('u'), newObj: o('u'), resync: false }, false);
    await flushMicrotasks();
    expect(seenA).toEqual(['s', 'u']);
    expect(seenB).toEqual(['u']);
    expect(p.shouldResync()).toBe(false);
  });

  it('determineResyncPeriod', () => {
    expect(determineResyncPeriod(0, 1000)).toBe(0);
    expect(determineResyncPeriod(5000, 0)).toBe(0);
    expect(determineResyncPeriod(500, 1000)).toBe(1000);
    expect(determineResyncPeriod(5000, 1000)).toBe(5000);
  });
});
