// Warmup scenarios from controller-runtime pkg/internal/controller/controller_test.go.
import { describe, expect, it } from 'vitest';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc } from '../reconcile/reconcile';
import { funcSource } from '../source/source';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { Controller } from './controller';

function make(enableWarmup: boolean) {
  return new Controller({
    name: 'warm',
    enableWarmup,
    registry: newRegistry(false),
    clock: new FakeClock(),
    newQueue: () => new FakeRequestQueue(),
    reconciler: reconcileFunc(async () => ({})),
  });
}

describe('Controller.Warmup', () => {
  it('starts a non-blocking source before Start', async () => {
    const c = make(true);
    let starts = 0;
    await c.watch(funcSource(() => void starts++));
    const ac = new AbortController();
    await c.warmup(ac.signal);
    expect(starts).toBe(1);
    ac.abort();
  });

  it('returns the same source error as Start', async () => {
    const c = make(true);
    await c.watch(
      funcSource(() => {
        throw new Error('source failed');
      }),
    );
    const ac = new AbortController();
    await expect(c.warmup(ac.signal)).rejects.toThrow('source failed');
    await expect(c.start(ac.signal)).rejects.toThrow('source failed');
  });

  it('starts sources exactly once for concurrent Warmup and Start', async () => {
    const c = make(true);
    let starts = 0;
    await c.watch(funcSource(() => void starts++));
    const ac = new AbortController();
    const w = c.warmup(ac.signal);
    const run = c.start(ac.signal);
    await w;
    await flushMicrotasks();
    expect(starts).toBe(1);
    ac.abort();
    await run;
  });

  it('starts sources added after Warmup at once', async () => {
    const c = make(true);
    const ac = new AbortController();
    await c.warmup(ac.signal);
    let started = false;
    await c.watch(funcSource(() => void (started = true)));
    expect(started).toBe(true);
    ac.abort();
  });

  it('is a no-op when warmup is disabled; Start starts the sources', async () => {
    const c = make(false);
    let starts = 0;
    await c.watch(funcSource(() => void starts++));
    const ac = new AbortController();
    await c.warmup(ac.signal);
    expect(starts).toBe(0);
    const run = c.start(ac.signal);
    await flushMicrotasks();
    expect(starts).toBe(1);
    ac.abort();
    await run;
  });
});
