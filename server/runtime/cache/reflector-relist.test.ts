import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import type { ListerWatcher } from '../client/lister-watcher';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import {
  ScriptedWatch,
  connectionRefusedError,
  expiredError,
  internalErrorStatus,
  tooManyRequestsError,
} from '../testing/scripted-list-watch';
import { ApiError } from '../util/errors';
import { metaNamespaceKeyFunc } from './keys';
import { Reflector, type ReflectorOptions } from './reflector';
import type { ReflectorStore } from './reflector-store';
import { failWatch, funcLW, listOf, pod, rvs } from '../testing/reflector-fixtures';
import { newStore } from './store';
import { freshClockEachTest } from '../testing/test-harness';

let clock: FakeClock;
let ctl: AbortController;
freshClockEachTest((c, a) => ((clock = c), (ctl = a)));

function reflector(
  lw: ListerWatcher,
  extra: Partial<ReflectorOptions<KubeObject>> = {},
  store: ReflectorStore<KubeObject> = newStore<KubeObject>(metaNamespaceKeyFunc),
) {
  return new Reflector<KubeObject>({ listerWatcher: lw, store, name: 'test', clock, random: () => 0, ...extra });
}
/** Runs listAndWatch n times; each ends because the watch is refused. */
async function cycles(r: Reflector<KubeObject>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await r.listAndWatch(ctl.signal).catch(() => {});
}
/** Advances the fake clock 1ms at a time until cond holds; returns the time it took. */
async function advanceUntil(cond: () => boolean, limitMs = 10_000, stepMs = 1): Promise<number> {
  const start = clock.now();
  while (!cond()) {
    if (clock.now() - start > limitMs) throw new Error('condition never held');
    await clock.advance(stepMs);
  }
  return clock.now() - start;
}

describe('reflector_test: relist resource versions and paging', () => {
  it('TestReflectorResourceVersion: relists at the previous list RV', async () => {
    const lw = funcLW(() => listOf('10'), failWatch);
    await cycles(reflector(lw), 2);
    expect(rvs(lw.listCalls)).toEqual(['0', '10']);
  });

  it('TestReflectorExpiredExactResourceVersion: an expired relist retries at RV ""', async () => {
    const lw = funcLW((o) => {
      if (o.resourceVersion === '10') throw expiredError();
      return listOf('10');
    }, failWatch);
    await cycles(reflector(lw), 2);
    expect(rvs(lw.listCalls)).toEqual(['0', '10', '']);
  });

  it('TestReflectorFullListIfExpired: an expired continuation falls back to a full list at the RV', async () => {
    const lw = funcLW((o) => {
      if (o.continue) throw expiredError();
      if (o.resourceVersion === '10')
        return listOf('10', [pod('a', '1'), pod('b', '2'), pod('c', '3'), pod('d', '4')], 'C1');
      return listOf('10', [pod('a', '1')]);
    }, failWatch);
    await cycles(reflector(lw, { watchListPageSize: 4 }), 2);
    expect(rvs(lw.listCalls)).toEqual(['0', '10', '', '10']);
    expect(lw.listCalls[3]?.limit).toBeUndefined();
    expect(lw.listCalls[3]?.continue).toBeUndefined();
  });

  it('TestReflectorSetExpectedType... too large resource version: three error shapes each retry at RV ""', async () => {
    const shapes: Record<string, ApiError> = {
      '20': ApiError.fromStatus({
        apiVersion: 'v1',
        kind: 'Status',
        metadata: {},
        status: 'Failure',
        code: 504,
        reason: 'Timeout',
        message: 'Timeout: Too large resource version: 20, current: 19',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
      }),
      '30': new ApiError(504, 'Timeout', 'Too large resource version: 30, current: 29'),
      '40': ApiError.fromStatus({
        apiVersion: 'v1',
        kind: 'Status',
        metadata: {},
        status: 'Failure',
        code: 504,
        reason: 'Timeout',
        message: 'Timeout',
        details: { causes: [{ message: 'Too large resource version' }] },
      }),
    };
    const next: Record<string, string> = { '0': '20', '': '20' };
    let n = 0;
    const lw = funcLW((o) => {
      const rv = o.resourceVersion ?? '';
      const shape = shapes[rv];
      if (shape) throw shape;
      n++;
      return listOf(['20', '30', '40', '50'][n - 1] ?? next[rv] ?? '0');
    }, failWatch);
    await cycles(reflector(lw), 4);
    expect(rvs(lw.listCalls)).toEqual(['0', '20', '', '30', '', '40', '']);
  });

  it('TestReflectorListExtract + WatchListPageSize 4 with last RV "10": pages of 4 via continue tokens', async () => {
    const items = Array.from({ length: 10 }, (_, i) => pod(`p${i}`, '10'));
    const lw = funcLW((o) => {
      if (!o.continue && o.resourceVersion === '0') return listOf('10');
      const start = o.continue === 'C1' ? 4 : o.continue === 'C2' ? 8 : 0;
      const cont = start === 0 ? 'C1' : start === 4 ? 'C2' : undefined;
      return listOf('10', items.slice(start, start + (o.limit ?? 10)), cont);
    }, failWatch);
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    await cycles(reflector(lw, { watchListPageSize: 4 }, store), 2);
    expect(lw.listCalls.slice(1).map((c) => [c.limit, c.continue])).toEqual([
      [4, undefined],
      [4, 'C1'],
      [4, 'C2'],
    ]);
    expect(store.listKeys()).toHaveLength(10);
  });

  it('with a concrete last RV and no page size the relist is unpaginated (watch cache can serve it)', async () => {
    const lw = funcLW(() => listOf('10'), failWatch);
    await cycles(reflector(lw), 2);
    expect(lw.listCalls[1]).toEqual({ resourceVersion: '10' });
  });

  it('an initial RV="0" list that came back paginated keeps later relists paginated', async () => {
    const lw = funcLW((o) => {
      if (o.continue) return listOf('10', [pod('b', '1')]);
      return listOf('10', [pod('a', '1')], 'C1');
    }, failWatch);
    await cycles(reflector(lw), 2);
    expect(lw.listCalls.filter((c) => !c.continue).map((c) => [c.resourceVersion, c.limit])).toEqual([
      ['0', 500],
      ['10', 500],
    ]);
  });

  it('TestReflectorWatchTimeout: timeoutSeconds in [300, 600); a 1s minimum is ignored; 30 min → [1800, 3600)', async () => {
    const timeouts = async (extra: Partial<ReflectorOptions<KubeObject>>): Promise<number[]> => {
      const out: number[] = [];
      for (const random of [0, 0.5, 0.999]) {
        const lw = funcLW(() => listOf('1'), failWatch);
        await cycles(reflector(lw, { ...extra, random: () => random }), 1);
        out.push(lw.watchCalls[0]?.timeoutSeconds ?? -1);
      }
      return out;
    };
    expect(await timeouts({})).toEqual([300, 450, 599]);
    expect(await timeouts({ minWatchTimeoutMs: 1000 })).toEqual([300, 450, 599]);
    expect(await timeouts({ minWatchTimeoutMs: 30 * 60_000 })).toEqual([1800, 2700, 3598]);
  });
});

