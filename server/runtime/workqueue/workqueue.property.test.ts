// Property: under any interleaving of add / addAfter / addRateLimited / get / done / time passing with several
// simulated workers, a queue never hands one key to two workers at once, and every key added is processed
// again after its last add. For the priority queue it also checks what controller-runtime's
// TestFuzzPriorityQueue checks: a key comes out with the highest priority it was added with since last taken.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/protocol/events';
import type { Probe } from '../instrumentation/probe';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { PriorityQueue } from './priority-queue';
import { RateLimitingQueue } from './rate-limiting-queue';
import { ItemExponentialFailureRateLimiter } from './rate-limiters';

type Command =
  | { op: 'add'; key: number; priority: number }
  | { op: 'addAfter'; key: number; delay: number; priority: number }
  | { op: 'addRateLimited'; key: number; priority: number }
  /** settle: let the worker see what it got before the next command (else it notices later). */
  | { op: 'get'; worker: number; settle: boolean }
  | { op: 'done'; worker: number }
  | { op: 'step'; ms: number }
  | { op: 'flush' };

const KEYS = 4;
const WORKERS = 3;

const key = fc.integer({ min: 0, max: KEYS - 1 });
const priority = fc.integer({ min: -2, max: 2 });
const worker = fc.integer({ min: 0, max: WORKERS - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), key, priority }),
  fc.record({ op: fc.constant('addAfter' as const), key, delay: fc.integer({ min: -5, max: 40 }), priority }),
  fc.record({ op: fc.constant('addRateLimited' as const), key, priority }),
  fc.record({ op: fc.constant('get' as const), worker, settle: fc.boolean() }),
  fc.record({ op: fc.constant('get' as const), worker, settle: fc.boolean() }),
  fc.record({ op: fc.constant('done' as const), worker }),
  fc.record({ op: fc.constant('done' as const), worker }),
  fc.record({ op: fc.constant('step' as const), ms: fc.integer({ min: 1, max: 30 }) }),
  fc.constant({ op: 'flush' as const }),
);

/** What the harness needs from either queue kind. */
interface Subject {
  add(k: string, priority: number): void;
  addAfter(k: string, delay: number, priority: number): void;
  addRateLimited(k: string, priority: number): void;
  get(): Promise<{ shutdown: boolean; item?: string; priority?: number }>;
  done(k: string): void;
  idle(): boolean;
}

/** Sees every hand-out synchronously, at the moment the queue decides it. */
class TakeProbe implements Probe {
  readonly enabled = true;
  onTake: (key: string) => void = () => {};
  emit(e: RuntimeEvent): void {
    if (e.kind === 'queue.get') this.onTake(e.key);
  }
}

