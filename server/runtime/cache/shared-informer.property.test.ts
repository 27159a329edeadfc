// Property: whatever the server and the network do (adds, updates, deletes, missed events, compaction
// and 410s, closed watches, failed lists and watches, ERROR events, resyncs), once things calm down the
// informer's indexer — and a handler that mirrors its notifications — equals a fresh LIST.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock } from '../testing/fake-clock';
import {
  ScriptedListWatch,
  connectionRefusedError,
  expiredStatus,
  internalErrorStatus,
  tooManyRequestsError,
} from '../testing/scripted-list-watch';
import { ApiError } from '../util/errors';
import { DeletedFinalStateUnknown } from './interfaces';
import { newSharedIndexInformer, type FifoKind } from './shared-informer';

const NAMES = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
const pod = (name: string, v: number): KubeObject => ({
  metadata: { namespace: 'ns', name, labels: { v: String(v) } },
});

type Op =
  | { op: 'write'; name: string; del: boolean }
  | { op: 'missed'; names: string[] }
  | { op: 'close'; afterMs: number }
  | { op: 'failList'; n: number }
  | { op: 'failWatch'; n: number; how: 'refused' | '429' | '500' }
  | { op: 'errorEvent'; code: 410 | 500 }
  | { op: 'bookmark' }
  | { op: 'tick'; ms: number }
  | { op: 'addHandler' };

const name = fc.constantFrom(...NAMES);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('write' as const), name, del: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('missed' as const), names: fc.array(name, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('close' as const), afterMs: fc.constantFrom(0, 1000) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('failList' as const), n: fc.integer({ min: 1, max: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('failWatch' as const),
      n: fc.integer({ min: 1, max: 2 }),
      how: fc.constantFrom('refused' as const, '429' as const, '500' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('errorEvent' as const), code: fc.constantFrom(410 as const, 500 as const) }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'bookmark' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'addHandler' as const }) },
);

const snapshot = (objs: KubeObject[]): Record<string, string> =>
  Object.fromEntries(
    objs.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o.metadata.resourceVersion ?? '']).sort(),
  );

async function runScenario(fifo: FifoKind, resyncPeriodMs: number, useWatchList: boolean, ops: Op[]): Promise<void> {
  const clock = new FakeClock();
  const ctl = new AbortController();
  const lw = new ScriptedListWatch({ clock, initialObjects: [pod('p0', 0), pod('p1', 0)] });
  const inf = newSharedIndexInformer<KubeObject>({
    listerWatcher: lw,
    objectType: 'v1/Pod',
    clock,
    fifo,
    resyncPeriodMs,
    useWatchList,
    random: () => 0.5,
  });
  const keyOf = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;
  // Each handler mirrors what it is told; handlers added mid-run start from the replayed state.
  const mirrors: Map<string, KubeObject>[] = [];
  const addMirror = (): void => {
    const mirror = new Map<string, KubeObject>();
    mirrors.push(mirror);
    inf.addEventHandler({
      onAdd: (o) => void mirror.set(keyOf(o), o),
      onUpdate: (_old, o) => void mirror.set(keyOf(o), o),
      onDelete: (o) => void mirror.delete(o instanceof DeletedFinalStateUnknown ? o.key : keyOf(o)),
    });
  };
  addMirror();
  const done = inf.run(ctl.signal);
  let version = 1;
  const write = (n: string, del: boolean, dropWatch: boolean): void => {
    const exists = lw.get('ns', n) !== undefined;
    if (del && exists) lw.delete(pod(n, 0), { dropWatch });
    else if (exists) lw.update(pod(n, version++), { dropWatch });
    else lw.add(pod(n, version++), { dropWatch });
  };
  await clock.advance(0);
  for (const o of ops) {
    switch (o.op) {
      case 'write':
        write(o.name, o.del, false);
        break;
      case 'missed':
        // Changes the watch never delivers, then history is compacted: only a relist can find them.
        for (const n of o.names) write(n, false, true);
        lw.compact();
        await clock.advance(1000);
        lw.closeWatches();
        break;
      case 'close':
        await clock.advance(o.afterMs);
        lw.closeWatches();
        break;
      case 'failList':
        lw.failNextList(new ApiError(500, 'InternalError', 'list failed'), o.n);
        break;
      case 'failWatch':
        lw.failNextWatch(
          o.how === 'refused'
            ? connectionRefusedError()
            : o.how === '429'
              ? tooManyRequestsError()
              : new ApiError(500, 'InternalError', 'watch failed'),
          o.n,
        );
        break;
      case 'errorEvent':
        lw.sendError(o.code === 410 ? expiredStatus() : internalErrorStatus());
        break;
      case 'bookmark':
        lw.bookmark();
        break;
      case 'tick':
        await clock.advance(o.ms);
        break;
      case 'addHandler':
        addMirror();
        break;
    }
    await clock.advance(0);
  }
  // Settle: close the watch (so nothing sent earlier is still in flight), then let backoff, relist and
  // re-watch run until the injected failures are used up and the reflector watches again.
  await clock.advance(1000);
  lw.closeWatches();
  for (let i = 0; i < 1000; i++) {
    await clock.advance(5000);
    if (lw.pendingFailures === 0 && inf.reflectorState === 'watching') break;
  }
  await clock.advance(0);

  const want = snapshot(lw.contents());
  expect(snapshot(inf.getIndexer().list())).toEqual(want);
  for (const mirror of mirrors) expect(snapshot([...mirror.values()])).toEqual(want);
  expect(inf.hasSynced()).toBe(true);
  ctl.abort();
  await done;
}

describe('SharedIndexInformer converges to the server state (property)', () => {
  for (const fifo of ['RealFIFO', 'DeltaFIFO'] as const) {
    it(`${fifo}: indexer and every handler mirror (early or late) equal a fresh LIST after any history`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(0, 5000),
          fc.boolean(),
          fc.array(opArb, { maxLength: 25 }),
          (resync, useWatchList, ops) => runScenario(fifo, resync, useWatchList, ops),
        ),
        { numRuns: 50 },
      );
    }, 60_000);
  }
});
