// The reconcile's signal is built only when read; read late, it must still tell what happened: aborted with
// the parent's reason, with DeadlineExceededError after the timeout, with "context canceled" once the
// reconcile returned — as an eager child signal would.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc, type ReconcileContext } from '../reconcile/reconcile';
import { FakeClock } from '../testing/fake-clock';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { Controller } from './controller';
import { ReconcileSignals } from './reconcile-signal';

describe('ReconcileSignals', () => {
  it('a signal first read after the parent aborted is aborted with its reason, and onAbort ran once', () => {
    const parent = new AbortController();
    const onAbort = vi.fn();
    const ctx = new ReconcileSignals(new FakeClock()).open(parent.signal, 0, onAbort);
    parent.abort('stopping');
    expect(onAbort).toHaveBeenCalledTimes(1);
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe('stopping');
    ctx.cancel();
    expect(ctx.signal.reason).toBe('stopping');
    expect(onAbort).toHaveBeenCalledTimes(1);
  });

  it('a signal read before the parent aborts fires its abort event with the reason', () => {
    const parent = new AbortController();
    const ctx = new ReconcileSignals(new FakeClock()).open(parent.signal, 0, () => undefined);
    const seen: unknown[] = [];
    ctx.signal.addEventListener('abort', () => seen.push(ctx.signal.reason));
    parent.abort('stopping');
    expect(seen).toEqual(['stopping']);
  });

  it('the deadline aborts with DeadlineExceededError whether the signal was read before or after', async () => {
    const clock = new FakeClock();
    const signals = new ReconcileSignals(clock);
    const early = signals.open(undefined, 1000, () => undefined);
    const read = early.signal;
    const late = signals.open(undefined, 1000, () => undefined);
    await clock.advance(999);
    expect(read.aborted || late.aborted).toBe(false);
    await clock.advance(1);
    expect((read.reason as Error).name).toBe('DeadlineExceededError');
    expect((late.signal.reason as Error).name).toBe('DeadlineExceededError');
  });

  it('cancel aborts with "context canceled", without onAbort, and releases the parent and the timer', async () => {
    const clock = new FakeClock();
    const parent = new AbortController();
    const onAbort = vi.fn();
    const ctx = new ReconcileSignals(clock).open(parent.signal, 1000, onAbort);
    ctx.cancel();
    expect(clock.pendingTimers).toBe(0);
    parent.abort('later');
    await clock.advance(2000);
    expect(onAbort).not.toHaveBeenCalled();
    expect(ctx.signal.aborted).toBe(true);
    expect((ctx.signal.reason as Error).message).toBe('context canceled');
  });

  it('opened under an aborted parent, it is aborted at once', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const onAbort = vi.fn();
    const ctx = new ReconcileSignals(new FakeClock()).open(parent.signal, 0, onAbort);
    expect(onAbort).toHaveBeenCalledTimes(1);
    expect(ctx.signal.reason).toBe('gone');
  });

  it('only the contexts of the parent that aborted are aborted', () => {
    const signals = new ReconcileSignals(new FakeClock());
    const a = new AbortController();
    const b = new AbortController();
    const ca = signals.open(a.signal, 0, () => undefined);
    const cb = signals.open(b.signal, 0, () => undefined);
    a.abort();
    expect(ca.aborted).toBe(true);
    expect(cb.aborted).toBe(false);
  });
});

describe('a controller reconcile', () => {
  const Real = globalThis.AbortController;
  afterEach(() => {
    globalThis.AbortController = Real;
  });

  async function runOne(reconcile: (ctx: ReconcileContext) => void, around?: (on: boolean) => void): Promise<void> {
    const queue = new FakeRequestQueue({ requeueDelayed: false });
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const c = new Controller({
      name: 'lazy',
      reconciler: reconcileFunc(async (ctx) => {
        reconcile(ctx);
        setImmediate(done);
        return {};
      }),
      registry: newRegistry(false),
      clock: new FakeClock(),
      newQueue: () => queue,
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    around?.(true);
    queue.add({ namespace: 'default', name: 'x' });
    await finished;
    around?.(false);
    ac.abort();
    await run;
  }

  it('builds no AbortController when the reconciler never reads its signal', async () => {
    let built = 0;
    let counting = false;
    globalThis.AbortController = class extends Real {
      constructor() {
        super();
        if (counting) built++;
      }
    };
    await runOne(
      () => undefined,
      (on) => (counting = on),
    );
    expect(built).toBe(0);
  });

  it('gives a context whose spread copy keeps the signal and shows nothing internal', async () => {
    let copy: Record<string, unknown> = {};
    await runOne((ctx) => {
      copy = { ...ctx };
    });
    expect(Object.keys(copy).sort()).toEqual(['controller', 'log', 'reconcileID', 'signal']);
    expect(copy.signal).toBeInstanceOf(AbortSignal);
  });

  it('hands a reconciler that keeps its context a signal aborted once it returned', async () => {
    let kept: ReconcileContext | undefined;
    await runOne((ctx) => {
      kept = ctx;
    });
    expect(kept?.signal.aborted).toBe(true);
    expect((kept?.signal.reason as Error).message).toBe('context canceled');
  });
});