async function runScenario(
  commands: Command[],
  make: (clock: FakeClock, probe: Probe) => Subject,
  checkPriority: boolean,
): Promise<void> {
  const clock = new FakeClock(0);
  const probe = new TakeProbe();
  const q = make(clock, probe);
  let seq = 0;
  const lastAdd = new Map<string, number>();
  const lastStart = new Map<string, number>();
  // Highest priority added since the key was last taken, and what each take should therefore return.
  const pendingMax = new Map<string, number>();
  const expectedAtTake = new Map<string, number>();
  probe.onTake = (k) => {
    expectedAtTake.set(k, pendingMax.get(k) ?? 0);
    pendingMax.delete(k);
  };
  const holding: (string | undefined)[] = Array(WORKERS).fill(undefined);
  const waiting: boolean[] = Array(WORKERS).fill(false);
  const failures: string[] = [];

  const noteAdd = (k: string, p: number): void => {
    lastAdd.set(k, seq++);
    pendingMax.set(k, Math.max(pendingMax.get(k) ?? -Infinity, p));
  };
  const startGet = (w: number): void => {
    if (holding[w] !== undefined || waiting[w]) return;
    waiting[w] = true;
    void q.get().then((r) => {
      waiting[w] = false;
      if (r.shutdown || r.item === undefined) return;
      const k = r.item;
      const other = holding.findIndex((h) => h === k);
      if (other >= 0) failures.push(`key ${k} handed to worker ${w} while worker ${other} holds it`);
      if (checkPriority && r.priority !== expectedAtTake.get(k)) {
        failures.push(`key ${k} came out with priority ${r.priority}, expected ${expectedAtTake.get(k)}`);
      }
      holding[w] = k;
      lastStart.set(k, seq++);
    });
  };
  const finish = (w: number): void => {
    const k = holding[w];
    if (k === undefined) return;
    holding[w] = undefined;
    q.done(k);
  };

  for (const c of commands) {
    switch (c.op) {
      case 'add':
        noteAdd(`k${c.key}`, c.priority);
        q.add(`k${c.key}`, c.priority);
        break;
      case 'addAfter':
        noteAdd(`k${c.key}`, c.priority);
        q.addAfter(`k${c.key}`, c.delay, c.priority);
        break;
      case 'addRateLimited':
        noteAdd(`k${c.key}`, c.priority);
        q.addRateLimited(`k${c.key}`, c.priority);
        break;
      case 'get':
        startGet(c.worker);
        if (c.settle) for (let i = 0; i < 3; i++) await Promise.resolve();
        break;
      case 'done':
        finish(c.worker);
        break;
      case 'step':
        clock.step(c.ms);
        break;
      case 'flush':
        await flushMicrotasks(1);
        break;
    }
  }

  // Let every worker run to quiescence: finish what it holds, ask for more, let time pass.
  for (let round = 0; round < 200; round++) {
    await flushMicrotasks(1);
    for (let w = 0; w < WORKERS; w++) finish(w);
    for (let w = 0; w < WORKERS; w++) startGet(w);
    await flushMicrotasks(1);
    if (q.idle() && holding.every((h) => h === undefined)) break;
    clock.step(100);
  }
  expect(failures).toEqual([]);
  expect(q.idle()).toBe(true);
  for (const [k, added] of lastAdd) {
    expect(lastStart.get(k) ?? -1, `key ${k} not processed after its last add`).toBeGreaterThan(added);
  }
}

const limiter = (): ItemExponentialFailureRateLimiter<string> =>
  new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 1, maxDelayMs: 64 });

describe('workqueue properties', () => {
  it('RateLimitingQueue: one worker per key, no lost key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 80, size: 'medium' }), (commands) =>
        runScenario(
          commands,
          (clock, probe) => {
            const q = new RateLimitingQueue<string>({ clock, probe, rateLimiter: limiter() });
            return {
              add: (k) => q.add(k),
              addAfter: (k, d) => q.addAfter(k, d),
              addRateLimited: (k) => q.addRateLimited(k),
              get: () => q.get(),
              done: (k) => q.done(k),
              idle: () => {
                const d = q.depth();
                return d.ready === 0 && d.waiting === 0 && d.processing === 0;
              },
            };
          },
          false,
        ),
      ),
      { numRuns: 300 },
    );
  });

  it('PriorityQueue: one worker per key, no lost key, highest priority since last taken', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 80, size: 'medium' }), (commands) =>
        runScenario(
          commands,
          (clock, probe) => {
            const q = new PriorityQueue<string>({ clock, probe, rateLimiter: limiter() });
            return {
              add: (k, priority) => q.addWithOpts({ priority }, k),
              addAfter: (k, after, priority) => q.addWithOpts({ after, priority }, k),
              addRateLimited: (k, priority) => q.addWithOpts({ ratelimited: true, priority }, k),
              get: () => q.getWithPriority(),
              done: (k) => q.done(k),
              idle: () => {
                const d = q.depth();
                return d.ready === 0 && d.waiting === 0 && d.processing === 0;
              },
            };
          },
          true,
        ),
      ),
      { numRuns: 300 },
    );
  });
});
