// A reconciler may throw anything, including values that throw when looked at (a Proxy whose every trap
// throws, an object with no prototype). Each must stay that reconcile's error: the controller goes on with
// the next key, and the value is described without being trusted.
import { describe, expect, it } from 'vitest';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc } from '../reconcile/reconcile';
import { FakeClock } from '../testing/fake-clock';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { RecordingProbe } from '../testing/recording-probe';
import { errorMessage } from '../util/errors';
import { Controller, isPanic } from './controller';

const boom = (): never => {
  throw new Error('x');
};
const oddValues: [string, () => unknown][] = [
  ['a Proxy whose getPrototypeOf throws', () => new Proxy({}, { getPrototypeOf: boom })],
  [
    'a Proxy whose every trap throws',
    () => new Proxy({}, { getPrototypeOf: boom, get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom }),
  ],
  ['an object with no prototype', () => Object.create(null) as unknown],
];

async function until(cond: () => boolean, what: string): Promise<void> {
  // Waits on the condition, turn by turn of the event loop (no wall-clock deadline: a loaded machine only
  // makes it slower).
  for (let i = 0; i < 10_000; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never reached: ${what}`);
}

describe('a reconciler that throws an odd value', () => {
  it.each(oddValues)('%s: stays that reconcile’s error, and the next key reconciles', async (_name, make) => {
    const probe = new RecordingProbe();
    const queue = new FakeRequestQueue({ requeueDelayed: false });
    const c = new Controller({
      name: 'odd',
      registry: newRegistry(false),
      clock: new FakeClock(),
      probe,
      newQueue: () => queue,
      reconciler: reconcileFunc(async (_ctx, req) => {
        if (req.name === 'odd') throw make();
        return {};
      }),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    queue.add({ namespace: 'default', name: 'odd' });
    await until(() => probe.ofKind('reconcile.end').some((e) => e.key === 'default/odd'), 'the odd reconcile ended');
    queue.add({ namespace: 'default', name: 'next' });
    await until(() => probe.ofKind('reconcile.end').some((e) => e.key === 'default/next'), 'the next key reconciled');
    const odd = probe.ofKind('reconcile.end').find((e) => e.key === 'default/odd')!;
    expect(odd.outcome).toBe('panic');
    expect(odd.error).toMatch(/^panic: a thrown .+ \[recovered\]$/);
    expect(probe.ofKind('controller.lifecycle').some((e) => e.phase === 'stopped')).toBe(false);
    ac.abort();
    await run;
  });

  it.each(oddValues)('%s: isPanic and errorMessage answer without throwing', (_name, make) => {
    const v = make();
    expect(isPanic(v)).toBe(true);
    expect(errorMessage(v)).toMatch(/^a thrown /);
  });
});
