// Fixtures for the reflector tests: objects, lists and a ListerWatcher scripted call by call.
import type { KubeList, KubeObject } from '../../../shared/models/object';
import type { ListOptions, ListerWatcher, WatchStream } from '../client/lister-watcher';
import { ApiError } from '../util/errors';

export const pod = (name: string, rv: string, kind = 'Pod'): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { namespace: 'ns', name, resourceVersion: rv },
});
export const listOf = (rv: string, items: KubeObject[] = [], cont?: string): KubeList => ({
  metadata: { resourceVersion: rv, ...(cont ? { continue: cont } : {}) },
  items,
});

export interface FuncLW extends ListerWatcher {
  listCalls: ListOptions[];
  watchCalls: ListOptions[];
}
/** A ListerWatcher whose answers the test scripts call by call. Like client-go's fakes it declares no
 *  WatchList support, so reflectors LIST unless a test sets useWatchList. */
export function funcLW(
  list: (o: ListOptions, n: number) => KubeList | Promise<KubeList>,
  watch: (o: ListOptions, n: number) => WatchStream | Promise<WatchStream>,
): FuncLW {
  const lw: FuncLW = {
    listCalls: [],
    watchCalls: [],
    isWatchListSemanticsUnSupported: () => true,
    list: async (o) => {
      lw.listCalls.push({ ...o });
      return list(o, lw.listCalls.length);
    },
    watch: async (o) => {
      lw.watchCalls.push({ ...o });
      return watch(o, lw.watchCalls.length);
    },
  };
  return lw;
}
export const rvs = (calls: ListOptions[]): string[] => calls.map((c) => c.resourceVersion ?? '');
export const failWatch = (): never => {
  throw new ApiError(400, 'BadRequest', 'watch refused');
};
