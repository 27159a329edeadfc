// Whatever a reconciler returns or throws (non-Error throws, null, NaN or huge requeueAfterMs, objects whose
// getters or toString throw, proxies, symbols, bigints, megabyte messages), the controller handles it as
// controller-runtime would or refuses it with an error naming the problem, reports a bounded, serializable
// reconcile.end, and keeps reconciling the next key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RECONCILE_OUTCOMES } from '../../../shared/protocol/reconcile-outcomes';
import { newRegistry } from '../metrics/registry';
import { reconcileFunc } from '../reconcile/reconcile';
import { FakeClock } from '../testing/fake-clock';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { RecordingProbe } from '../testing/recording-probe';
import { Controller } from './controller';
import { readResult } from './result-handling';

const boom = (): never => {
  throw new Error('getter exploded');
};
const hostile: fc.Arbitrary<unknown> = fc
  .constantFrom(
    () => Object.create(null) as unknown,
    () => ({ toString: boom }),
    () => ({ [Symbol.toPrimitive]: boom }),
    () => Object.defineProperty(new Error('x'), 'message', { get: boom }),
    () => Object.defineProperty(new Error('x'), 'cause', { get: boom }),
    () => ({
      get requeueAfterMs(): number {
        return boom();
      },
    }),
    () => new Proxy({}, { get: boom }),
    () => new Proxy({}, { getPrototypeOf: boom }),
    () => Symbol('thrown'),
    () => 10n,
    () => new Error('m'.repeat(1_000_000)),
    () => 'm'.repeat(1_000_000),
    () => Promise.resolve({ requeue: true }),
  )
  .map((make) => make());

const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e300, -5, 0, 2 ** 31, Number.MAX_SAFE_INTEGER),
);
const resultLike = fc.record(
  { requeue: fc.anything(), requeueAfterMs: fc.oneof(number, fc.anything()), priority: fc.oneof(number, fc.string()) },
  { requiredKeys: [] },
);
const behaviour = fc.oneof(
  fc.record({ mode: fc.constant('return' as const), value: fc.oneof(fc.anything(), resultLike, hostile) }),
  fc.record({ mode: fc.constantFrom('throw' as const, 'reject' as const), value: fc.oneof(fc.anything(), hostile) }),
);

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('the reconcile never ended');
}

describe('reconciler results and throws (property)', () => {
  it('never stops the controller, and every outcome is reported within bounds', async () => {
    const queue = new FakeRequestQueue({ requeueDelayed: false });
    const probe = new RecordingProbe();
    let next: { mode: 'return' | 'throw' | 'reject'; value: unknown } = { mode: 'return', value: {} };
    const c = new Controller({
      name: 'fuzzed',
      registry: newRegistry(false),
      clock: new FakeClock(),
      probe,
      newQueue: () => queue,
      reconciler: reconcileFunc((() => {
        const b = next;
        if (b.mode === 'throw') throw b.value;
        if (b.mode === 'reject') return Promise.reject(b.value);
        return b.value;
      }) as never),
    });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(behaviour, async (b) => {
        next = b;
        const name = `k${++n}`;
        queue.add({ namespace: 'default', name });
        await until(() => probe.ofKind('reconcile.end').some((e) => e.key === `default/${name}`));
        await until(() => c.activeWorkers() === 0);
        const end = probe.ofKind('reconcile.end').find((e) => e.key === `default/${name}`)!;
        expect(RECONCILE_OUTCOMES).toContain(end.outcome);
        expect(() => JSON.stringify(end)).not.toThrow();
        expect((end.error ?? '').length).toBeLessThanOrEqual(4000);
        if (end.outcome === 'requeueAfter') {
          expect(Number.isFinite(end.requeueAfterMs) && (end.requeueAfterMs ?? 0) > 0).toBe(true);
        }
        if (b.mode !== 'return') expect(['error', 'panic', 'terminalError']).toContain(end.outcome);
      }),
      { numRuns: 300 },
    );
    ac.abort();
    await run;
  });
});

describe('readResult', () => {
  it('refuses what Go could not have returned, naming it', () => {
    expect(readResult({ requeueAfterMs: Number.NaN })).toEqual(
      new Error('Result.requeueAfterMs must be a finite number of milliseconds, got NaN'),
    );
    expect(readResult({ requeueAfterMs: '5s' })).toEqual(
      new Error('Result.requeueAfterMs must be a finite number of milliseconds, got a string "5s"'),
    );
    expect(readResult({ priority: Infinity })).toEqual(
      new Error('Result.priority must be a finite number, got Infinity'),
    );
    expect(readResult(42)).toEqual(
      new Error('the reconciler returned a number, not a Result ({}, {requeue: true} or {requeueAfterMs: n})'),
    );
    expect(readResult(new Proxy({}, { get: boom }))).toEqual(
      new Error('reading the Result the reconciler returned failed: getter exploded'),
    );
  });

  it('keeps what upstream keeps: null as an empty Result, a negative requeueAfter as none', () => {
    expect(readResult(null)).toEqual({});
    expect(readResult({ requeueAfterMs: -5, requeue: 1 })).toEqual({ requeueAfterMs: -5, requeue: true });
  });
});
