// The reflector's view of client-go tools/pager: one paginated LIST (ListPager, in the client package, does
// the paging and the expired-continuation fallback) plus the page count the reflector reports.
import type { KubeList, KubeObject } from '../../../shared/models/object';
import type { ListOptions, ListerWatcher } from '../client/lister-watcher';
import { ListPager } from '../client/pager';

/** pager.defaultPageSize */
export const DEFAULT_PAGE_SIZE = ListPager.defaultPageSize;

export interface PagedList<T extends KubeObject> {
  list: KubeList<T>;
  /** true when more than one page was fetched. */
  paginated: boolean;
  pages: number;
}

/**
 * Lists in pages of pageSize (0 = unpaginated, unless options.limit is set). When a continuation page
 * has expired, falls back once to a full unpaginated list at the original resourceVersion.
 */
export async function listPages<T extends KubeObject>(
  lw: Pick<ListerWatcher<T>, 'list'>,
  initial: ListOptions,
  pageSize: number,
  signal?: AbortSignal,
): Promise<PagedList<T>> {
  let pages = 0;
  const counting: Pick<ListerWatcher<T>, 'list'> = {
    list: async (options, s) => {
      const page = await lw.list(options, s);
      pages++;
      return page;
    },
  };
  const { list, paginatedResult } = await new ListPager<T>({ lister: counting, pageSize }).list(initial, signal);
  return { list, paginated: paginatedResult, pages };
}
