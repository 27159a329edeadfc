import { describe, expect, it } from 'vitest';
import { DeltaFIFO, type Deltas } from './delta-fifo';
import type { KeyListerGetter } from './reflector-store';
import {
  literalLister,
  mk,
  nameKey,
  replaceMakesDeletionsCases,
  tomb,
  type ReplaceCase,
  type TObj,
} from '../testing/fifo-fixtures';

function fifo(opts: { known?: KeyListerGetter<TObj>; replaced?: boolean; transformer?: (o: TObj) => TObj } = {}) {
  return new DeltaFIFO<TObj>({
    keyFunction: nameKey,
    ...(opts.known ? { knownObjects: opts.known } : {}),
    ...(opts.replaced ? { emitDeltaTypeReplaced: true } : {}),
    ...(opts.transformer ? { transformer: opts.transformer } : {}),
  });
}

const pop = (f: DeltaFIFO<TObj>): Promise<Deltas<TObj>> => f.pop(() => {});

/** Pops everything queued (without blocking). */
async function drain(f: DeltaFIFO<TObj>): Promise<Deltas<TObj>[]> {
  const out: Deltas<TObj>[] = [];
  while (f.listKeys().length > 0) out.push(await pop(f));
  return out;
}

describe('delta_fifo_test: Replace', () => {
  it('TestDeltaFIFO_ReplaceMakesDeletions', async () => {
    const known = (): KeyListerGetter<TObj> => literalLister(mk('foo', 5), mk('bar', 6), mk('baz', 7));

    let f = fifo({ known: known() });
    f.delete(mk('baz', 10));
    f.replace([mk('foo', 5)], '0');
    expect(await drain(f)).toEqual([
      [{ type: 'Deleted', object: mk('baz', 10) }],
      [{ type: 'Sync', object: mk('foo', 5) }],
      [{ type: 'Deleted', object: tomb('bar', mk('bar', 6)) }],
    ]);

    f = fifo({ known: known() });
    f.add(mk('baz', 10));
    f.replace([mk('foo', 5)], '0');
    expect(await drain(f)).toEqual([
      [
        { type: 'Added', object: mk('baz', 10) },
        { type: 'Deleted', object: tomb('baz', mk('baz', 10)) },
      ],
      [{ type: 'Sync', object: mk('foo', 5) }],
      [{ type: 'Deleted', object: tomb('bar', mk('bar', 6)) }],
    ]);

    f = fifo({ known: known() });
    f.delete(mk('bar', 6));
    f.add(mk('bar', 100));
    f.replace([mk('foo', 5)], '0');
    expect(await drain(f)).toEqual([
      [
        { type: 'Deleted', object: mk('bar', 6) },
        { type: 'Added', object: mk('bar', 100) },
        { type: 'Deleted', object: tomb('bar', mk('bar', 100)) },
      ],
      [{ type: 'Sync', object: mk('foo', 5) }],
      [{ type: 'Deleted', object: tomb('baz', mk('baz', 7)) }],
    ]);

    f = fifo({ known: known() });
    f.replace([mk('bar', 100), mk('foo', 5)], '0');
    f.replace([mk('foo', 5)], '0');
    expect(await drain(f)).toEqual([
      [
        { type: 'Sync', object: mk('bar', 100) },
        { type: 'Deleted', object: tomb('bar', mk('bar', 100)) },
      ],
      [
        { type: 'Sync', object: mk('foo', 5) },
        { type: 'Sync', object: mk('foo', 5) },
      ],
      [{ type: 'Deleted', object: tomb('baz', mk('baz', 7)) }],
    ]);

    f = fifo();
    f.add(mk('baz', 10));
    f.replace([mk('foo', 5)], '0');
    expect(await drain(f)).toEqual([
      [
        { type: 'Added', object: mk('baz', 10) },
        { type: 'Deleted', object: tomb('baz', mk('baz', 10)) },
      ],
      [{ type: 'Sync', object: mk('foo', 5) }],
    ]);
  });

  it('TestDeltaFIFO_ReplaceMakesDeletionsReplaced', async () => {
    const f = fifo({ known: literalLister(mk('foo', 5), mk('bar', 6), mk('baz', 7)), replaced: true });
    f.delete(mk('baz', 10));
    f.replace([mk('foo', 6)], '0');
    expect(await drain(f)).toEqual([
      [{ type: 'Deleted', object: mk('baz', 10) }],
      [{ type: 'Replaced', object: mk('foo', 6) }],
      [{ type: 'Deleted', object: tomb('bar', mk('bar', 6)) }],
    ]);
  });

  it('TestDeltaFIFO_ReplaceDeltaType', async () => {
    const f = fifo({ known: literalLister(mk('foo', 5)), replaced: true });
    f.replace([mk('foo', 5)], '0');
    expect(await drain(f)).toEqual([[{ type: 'Replaced', object: mk('foo', 5) }]]);
  });

  describe('TestDeltaFIFO_ReplaceMakesDeletionsForObjectsOnlyInQueue', () => {
    const obj = mk('foo', 2);
    const cases: (ReplaceCase & { replaced?: boolean })[] = [
      ...replaceMakesDeletionsCases('Sync'),
      {
        name: 'Replaced object should have only a single Delete',
        replaced: true,
        ops: (f) => {
          f.add(obj);
          f.replace([obj], '0');
          f.replace([], '0');
        },
        want: [
          { type: 'Added', object: obj },
          { type: 'Replaced', object: obj },
          { type: 'Deleted', object: tomb('foo', obj) },
        ],
      },
    ];
    for (const c of cases) {
      for (const withKnown of [true, false]) {
        it(`${c.name} (${withKnown ? 'empty knownObjects' : 'no knownObjects'})`, async () => {
          const f = fifo({
            ...(withKnown ? { known: literalLister() } : {}),
            ...(c.replaced ? { replaced: true } : {}),
          });
          c.ops(f);
          expect(await pop(f)).toEqual(c.want);
          expect(f.listKeys()).toEqual([]);
        });
      }
    }
  });
});

describe('delta_fifo_test: TestDeltaFIFO_replaceWithDeleteDeltaIn, in both Replace modes', () => {
  // A queued Delete must not swallow the Sync/Replaced that a relist adds after it (missed creates).
  for (const replaced of [false, true]) {
    it(`Delete then Replace keeps both deltas (${replaced ? 'Replaced' : 'Sync'} mode)`, async () => {
      const f = fifo({ known: literalLister(mk('foo', 1)), replaced });
      f.delete(mk('foo', 1));
      f.replace([mk('foo', 2)], '0');
      expect(await drain(f)).toEqual([
        [
          { type: 'Deleted', object: mk('foo', 1) },
          { type: replaced ? 'Replaced' : 'Sync', object: mk('foo', 2) },
        ],
      ]);
    });
  }
});