describe('reflector_test: watch errors, backoff and retries', () => {
  it('TestBackoffOnConnectionRefused: base 1ms ×2 jitter 1 — five refusals take [31ms, 62ms)', async () => {
    for (const [random, expected] of [
      [0, 31],
      [0.999, 61],
    ] as const) {
      clock = new FakeClock();
      const lw = funcLW(
        () => listOf('1'),
        (_o, n) => {
          if (n <= 5) throw connectionRefusedError();
          return new ScriptedWatch();
        },
      );
      const r = reflector(lw, { random: () => random, backoff: { durationMs: 1, factor: 2, jitter: 1, capMs: 50 } });
      void r.listAndWatch(ctl.signal);
      const took = await advanceUntil(() => lw.watchCalls.length === 6);
      expect(took).toBeGreaterThanOrEqual(expected);
      expect(took).toBeLessThanOrEqual(62);
      expect(lw.listCalls).toHaveLength(1);
    }
  });

  it('TestBackoffOnConnectionRefused with a custom backoff {10ms ×2, no jitter, cap 100ms}: 250ms', async () => {
    const lw = funcLW(
      () => listOf('1'),
      (_o, n) => {
        if (n <= 5) throw connectionRefusedError();
        return new ScriptedWatch();
      },
    );
    const r = reflector(lw, { backoff: { durationMs: 10, factor: 2, jitter: 0, capMs: 100 } });
    void r.listAndWatch(ctl.signal);
    expect(await advanceUntil(() => lw.watchCalls.length === 6)).toBe(250);
  });

  it('TestBackoffOnTooManyRequests: 429 on establishment then a 429 ERROR event → 2 delays, no relist', async () => {
    const probe = new RecordingProbe();
    const lw = funcLW(
      () => listOf('1'),
      (_o, n) => {
        if (n === 1) throw tooManyRequestsError();
        const w = new ScriptedWatch();
        if (n === 2) w.push({ type: 'ERROR', object: tooManyRequestsError().status ?? internalErrorStatus() });
        return w;
      },
    );
    void reflector(lw, { probe }).listAndWatch(ctl.signal);
    await advanceUntil(() => lw.watchCalls.length === 3, 10_000, 100);
    expect(probe.ofKind('reflector.backoff')).toHaveLength(2);
    expect(lw.listCalls).toHaveLength(1);
  });

  it('TestNoRelistOnTooManyRequests: 4 consecutive 429s on establishment → 1 list, 5 watches', async () => {
    const lw = funcLW(
      () => listOf('1'),
      (_o, n) => {
        if (n <= 4) throw tooManyRequestsError();
        return new ScriptedWatch();
      },
    );
    void reflector(lw).listAndWatch(ctl.signal);
    await advanceUntil(() => lw.watchCalls.length === 5, 60_000, 100);
    expect(lw.listCalls).toHaveLength(1);
  });

  describe('TestRetryInternalError (each watch ends with a 500; the clock moves 1s per watch)', () => {
    const cases = [
      { name: 'retry disabled', maxMs: 0, jumpAt: 0, retries: 0 },
      { name: 'retry within 30s', maxMs: 30_000, jumpAt: 0, retries: 31 },
      { name: 'a 1-minute pause at the 10th attempt resets the window', maxMs: 30_000, jumpAt: 10, retries: 40 },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const lw = funcLW(
          () => listOf('1'),
          (_o, n) => {
            clock.step(1000);
            if (n === c.jumpAt) clock.step(60_000);
            const w = new ScriptedWatch();
            w.push({ type: 'ERROR', object: internalErrorStatus() });
            return w;
          },
        );
        await reflector(lw, { maxInternalErrorRetryDurationMs: c.maxMs }).listAndWatch(ctl.signal);
        expect(lw.watchCalls.length - 1).toBe(c.retries);
      });
    }
  });

  it('TestReflectorResync: a failing resync ends ListAndWatch cleanly after exactly 2 resyncs', async () => {
    let resyncs = 0;
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const failing: ReflectorStore<KubeObject> = {
      add: (o) => store.add(o),
      update: (o) => store.update(o),
      delete: (o) => store.delete(o),
      replace: (l, rv) => store.replace(l, rv),
      resync: () => {
        resyncs++;
        if (resyncs === 2) throw new Error('resync failed');
      },
    };
    const lw = funcLW(
      () => listOf('1'),
      () => new ScriptedWatch(),
    );
    const done = reflector(lw, { resyncPeriodMs: 1 }, failing).listAndWatch(ctl.signal);
    await clock.advance(10);
    await done;
    expect(resyncs).toBe(2);
  });

  it('TestReflectorResyncCheckPeriod: shouldResync gates store.resync; the timer re-arms either way', async () => {
    let asked = 0;
    let resyncs = 0;
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    store.resync = () => void resyncs++;
    const lw = funcLW(
      () => listOf('1'),
      () => new ScriptedWatch(),
    );
    void reflector(lw, { resyncPeriodMs: 1000, shouldResync: () => ++asked % 2 === 0 }, store).listAndWatch(ctl.signal);
    await clock.advance(4000);
    expect(asked).toBe(4);
    expect(resyncs).toBe(2);
  });

  it('TestReflectorResourceVersionUpdate: list RV then each watch event RV reaches updateResourceVersion', async () => {
    const updates: string[] = [];
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const s: ReflectorStore<KubeObject> = Object.assign(store, {
      updateResourceVersion: (rv: string) => void updates.push(rv),
    });
    const w = new ScriptedWatch();
    void reflector(
      funcLW(
        () => listOf('10'),
        () => w,
      ),
      {},
      s,
    ).listAndWatch(ctl.signal);
    await flushMicrotasks();
    w.push({ type: 'ADDED', object: pod('a', '10') });
    w.push({ type: 'MODIFIED', object: pod('a', '20') });
    w.push({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '30' } } });
    w.push({ type: 'DELETED', object: pod('a', '40') });
    await flushMicrotasks();
    expect(updates).toEqual(['10', '20', '30', '40']);
  });

  it('unsafe delete: a 500 StoreReadError relists; the replace drops the corrupt object', async () => {
    const store = newStore<KubeObject>(metaNamespaceKeyFunc);
    const watches: ScriptedWatch[] = [];
    const lw = funcLW(
      (_o, n) => (n === 1 ? listOf('1', [pod('good', '1'), pod('corrupt', '1')]) : listOf('5', [pod('good', '1')])),
      () => {
        const w = new ScriptedWatch();
        watches.push(w);
        return w;
      },
    );
    const r = reflector(lw, {}, store);
    void r.run(ctl.signal);
    await flushMicrotasks();
    watches[0]?.push({
      type: 'ERROR',
      object: { ...internalErrorStatus('failed to read object'), reason: 'StoreReadError' },
    });
    await advanceUntil(() => lw.listCalls.length === 2, 10_000, 100);
    await flushMicrotasks();
    expect(store.listKeys()).toEqual(['ns/good']);
    expect(r.lastSyncResourceVersion()).toBe('5');
  });

  it('the watch error handler sees list errors; the run loop backs off and relists', async () => {
    const errors: unknown[] = [];
    const lw = funcLW(
      (_o, n) => {
        if (n === 1) throw new ApiError(403, 'Forbidden', 'Access Denied');
        return listOf('3');
      },
      () => new ScriptedWatch(),
    );
    const r = reflector(lw, { watchErrorHandler: (e) => errors.push(e) });
    void r.run(ctl.signal);
    await advanceUntil(() => r.state === 'watching', 10_000, 100);
    expect(String(errors[0])).toContain('Access Denied');
    expect(lw.listCalls).toHaveLength(2);
  });
});
