// Ports client-go tools/pager/pager.go: a paginated LIST with the expired-continuation fallback.
import type { KubeList, KubeObject } from '../../../shared/models/object';
import type { ListOptions, ListerWatcher } from '../client/lister-watcher';
import { isResourceExpired } from '../util/errors';

/** pager.defaultPageSize */
export const DEFAULT_PAGE_SIZE = 500;

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
  const options: ListOptions = { ...initial };
  if (!options.limit) options.limit = pageSize;
  if (!options.limit) delete options.limit;
  let acc: KubeList<T> | undefined;
  let pages = 0;
  for (;;) {
    let page: KubeList<T>;
    try {
      page = await lw.list({ ...options }, signal);
      pages++;
    } catch (err) {
      if (!isResourceExpired(err) || !options.continue) throw err;
      const full: ListOptions = { ...initial };
      delete full.limit;
      delete full.continue;
      const list = await lw.list(full, signal);
      return { list, paginated: false, pages: pages + 1 };
    }
    const next = page.metadata.continue;
    if (!next && !acc) return { list: page, paginated: false, pages };
    if (!acc) acc = { ...page, metadata: { ...page.metadata }, items: [...page.items] };
    else acc.items.push(...page.items);
    if (!next) {
      delete acc.metadata.continue;
      return { list: acc, paginated: true, pages };
    }
    options.continue = next;
    // The continue token pins the version; the server refuses both together.
    delete options.resourceVersion;
    delete options.resourceVersionMatch;
  }
}
