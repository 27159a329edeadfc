// The FIFO tests' objects and tables, shared by the DeltaFIFO and RealFIFO suites: client-go's delta_fifo_test
// and the_real_fifo_test use the same testFifoObject and the same replace cases, differing only in the delta a
// relisted object gets.
import type { Deltas } from '../cache/delta-fifo';
import { DeletedFinalStateUnknown } from '../cache/interfaces';
import type { KeyListerGetter } from '../cache/reflector-store';

/** testFifoObject: a name (its key) and a value. */
export interface TObj {
  name: string;
  val: unknown;
}

export const mk = (name: string, val: unknown): TObj => ({ name, val });
export const nameKey = (o: unknown): string => (o as TObj).name;
export const tomb = (key: string, obj: TObj | undefined): DeletedFinalStateUnknown<TObj> =>
  new DeletedFinalStateUnknown(key, obj as TObj);

/** literalListerGetter: known objects from a fixed list. */
export function literalLister(...objs: TObj[]): KeyListerGetter<TObj> {
  const m = new Map(objs.map((o) => [o.name, o]));
  return { listKeys: () => [...m.keys()], getByKey: (k) => m.get(k) };
}

/** What a replace case does to a queue: the operations both FIFOs offer. */
interface ReplaceTarget {
  add(obj: TObj): void;
  delete(obj: TObj): void;
  replace(list: TObj[], resourceVersion: string): void;
}

export interface ReplaceCase {
  name: string;
  ops: (f: ReplaceTarget) => void;
  want: Deltas<TObj>;
}

/**
 * The ReplaceMakesDeletionsForObjectsOnlyInQueue cases both FIFOs share; `relisted` is the delta a replace
 * gives an object still listed (DeltaFIFO: Sync, or Replaced when asked; RealFIFO: Replaced).
 */
export function replaceMakesDeletionsCases(relisted: 'Sync' | 'Replaced'): ReplaceCase[] {
  const obj = mk('foo', 2);
  const objV2 = mk('foo', 3);
  return [
    {
      name: 'Added object should be deleted on Replace',
      ops: (f) => {
        f.add(obj);
        f.replace([], '0');
      },
      want: [
        { type: 'Added', object: obj },
        { type: 'Deleted', object: tomb('foo', obj) },
      ],
    },
    {
      name: 'Deleted object should have only a single Delete',
      ops: (f) => {
        f.add(obj);
        f.delete(obj);
        f.replace([], '0');
      },
      want: [
        { type: 'Added', object: obj },
        { type: 'Deleted', object: obj },
      ],
    },
    {
      name: 'Synced objects should have a single delete',
      ops: (f) => {
        f.add(obj);
        f.replace([obj], '0');
        f.replace([obj], '0');
        f.replace([], '0');
      },
      want: [
        { type: 'Added', object: obj },
        { type: relisted, object: obj },
        { type: relisted, object: obj },
        { type: 'Deleted', object: tomb('foo', obj) },
      ],
    },
    {
      name: 'Added objects should have a single delete on multiple Replaces',
      ops: (f) => {
        f.add(obj);
        f.replace([], '0');
        f.replace([], '1');
      },
      want: [
        { type: 'Added', object: obj },
        { type: 'Deleted', object: tomb('foo', obj) },
      ],
    },
    {
      name: 'Added and deleted and added object should be deleted',
      ops: (f) => {
        f.add(obj);
        f.delete(obj);
        f.add(objV2);
        f.replace([], '0');
      },
      want: [
        { type: 'Added', object: obj },
        { type: 'Deleted', object: obj },
        { type: 'Added', object: objV2 },
        { type: 'Deleted', object: tomb('foo', objV2) },
      ],
    },
  ];
}
