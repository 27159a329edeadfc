// The Reflector's reported state changes against the shared transition table (shared/protocol/
// reflector-machine.ts): each fault path emits exactly the edges it should, every emitted change is an edge
// of the table, and every edge of the table is taken by some path (so the table has no dead edge).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { REFLECTOR_TRANSITIONS, isReflectorTransition, transitionId } from '../../../shared/protocol/reflector-machine';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { RecordingProbe } from '../testing/recording-probe';
import {
  ScriptedListWatch,
  connectionRefusedError,
  expiredError,
  expiredStatus,
  internalErrorStatus,
  tooManyRequestsError,
} from '../testing/scripted-list-watch';
import { ApiError } from '../util/errors';
import { DeltaFIFO } from './delta-fifo';
import { Reflector } from './reflector';

const pod = (name: string): KubeObject => ({ metadata: { namespace: 'ns', name } });
const taken = new Set<string>();

/** Starts a reflector; `before` scripts the server before the first request (run() lists at once). */
function start(
  opts: { useWatchList?: boolean; abortFirst?: boolean } = {},
  before: (lw: ScriptedListWatch) => void = () => {},
) {
  const clock = new FakeClock();
  const probe = new RecordingProbe();
  const ctl = new AbortController();
  if (opts.abortFirst) ctl.abort();
  const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a'), pod('b')] });
  const r = new Reflector<KubeObject>({
    listerWatcher: lw,
    store: new DeltaFIFO<KubeObject>(),
    expectedGVK: 'v1/Pod',
    clock,
    probe,
    random: () => 0,
    useWatchList: opts.useWatchList ?? false,
  });
  before(lw);
  const done = r.run(ctl.signal);
  const changes = (): string[] => {
    const evs = probe.ofKind('reflector.state');
    for (const e of evs) taken.add(transitionId(e.from, e.to));
    return evs.map((e) => transitionId(e.from, e.to));
  };
  const stop = async (): Promise<string[]> => {
    ctl.abort();
    await done;
    return changes();
  };
  return { clock, lw, r, probe, stop, changes };
}

/** The backoff delay of the n-th consecutive failure (800 ms doubling, no jitter with random 0). */
const BACKOFF_MS = 800;

describe('Reflector state changes are edges of the shared transition table', () => {
  it('a healthy life: idle → listing → watching → stopped', async () => {
    const { stop } = start();
    await flushMicrotasks();
    expect(await stop()).toEqual(['idle→listing', 'listing→watching', 'watching→stopped']);
  });

  it('stopped before it started: idle → stopped', async () => {
    const { stop } = start({ abortFirst: true });
    expect(await stop()).toEqual(['idle→stopped']);
  });

  it('410 during the watch: watching → backoff → relisting → watching', async () => {
    const { clock, lw, stop } = start();
    await flushMicrotasks();
    lw.sendError(expiredStatus());
    await flushMicrotasks();
    await clock.advance(BACKOFF_MS);
    expect(await stop()).toEqual([
      'idle→listing',
      'listing→watching',
      'watching→backoff',
      'backoff→relisting',
      'relisting→watching',
      'watching→stopped',
    ]);
  });

  it('410 when re-watching after compaction takes the same path', async () => {
    const { clock, lw, stop } = start();
    await flushMicrotasks();
    lw.add(pod('c'), { dropWatch: true });
    lw.compact();
    lw.closeWatches();
    await flushMicrotasks();
    await clock.advance(BACKOFF_MS);
    expect((await stop()).slice(2, 5)).toEqual(['watching→backoff', 'backoff→relisting', 'relisting→watching']);
  });

  it('a watch error other than 410/429 relists after the backoff', async () => {
    const { clock, lw, stop } = start();
    await flushMicrotasks();
    lw.sendError(internalErrorStatus());
    await flushMicrotasks();
    await clock.advance(BACKOFF_MS);
    expect((await stop()).slice(2, 5)).toEqual(['watching→backoff', 'backoff→relisting', 'relisting→watching']);
  });

  it('the first list fails: listing → backoff → listing → watching', async () => {
    const { clock, stop } = start({}, (lw) => lw.failNextList(new ApiError(503, 'ServiceUnavailable', 'not ready')));
    await flushMicrotasks();
    await clock.advance(BACKOFF_MS);
    expect(await stop()).toEqual([
      'idle→listing',
      'listing→backoff',
      'backoff→listing',
      'listing→watching',
      'watching→stopped',
    ]);
  });

  it('a relist fails: relisting → backoff → relisting', async () => {
    const { clock, lw, stop } = start();
    await flushMicrotasks();
    lw.failNextList(new ApiError(503, 'ServiceUnavailable', 'not ready'));
    lw.sendError(expiredStatus());
    await flushMicrotasks();
    await clock.advance(BACKOFF_MS);
    await clock.advance(2 * BACKOFF_MS);
    expect((await stop()).slice(2)).toEqual([
      'watching→backoff',
      'backoff→relisting',
      'relisting→backoff',
      'backoff→relisting',
      'relisting→watching',
      'watching→stopped',
    ]);
  });

  it('429 on an open watch: watching → backoff → watching, no relist', async () => {
    const { clock, lw, stop } = start();
    await flushMicrotasks();
    await clock.advance(2000); // a watch closed within a second would count as a failure
    lw.failNextWatch(tooManyRequestsError());
    lw.closeWatches();
    await flushMicrotasks();
    await clock.advance(BACKOFF_MS);
    expect(await stop()).toEqual([
      'idle→listing',
      'listing→watching',
      'watching→backoff',
      'backoff→watching',
      'watching→stopped',
    ]);
    expect(lw.listCalls).toHaveLength(1);
  });

  it('a refused connection for the first watch: listing → backoff → watching', async () => {
    const { clock, stop } = start({}, (lw) => lw.failNextWatch(connectionRefusedError()));
    await flushMicrotasks();
    await clock.advance(BACKOFF_MS);
    expect(await stop()).toEqual(['idle→listing', 'listing→backoff', 'backoff→watching', 'watching→stopped']);
  });

  it('a watch that cannot be opened after a relist: relisting → backoff', async () => {
    const { clock, lw, stop } = start();
    await flushMicrotasks();
    lw.sendError(expiredStatus());
    await flushMicrotasks();
    lw.failNextWatch(new ApiError(400, 'BadRequest', 'watch refused'));
    await clock.advance(BACKOFF_MS);
    expect((await stop()).slice(2)).toEqual([
      'watching→backoff',
      'backoff→relisting',
      'relisting→backoff',
      'backoff→stopped',
    ]);
  });

  it('stopped while listing, relisting or backing off', async () => {
    const listing = start({}, (lw) => (lw.list = () => new Promise<never>(() => {})));
    await flushMicrotasks();
    expect(await listing.stop()).toEqual(['idle→listing', 'listing→stopped']);

    const backoff = start({}, (lw) => lw.failNextList(new ApiError(503, 'ServiceUnavailable', 'not ready')));
    await flushMicrotasks();
    expect(await backoff.stop()).toEqual(['idle→listing', 'listing→backoff', 'backoff→stopped']);

    const relisting = start();
    await flushMicrotasks();
    relisting.lw.list = () => new Promise<never>(() => {});
    relisting.lw.sendError(expiredStatus());
    await flushMicrotasks();
    await relisting.clock.advance(BACKOFF_MS);
    expect((await relisting.stop()).slice(-2)).toEqual(['backoff→relisting', 'relisting→stopped']);
  });

  it('WatchList: a 429 on the initial stream backs off, and the retry reports leaving backoff', async () => {
    const { clock, lw, r, stop } = start({ useWatchList: true }, (l) => l.failNextWatch(tooManyRequestsError()));
    await flushMicrotasks();
    expect(r.state).toBe('backoff');
    await clock.advance(BACKOFF_MS);
    expect(r.state).toBe('watching');
    expect(await stop()).toEqual([
      'idle→listing',
      'listing→backoff',
      'backoff→listing',
      'listing→watching',
      'watching→stopped',
    ]);
    expect(lw.listCalls).toHaveLength(0);
  });

  it('WatchList: a 410 on the initial stream retries without a state change', async () => {
    const { stop } = start({ useWatchList: true }, (lw) => lw.failNextWatch(expiredError()));
    await flushMicrotasks();
    expect(await stop()).toEqual(['idle→listing', 'listing→watching', 'watching→stopped']);
  });

  afterAll(() => {
    const edges = REFLECTOR_TRANSITIONS.map((t) => transitionId(t.from, t.to));
    // Every emitted change is an edge, and every edge is taken by some path above.
    expect([...taken].filter((t) => !edges.includes(t as (typeof edges)[number]))).toEqual([]);
    expect(edges.filter((e) => !taken.has(e))).toEqual([]);
  });
});

