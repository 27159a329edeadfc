// A reconcile that ignores its aborted signal holds its worker for as long as it runs. Upstream says nothing;
// here it is reported once its grace is over (a reconcile.stuck event and an error log), for a timeout and
// for a shutdown, and a reconcile that honours the signal is never reported.
import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc, type Result } from '../reconcile/reconcile';
import { FakeClock } from '../testing/fake-clock';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { RecordingProbe } from '../testing/recording-probe';
import { Controller } from './controller';
import type { ControllerOptions } from './options';

const req = { namespace: 'default', name: 'stubborn' };

async function until(cond: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never reached: ${what}`);
}

function make(o: Partial<ControllerOptions>) {
  const queue = new FakeRequestQueue({ requeueDelayed: false });
  const clock = new FakeClock();
  const probe = new RecordingProbe();
  const c = new Controller({
    name: 'stubborn',
    reconciler: reconcileFunc(async () => ({})),
    registry: newRegistry(false),
    clock,
    probe,
    newQueue: () => queue,
    ...o,
  });
  return { c, queue, clock, probe };
}

describe('a reconcile that ignores its abort signal', () => {
  it('is reported once the grace after its timeout is over, and only then', async () => {
    let release: (() => void) | undefined;
    const { c, queue, clock, probe } = make({
      reconciliationTimeoutMs: 1000,
      abortGraceMs: 2000,
      reconciler: reconcileFunc(() => new Promise<Result>((res) => (release = () => res({})))),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add(req);
    await until(() => c.activeWorkers() === 1);
    await clock.advance(1000);
    await clock.advance(1999);
    expect(probe.ofKind('reconcile.stuck')).toEqual([]);
    await clock.advance(1);
    expect(probe.ofKind('reconcile.stuck')).toEqual([
      {
        kind: 'reconcile.stuck',
        controller: 'stubborn',
        key: 'default/stubborn',
        worker: 0,
        reason: 'timeout',
        sinceAbortMs: 2000,
      },
    ]);
    expect(c.activeWorkers()).toBe(1);
    // The dashboard's view shows it as an error on the controller and in the notable log.
    const v = reduce(
      createView(),
      probe.events.map((e, i) => ({ ...e, seq: i + 1, ts: i }) as StampedEvent),
    );
    expect(v.notable.at(-1)?.text).toBe(
      'stubborn default/stubborn: reconcile ignores its abort signal: still running 2 s after it was aborted ' +
        '(its reconciliation timeout passed), holding worker 0',
    );
    expect(v.controllers.stubborn?.lastError).toContain('ignores its abort signal');
    release?.();
    await until(() => c.activeWorkers() === 0);
    ac.abort();
    await run;
  });

  it('is reported when it outlives a shutdown', async () => {
    let release: (() => void) | undefined;
    const { c, queue, clock, probe } = make({
      abortGraceMs: 500,
      reconciler: reconcileFunc(() => new Promise<Result>((res) => (release = () => res({})))),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add(req);
    await until(() => c.activeWorkers() === 1);
    ac.abort();
    await clock.advance(500);
    expect(probe.ofKind('reconcile.stuck').map((e) => e.reason)).toEqual(['shutdown']);
    release?.();
    await run;
  });

  it('is not reported when it returns on abort', async () => {
    const { c, queue, clock, probe } = make({
      reconciliationTimeoutMs: 1000,
      abortGraceMs: 100,
      reconciler: reconcileFunc(
        (ctx) =>
          new Promise<Result>((_res, rej) => ctx.signal.addEventListener('abort', () => rej(new Error('aborted')))),
      ),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add(req);
    await until(() => c.activeWorkers() === 1);
    await clock.advance(1000);
    await until(() => c.activeWorkers() === 0);
    await clock.advance(1000);
    expect(probe.ofKind('reconcile.stuck')).toEqual([]);
    ac.abort();
    await run;
  });
});