type Fault =
  | { type: 'failList' | 'failWatch'; err: 'expired' | '429' | 'refused' | '500' | '400' }
  | { type: 'watchError'; err: 'expired' | '500' }
  | { type: 'close' | 'compact' | 'churn' }
  | { type: 'advance'; ms: number };

const errOf = (e: string): unknown =>
  e === 'expired'
    ? expiredError()
    : e === '429'
      ? tooManyRequestsError()
      : e === 'refused'
        ? connectionRefusedError()
        : e === '500'
          ? new ApiError(500, 'InternalError', 'boom')
          : new ApiError(400, 'BadRequest', 'refused');

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({
    type: fc.constantFrom('failList' as const, 'failWatch' as const),
    err: fc.constantFrom('expired' as const, '429' as const, 'refused' as const, '500' as const, '400' as const),
  }),
  fc.record({ type: fc.constant('watchError' as const), err: fc.constantFrom('expired' as const, '500' as const) }),
  fc.record({ type: fc.constantFrom('close' as const, 'compact' as const, 'churn' as const) }),
  fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 40_000 }) }),
);

describe('Reflector state changes under random faults', () => {
  it('every reported change is a table edge and starts where the previous one ended', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(faultArb, { maxLength: 25 }), async (useWatchList, faults) => {
        const { clock, lw, probe, stop } = start({ useWatchList });
        let n = 0;
        for (const f of faults) {
          if (f.type === 'failList' || f.type === 'failWatch') {
            if (f.type === 'failList') lw.failNextList(errOf(f.err));
            else lw.failNextWatch(errOf(f.err));
          } else if (f.type === 'watchError')
            lw.sendError(f.err === 'expired' ? expiredStatus() : internalErrorStatus());
          else if (f.type === 'close') lw.closeWatches();
          else if (f.type === 'compact') lw.compact();
          else if (f.type === 'churn') lw.add(pod(`p${n++}`), { dropWatch: n % 2 === 0 });
          else if (f.type === 'advance') await clock.advance(f.ms);
          await flushMicrotasks();
        }
        await stop();
        let at = 'idle';
        for (const e of probe.ofKind('reflector.state')) {
          expect(isReflectorTransition(e.from, e.to), `${e.from}→${e.to} (${e.reason})`).toBe(true);
          expect(e.from).toBe(at);
          at = e.to;
        }
        expect(at).toBe('stopped');
      }),
      { numRuns: 150 },
    );
  });
});
